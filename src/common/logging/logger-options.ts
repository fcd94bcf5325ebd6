import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RequestMethod } from '@nestjs/common';
import type { Params } from 'nestjs-pino';
import { AppConfig } from '../../config/config';

export const REQUEST_ID_HEADER = 'x-request-id';
const CALLER_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * A request's id: the caller's `x-request-id` when it is a plain token, else a new UUID. It is
 * stored on the raw request so Fastify, the access log and the error log share it.
 */
export function requestIdFor(req: IncomingMessage): string {
  const raw = req as IncomingMessage & { id?: string };
  if (raw.id) return raw.id;
  const header = req.headers[REQUEST_ID_HEADER];
  raw.id = typeof header === 'string' && CALLER_REQUEST_ID.test(header) ? header : randomUUID();
  return raw.id;
}

/**
 * The path as logged: no query string, and participant tokens (`/checkin/<token>/…`) masked —
 * a token is a 24-hour capability and must not sit in log storage.
 */
export function loggablePath(url: string): string {
  return url.split('?')[0].replace(/^\/checkin\/[^/]+/, '/checkin/[token]');
}

/**
 * Structured JSON logs. Requests are logged by method, path (never the query string: it can carry
 * participant tokens) and status; headers and bodies are never logged, so API keys and emails
 * cannot reach the log. Anything that does log an object has these paths redacted as well.
 */
export function buildLoggerOptions(config: AppConfig): Params {
  return {
    // nestjs-pino's default route pattern does not match anything under Fastify's middie here
    // (measured: the access log never ran), so every path is named explicitly.
    forRoutes: [{ path: '*splat', method: RequestMethod.ALL }],
    pinoHttp: {
      level: config.logLevel,
      genReqId: (req) => requestIdFor(req),
      redact: {
        paths: [
          'req.headers',
          'headers["x-api-key"]',
          'headers.authorization',
          '*.email',
          '*.apiKey',
          'apiKey',
          'email',
        ],
        censor: '[redacted]',
      },
      serializers: {
        req: (req: IncomingMessage & { id?: string }) => ({
          id: req.id,
          method: req.method,
          path: loggablePath(req.url ?? ''),
        }),
        res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
      },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
      autoLogging: true,
    },
  };
}
