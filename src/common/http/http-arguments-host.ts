import type { ArgumentsHost } from '@nestjs/common';

type HttpArgumentsHost = ReturnType<ArgumentsHost['switchToHttp']>;

/**
 * The ArgumentsHost of a plain HTTP request, for calling an exception filter outside Nest's
 * pipeline (app.factory.ts: a URL Fastify's router cannot match). Nest's own class for this lives
 * in `@nestjs/core/internal`, which is not public API; this is the part a filter reads.
 */
export function httpArgumentsHost(request: unknown, response: unknown): ArgumentsHost {
  const args = [request, response];
  const http: HttpArgumentsHost = {
    getRequest: <T>() => request as T,
    getResponse: <T>() => response as T,
    getNext: <T>() => undefined as T,
  };
  return {
    getArgs: <T extends unknown[]>() => args as T,
    getArgByIndex: <T>(index: number) => args[index] as T,
    getType: <T extends string>() => 'http' as T,
    switchToHttp: () => http,
    switchToRpc: () => {
      throw new Error('Not an RPC context');
    },
    switchToWs: () => {
      throw new Error('Not a WebSocket context');
    },
  };
}
