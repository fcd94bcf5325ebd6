/**
 * What every operation that takes a JSON body can answer besides its own checks, added to the
 * OpenAPI document where Nest's decorators cannot see it (docs/api.md, "The error contract"):
 *
 * - 400 `Invalid JSON body` first of all: a body that is not one JSON object (malformed, nested
 *   deeper than 32 levels, or an array, string, number, boolean or null), request-body.ts;
 * - 400 `<field> must not contain control characters` for the first field of the body holding
 *   one, after every field's own checks and before any existence check
 *   (spec-validation.pipe.ts);
 * - 413 `Payload too large` over 1 MiB, 415 `Unsupported media type` for a body that is not JSON;
 * - on every operation: 404 for a path the router cannot read, 500 for a fault, 503 while
 *   PostgreSQL is unreachable or the process drains (unless the operation documents its own).
 *
 * Plus the exact parameter schemas the service accepts: path IDs of decimal digits, metric days
 * `YYYY-MM-DD`, `top` a whole number from 1 to 200; and the engine's token is an opaque secret.
 */
import type { OpenAPIObject } from '@nestjs/swagger';
import { CommonErrors, messageForStatus } from '../errors/common.errors';
import { BODY_LIMIT_BYTES, MAX_JSON_DEPTH } from '../http/request-body';
import { controlCharactersMessage } from '../validation/rules';
import { errorSchema } from './api-errors.decorator';

type Json = Record<string, unknown>;

/** What any operation may answer whatever its own checks (docs/api.md, "The error contract"). */
const EVERY_OPERATION: [string, string][] = [
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
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

const INVALID_JSON_LINE =
  `- \`${CommonErrors.InvalidJsonBody}\` (a body that is not one JSON object: malformed, nested ` +
  `deeper than ${MAX_JSON_DEPTH} levels, or an array, a string, a number, a boolean or null)`;

/** The body's properties that can hold a string, in declaration order. */
function stringFields(document: OpenAPIObject, operation: Json): string[] {
  const content = (operation.requestBody as Json | undefined)?.content as Json | undefined;
  let schema = (content?.['application/json'] as Json | undefined)?.schema as Json | undefined;
  const ref = schema?.$ref;
  if (typeof ref === 'string') {
    schema = document.components?.schemas?.[ref.split('/').pop() as string] as Json | undefined;
  }
  const properties = (schema?.properties ?? {}) as Record<string, Json>;
  return (
    Object.entries(properties)
      // Enums and booleans are refused by their own checks; numbers hold no text.
      .filter(
        ([, property]) =>
          property.enum === undefined &&
          !['boolean', 'number', 'integer'].includes(property.type as string),
      )
      .map(([name]) => name)
  );
}

function withBodyMessages(response: Json, fields: string[]): void {
  const schema = (response.content as Json)['application/json'] as Json;
  const error = ((schema.schema as Json).properties as Json).error as Json;
  const exact = (error.enum ?? (error.anyOf as Json[] | undefined)?.[0]?.enum) as
    string[] | undefined;
  if (!exact) return;
  const controls = fields.map(controlCharactersMessage).filter((m) => !exact.includes(m));
  // After the last message naming a body field (its own checks) that comes before the first
  // existence check (`… not found`): the pipe scans for control characters before the service
  // looks anything up.
  const firstLookup = exact.findIndex((message) => /not found/i.test(message));
  const checks = firstLookup < 0 ? exact : exact.slice(0, firstLookup);
  let at = -1;
  checks.forEach((message, index) => {
    if (fields.some((field) => message.includes(field))) at = index;
  });
  const lines = String(response.description).split('\n');
  const lineOf = (message: string) => lines.findIndex((line) => line.includes(`\`${message}\``));
  const anchorLine = at >= 0 ? lineOf(exact[at]) : lines.length - 1;
  exact.splice(at + 1, 0, ...controls);
  lines.splice(
    anchorLine + 1,
    0,
    ...controls.map((message) => `- \`${message}\` (the first field holding a control character)`),
  );
  exact.unshift(CommonErrors.InvalidJsonBody);
  lines.splice(1, 0, INVALID_JSON_LINE);
  response.description = lines.join('\n');
}

/** Adds the body answers and exact parameter schemas to `document` (in place). */
export function completeOperations(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = (item as Json)[method] as Json | undefined;
      if (!operation) continue;
      const responses = operation.responses as Json;
      for (const [status, description] of EVERY_OPERATION) {
        responses[status] ??= {
          description,
          content: {
            'application/json': { schema: errorSchema([messageForStatus(Number(status))]) },
          },
        };
      }
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        exactParameter(path, parameter);
      }
      // A body may come with any POST, PUT, PATCH or DELETE; one the operation does not take is
      // still read (and refused when malformed or not JSON).
      if (!operation.requestBody && method === 'get') continue;
      const fields = stringFields(document, operation);
      if (responses['400']) withBodyMessages(responses['400'] as Json, fields);
      else {
        responses['400'] = {
          description: ['The first failing check, in this order:', INVALID_JSON_LINE].join('\n'),
          content: { 'application/json': { schema: errorSchema([CommonErrors.InvalidJsonBody]) } },
        };
      }
      responses['413'] = {
        description: `The body is over ${BODY_LIMIT_BYTES / 1024 / 1024} MiB; nothing was read or changed.`,
        content: { 'application/json': { schema: errorSchema([messageForStatus(413)]) } },
      };
      responses['415'] = {
        description: 'The body is not `application/json`; nothing was changed.',
        content: { 'application/json': { schema: errorSchema([messageForStatus(415)]) } },
      };
    }
  }
  const engine = document.components?.securitySchemes?.['engine-token'] as Json | undefined;
  if (engine) {
    delete engine.bearerFormat;
    engine.description = 'ENGINE_TOKEN, an opaque shared secret (analysis engine only)';
  }
}

/** A parameter's schema as the service checks it. */
function exactParameter(path: string, parameter: Json): void {
  const name = parameter.name as string;
  if (parameter.in === 'path' && name === 'groupID') {
    parameter.schema = { type: 'integer', minimum: 0, example: 42 };
    parameter.description = 'The group’s ID, in decimal digits (no sign, point or exponent).';
  }
  if (parameter.in === 'query' && path.startsWith('/metrics/')) {
    const schema = parameter.schema as Json;
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
      parameter.description = `${parameter.description as string} In decimal digits, without a leading zero.`;
    }
  }
}
