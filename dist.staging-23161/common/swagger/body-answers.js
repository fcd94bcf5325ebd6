"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.completeOperations = completeOperations;
const common_errors_1 = require("../errors/common.errors");
const request_body_1 = require("../http/request-body");
const rules_1 = require("../validation/rules");
const api_errors_decorator_1 = require("./api-errors.decorator");
/** What any operation may answer whatever its own checks (docs/api.md, "The error contract"). */
const EVERY_OPERATION = [
    [
        '404',
        'No such route: a path parameter the router cannot read (a malformed %-escape, one over ' +
            '2,048 characters). Nothing was changed.',
    ],
    [
        '500',
        'A fault of the service, logged with the request id (`x-request-id`); the answer never ' +
            'says more. Nothing was changed, as far as the service knows.',
    ],
    [
        '503',
        'PostgreSQL cannot be reached, or the process is shutting down; retry after `Retry-After` ' +
            '(seconds).',
    ],
];
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const INVALID_JSON_LINE = `- \`${common_errors_1.CommonErrors.InvalidJsonBody}\` (a body that is not one JSON object: malformed, nested ` +
    `deeper than ${request_body_1.MAX_JSON_DEPTH} levels, or an array, a string, a number, a boolean or null)`;
/** The body's properties that can hold a string, in declaration order. */
function stringFields(document, operation) {
    const content = operation.requestBody?.content;
    let schema = content?.['application/json']?.schema;
    const ref = schema?.$ref;
    if (typeof ref === 'string') {
        schema = document.components?.schemas?.[ref.split('/').pop()];
    }
    const properties = (schema?.properties ?? {});
    return (Object.entries(properties)
        // Enums and booleans are refused by their own checks; numbers hold no text.
        .filter(([, property]) => property.enum === undefined &&
        !['boolean', 'number', 'integer'].includes(property.type))
        .map(([name]) => name));
}
function withBodyMessages(response, fields) {
    const schema = response.content['application/json'];
    const error = schema.schema.properties.error;
    const exact = (error.enum ?? error.anyOf?.[0]?.enum);
    if (!exact)
        return;
    const controls = fields.map(rules_1.controlCharactersMessage).filter((m) => !exact.includes(m));
    // After the last message naming a body field (its own checks) that comes before the first
    // existence check (`… not found`): the pipe scans for control characters before the service
    // looks anything up.
    const firstLookup = exact.findIndex((message) => /not found/i.test(message));
    const checks = firstLookup < 0 ? exact : exact.slice(0, firstLookup);
    let at = -1;
    checks.forEach((message, index) => {
        if (fields.some((field) => message.includes(field)))
            at = index;
    });
    const lines = String(response.description).split('\n');
    const lineOf = (message) => lines.findIndex((line) => line.includes(`\`${message}\``));
    const anchorLine = at >= 0 ? lineOf(exact[at]) : lines.length - 1;
    exact.splice(at + 1, 0, ...controls);
    lines.splice(anchorLine + 1, 0, ...controls.map((message) => `- \`${message}\` (the first field holding a control character)`));
    exact.unshift(common_errors_1.CommonErrors.InvalidJsonBody);
    lines.splice(1, 0, INVALID_JSON_LINE);
    response.description = lines.join('\n');
}
/** Adds the body answers and exact parameter schemas to `document` (in place). */
function completeOperations(document) {
    for (const [path, item] of Object.entries(document.paths)) {
        for (const method of METHODS) {
            const operation = item[method];
            if (!operation)
                continue;
            const responses = operation.responses;
            for (const [status, description] of EVERY_OPERATION) {
                responses[status] ??= {
                    description,
                    content: {
                        'application/json': { schema: (0, api_errors_decorator_1.errorSchema)([(0, common_errors_1.messageForStatus)(Number(status))]) },
                    },
                };
            }
            for (const parameter of (operation.parameters ?? [])) {
                exactParameter(path, parameter);
            }
            // A body may come with any POST, PUT, PATCH or DELETE; one the operation does not take is
            // still read (and refused when malformed or not JSON).
            if (!operation.requestBody && method === 'get')
                continue;
            const fields = stringFields(document, operation);
            if (responses['400'])
                withBodyMessages(responses['400'], fields);
            else {
                responses['400'] = {
                    description: ['The first failing check, in this order:', INVALID_JSON_LINE].join('\n'),
                    content: { 'application/json': { schema: (0, api_errors_decorator_1.errorSchema)([common_errors_1.CommonErrors.InvalidJsonBody]) } },
                };
            }
            responses['413'] = {
                description: `The body is over ${request_body_1.BODY_LIMIT_BYTES / 1024 / 1024} MiB; nothing was read or changed.`,
                content: { 'application/json': { schema: (0, api_errors_decorator_1.errorSchema)([(0, common_errors_1.messageForStatus)(413)]) } },
            };
            responses['415'] = {
                description: 'The body is not `application/json`; nothing was changed.',
                content: { 'application/json': { schema: (0, api_errors_decorator_1.errorSchema)([(0, common_errors_1.messageForStatus)(415)]) } },
            };
        }
    }
    const engine = document.components?.securitySchemes?.['engine-token'];
    if (engine) {
        delete engine.bearerFormat;
        engine.description = 'ENGINE_TOKEN, an opaque shared secret (analysis engine only)';
    }
}
/** A parameter's schema as the service checks it. */
function exactParameter(path, parameter) {
    const name = parameter.name;
    if (parameter.in === 'path' && name === 'groupID') {
        parameter.schema = { type: 'integer', minimum: 0, example: 42 };
        parameter.description = 'The group’s ID, in decimal digits (no sign, point or exponent).';
    }
    if (parameter.in === 'query' && path.startsWith('/metrics/')) {
        const schema = parameter.schema;
        if (name === 'from' || name === 'to') {
            parameter.schema = {
                ...schema,
                type: 'string',
                format: 'date',
                pattern: '^\\d{4}-\\d{2}-\\d{2}$',
            };
        }
        if (name === 'top') {
            parameter.schema = { type: 'integer', minimum: 1, maximum: 200, default: 50 };
            parameter.description = `${parameter.description} In decimal digits, without a leading zero.`;
        }
    }
}
//# sourceMappingURL=body-answers.js.map