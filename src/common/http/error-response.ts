/**
 * Maps anything thrown while serving a request to the `{"error": …}` contract (docs/api.md).
 * Used by the Nest exception filter and by Fastify's own error handler (errors raised before a
 * request reaches Nest, such as an oversized body), so both speak the same envelope.
 */
import { HttpException, Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error';
import { CommonErrors, messageForStatus } from '../errors/common.errors';

export interface ErrorResponse {
  status: number;
  body: { error: string };
  headers: Record<string, string>;
  /** True when the cause is ours (a bug or an outage) and must be logged with the request id. */
  unexpected: boolean;
}

/** Error codes that mean PostgreSQL (or the pool) is unreachable rather than the query is wrong. */
const DATABASE_UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && DATABASE_UNAVAILABLE_CODES.has(code)) return true;
  return /timeout exceeded when trying to connect|Connection terminated/i.test(error.message);
}

const respond = (
  status: number,
  error: string,
  headers: Record<string, string> = {},
  unexpected = false,
): ErrorResponse => ({ status, body: { error }, headers, unexpected });

export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof ApiError) return respond(error.status, error.message, error.headers);
  if (error instanceof HttpException) {
    const status = error.getStatus();
    return respond(status, messageForStatus(status), {}, status >= 500);
  }
  if (isDatabaseUnavailable(error)) {
    return respond(503, CommonErrors.ServiceUnavailable, { 'retry-after': '5' }, true);
  }
  // Errors Fastify raises itself carry a 4xx statusCode (FST_ERR_CTP_BODY_TOO_LARGE → 413, …).
  const statusCode = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return respond(statusCode, messageForStatus(statusCode));
  }
  return respond(500, CommonErrors.InternalServerError, {}, true);
}

/** Logs an error that is ours (a bug or an outage) with the request it failed, never its body. */
export function logUnexpected(
  logger: Logger,
  request: FastifyRequest,
  exception: unknown,
  status: number,
): void {
  logger.error(
    {
      requestId: request.id,
      method: request.method,
      route: request.routeOptions?.url,
      err: exception,
    },
    `Unexpected error answered ${status}`,
  );
}
