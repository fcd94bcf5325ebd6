import { applyDecorators } from '@nestjs/common';
import {
  ApiResponse,
  ApiSecurity,
  type ApiResponseOptions,
  type SchemaObject,
} from '@nestjs/swagger';
import { CommonErrors } from '../errors/common.errors';
import type { MessagePattern } from '../errors/message-pattern';

export const API_KEY_SECURITY = 'x-api-key';

/**
 * One message an error status can answer: its exact string, or — for a message that names a
 * value, like `User <externalID> is not part of group <groupID>` — its pattern (no answer ever
 * equals the template, so it is no enum literal).
 */
export type ErrorMessage = string | MessagePattern;

const isPattern = (message: ErrorMessage): message is MessagePattern => typeof message !== 'string';

/** A message in an operation's description: the string, or the template and its pattern. */
const written = (message: ErrorMessage): string =>
  isPattern(message)
    ? `\`${message.template}\` (each answer matches \`${message.pattern}\`)`
    : `\`${message}\``;

/**
 * The `{"error": message}` envelope of an error answer (docs/api.md, "The error contract"). Exact
 * messages are an enum of their strings, byte for byte; a message that names a value is a
 * pattern, with its template as description and a real answer as example. The example is the
 * first message (or its example).
 */
export function errorSchema(messages: readonly ErrorMessage[]): SchemaObject {
  if (messages.length === 0) throw new Error('errorSchema: an error answer has a message');
  const exact = messages.filter((message): message is string => !isPattern(message));
  const patterns = messages.filter(isPattern);
  const error: SchemaObject =
    patterns.length === 0
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
export function ApiErrorResponse(
  status: number,
  description: string,
  messages: readonly ErrorMessage[],
  options: Pick<ApiResponseOptions, 'headers'> = {},
): MethodDecorator & ClassDecorator {
  return ApiResponse({ status, description, schema: errorSchema(messages), ...options });
}

/**
 * Documents the limits per client address of a public endpoint (docs/security.md): its 429.
 */
export function ApiClientAddressLimits(): MethodDecorator {
  return ApiErrorResponse(
    429,
    'Too many requests from this client address (`PUBLIC_RATE_LIMIT_REQUESTS` per minute), or ' +
      'too many of them refused for a wrong credential (`AUTH_FAILURE_LIMIT` per minute); retry ' +
      'after the `Retry-After` header (seconds). Nothing was changed.',
    [CommonErrors.TooManyRequests],
    { headers: RETRY_AFTER },
  );
}

/**
 * Documents an operation's 400 answers: the exact messages (or patterns) it can answer, in the
 * order they are checked.
 */
export function ApiBadRequestMessages(messages: readonly ErrorMessage[]): MethodDecorator {
  return ApiErrorResponse(
    400,
    [
      'The first failing check, in this order:',
      ...messages.map((message) => `- ${written(message)}`),
    ].join('\n'),
    messages,
  );
}

/** An error status an endpoint answers besides 400, 401 and 429, with its exact messages. */
export interface ApiErrorStatus {
  status: number;
  description: string;
  messages: readonly ErrorMessage[];
}

/**
 * Documents an authenticated endpoint: the `x-api-key` scheme, its 401 and 429, the exact 400
 * messages it can answer, in the order they are checked, and any other error status it answers
 * (`otherErrors`: e.g. 404, 409) with its messages.
 */
export function ApiEndpointErrors(
  badRequestMessages: readonly ErrorMessage[],
  otherErrors: readonly ApiErrorStatus[] = [],
): MethodDecorator {
  const decorators: MethodDecorator[] = [
    ApiSecurity(API_KEY_SECURITY),
    ApiErrorResponse(401, 'Missing, unknown or revoked API key.', [CommonErrors.Unauthorized]),
    ApiErrorResponse(
      429,
      "The API key's rate limit is spent (`RATE_LIMIT_REQUESTS` per `RATE_LIMIT_WINDOW`, shared " +
        'by all routes), or this request failed authentication and too many from its client ' +
        'address already had (`AUTH_FAILURE_LIMIT` per minute; a valid key is never refused ' +
        'for them); retry after the `Retry-After` header (seconds). Nothing was changed.',
      [CommonErrors.TooManyRequests],
      { headers: RETRY_AFTER },
    ),
  ];
  if (badRequestMessages.length > 0) decorators.push(ApiBadRequestMessages(badRequestMessages));
  for (const { status, description, messages } of otherErrors) {
    decorators.push(ApiErrorResponse(status, description, messages));
  }
  return applyDecorators(...decorators);
}
