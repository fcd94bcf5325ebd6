import { applyDecorators } from '@nestjs/common';
import { ApiBadRequestResponse, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import { CommonErrors } from '../errors/common.errors';

export const API_KEY_SECURITY = 'x-api-key';

const errorSchema = (messages: readonly string[]) => ({
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string', enum: [...messages] } },
  example: { error: messages[0] },
});

const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds until the budget renews', schema: { type: 'integer' } },
};

/**
 * Documents the limits per client address of a public endpoint (docs/security.md): its 429.
 */
export function ApiClientAddressLimits(): MethodDecorator {
  return ApiResponse({
    status: 429,
    description:
      'Too many requests from this client address (`PUBLIC_RATE_LIMIT_REQUESTS` per minute), or ' +
      'too many of them refused for a wrong credential (`AUTH_FAILURE_LIMIT` per minute); retry ' +
      'after the `Retry-After` header (seconds). Nothing was changed.',
    headers: RETRY_AFTER,
    schema: errorSchema([CommonErrors.TooManyRequests]),
  });
}

/** An error status an endpoint answers besides 400, 401 and 429, with its exact messages. */
export interface ApiErrorStatus {
  status: number;
  description: string;
  messages: readonly string[];
}

/**
 * Documents an authenticated endpoint: the `x-api-key` scheme, its 401 and 429, the exact 400
 * messages it can answer, in the order they are checked, and any other error status it answers
 * (`otherErrors`: e.g. 404, 409) with its messages.
 */
export function ApiEndpointErrors(
  badRequestMessages: readonly string[],
  otherErrors: readonly ApiErrorStatus[] = [],
): MethodDecorator {
  const decorators = [
    ApiSecurity(API_KEY_SECURITY),
    ApiResponse({
      status: 401,
      description: 'Missing, unknown or revoked API key.',
      schema: errorSchema([CommonErrors.Unauthorized]),
    }),
    ApiResponse({
      status: 429,
      description:
        "The API key's rate limit is spent (`RATE_LIMIT_REQUESTS` per `RATE_LIMIT_WINDOW`, shared " +
        'by all routes), or this request failed authentication and too many from its client ' +
        'address already had (`AUTH_FAILURE_LIMIT` per minute; a valid key is never refused ' +
        'for them); retry after the `Retry-After` header (seconds). Nothing was changed.',
      headers: RETRY_AFTER,
      schema: errorSchema([CommonErrors.TooManyRequests]),
    }),
  ];
  if (badRequestMessages.length > 0) {
    decorators.push(
      ApiBadRequestResponse({
        description: [
          'The first failing check, in this order:',
          ...badRequestMessages.map((message) => `- \`${message}\``),
        ].join('\n'),
        schema: errorSchema(badRequestMessages),
      }),
    );
  }
  for (const { status, description, messages } of otherErrors) {
    decorators.push(ApiResponse({ status, description, schema: errorSchema(messages) }));
  }
  return applyDecorators(...decorators);
}
