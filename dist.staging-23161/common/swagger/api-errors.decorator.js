"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.API_KEY_SECURITY = void 0;
exports.errorSchema = errorSchema;
exports.ApiErrorResponse = ApiErrorResponse;
exports.ApiClientAddressLimits = ApiClientAddressLimits;
exports.ApiBadRequestMessages = ApiBadRequestMessages;
exports.ApiEndpointErrors = ApiEndpointErrors;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const common_errors_1 = require("../errors/common.errors");
exports.API_KEY_SECURITY = 'x-api-key';
const isPattern = (message) => typeof message !== 'string';
/** A message in an operation's description: the string, or the template and its pattern. */
const written = (message) => isPattern(message)
    ? `\`${message.template}\` (each answer matches \`${message.pattern}\`)`
    : `\`${message}\``;
/**
 * The `{"error": message}` envelope of an error answer (docs/api.md, "The error contract"). Exact
 * messages are an enum of their strings, byte for byte; a message that names a value is a
 * pattern, with its template as description and a real answer as example. The example is the
 * first message (or its example).
 */
function errorSchema(messages) {
    if (messages.length === 0)
        throw new Error('errorSchema: an error answer has a message');
    const exact = messages.filter((message) => !isPattern(message));
    const patterns = messages.filter(isPattern);
    const error = patterns.length === 0
        ? { type: 'string', enum: [...exact] }
        : {
            type: 'string',
            anyOf: [
                ...(exact.length > 0 ? [{ type: 'string', enum: [...exact] }] : []),
                ...patterns.map(({ template, pattern, example }) => ({
                    type: 'string',
                    pattern,
                    description: template,
                    example,
                })),
            ],
        };
    const first = messages[0];
    return {
        type: 'object',
        required: ['error'],
        properties: { error },
        example: { error: isPattern(first) ? first.example : first },
    };
}
const RETRY_AFTER = {
    'Retry-After': { description: 'Seconds until the budget renews', schema: { type: 'integer' } },
};
/**
 * Documents one error status of an operation with its `{"error": …}` schema: every response
 * the document lists has a schema, so a generated client types `error` for every status.
 */
function ApiErrorResponse(status, description, messages, options = {}) {
    return (0, swagger_1.ApiResponse)({ status, description, schema: errorSchema(messages), ...options });
}
/**
 * Documents the limits per client address of a public endpoint (docs/security.md): its 429.
 */
function ApiClientAddressLimits() {
    return ApiErrorResponse(429, 'Too many requests from this client address (`PUBLIC_RATE_LIMIT_REQUESTS` per minute), or ' +
        'too many of them refused for a wrong credential (`AUTH_FAILURE_LIMIT` per minute); retry ' +
        'after the `Retry-After` header (seconds). Nothing was changed.', [common_errors_1.CommonErrors.TooManyRequests], { headers: RETRY_AFTER });
}
/**
 * Documents an operation's 400 answers: the exact messages (or patterns) it can answer, in the
 * order they are checked.
 */
function ApiBadRequestMessages(messages) {
    return ApiErrorResponse(400, [
        'The first failing check, in this order:',
        ...messages.map((message) => `- ${written(message)}`),
    ].join('\n'), messages);
}
/**
 * Documents an authenticated endpoint: the `x-api-key` scheme, its 401 and 429, the exact 400
 * messages it can answer, in the order they are checked, and any other error status it answers
 * (`otherErrors`: e.g. 404, 409) with its messages.
 */
function ApiEndpointErrors(badRequestMessages, otherErrors = []) {
    const decorators = [
        (0, swagger_1.ApiSecurity)(exports.API_KEY_SECURITY),
        ApiErrorResponse(401, 'Missing, unknown or revoked API key.', [common_errors_1.CommonErrors.Unauthorized]),
        ApiErrorResponse(429, "The API key's rate limit is spent (`RATE_LIMIT_REQUESTS` per `RATE_LIMIT_WINDOW`, shared " +
            'by all routes), or this request failed authentication and too many from its client ' +
            'address already had (`AUTH_FAILURE_LIMIT` per minute; a valid key is never refused ' +
            'for them); retry after the `Retry-After` header (seconds). Nothing was changed.', [common_errors_1.CommonErrors.TooManyRequests], { headers: RETRY_AFTER }),
    ];
    if (badRequestMessages.length > 0)
        decorators.push(ApiBadRequestMessages(badRequestMessages));
    for (const { status, description, messages } of otherErrors) {
        decorators.push(ApiErrorResponse(status, description, messages));
    }
    return (0, common_1.applyDecorators)(...decorators);
}
//# sourceMappingURL=api-errors.decorator.js.map