import { loadConfig } from '../../config/config';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify from 'fastify';
import { PinoLogger } from 'nestjs-pino';
import { type Logger, pino } from 'pino';
import {
  buildLoggerOptions,
  installAccessLog,
  loggablePath,
  markDeliberateAnswer,
  recordRouteTemplate,
  requestIdFor,
  UNMATCHED_PATH,
  usePrettyLogs,
} from './logger-options';

describe('loggablePath', () => {
  const request = (url: string) => ({ url }) as IncomingMessage;

  it('is the route template recorded for the request, never its URL', () => {
    const req = request('/participants/ana@example.com/consents?x=1');
    recordRouteTemplate(req, '/participants/:externalID/consents');
    expect(loggablePath(req)).toBe('/participants/:externalID/consents');
  });

  it('is `unmatched` when no route matched', () => {
    const req = request('/no/such/ses_0123456789abcdefghijklmn');
    expect(loggablePath(req)).toBe(UNMATCHED_PATH);
    recordRouteTemplate(req, undefined);
    expect(loggablePath(req)).toBe('unmatched');
  });
});

describe('usePrettyLogs', () => {
  it('prints readable logs only in development, at a terminal, with pino-pretty installed', () => {
    expect(usePrettyLogs({ env: 'development' }, true, true)).toBe(true);
    expect(usePrettyLogs({ env: 'development' }, false, true)).toBe(false);
    expect(usePrettyLogs({ env: 'development' }, true, false)).toBe(false);
    expect(usePrettyLogs({ env: 'production' }, true, true)).toBe(false);
    expect(usePrettyLogs({ env: 'test' }, true, true)).toBe(false);
  });
});

describe('buildLoggerOptions', () => {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info' });
  const pinoOptions = (pretty: boolean) =>
    buildLoggerOptions(config, pretty).pinoHttp as { transport?: { target: string } };

  it("runs nestjs-pino's middleware on no route: the access log is a Fastify hook, with no store per request", () => {
    expect(buildLoggerOptions(config, false).forRoutes).toEqual([]);
  });

  it('writes JSON lines unless told to be pretty', () => {
    expect(pinoOptions(false).transport).toBeUndefined();
    expect(pinoOptions(true).transport?.target).toBe('pino-pretty');
  });
});

describe('the access log of a 5xx', () => {
  type Options = {
    customLogLevel: (req: IncomingMessage, res: ServerResponse, error?: Error) => string;
    customErrorObject: (
      req: IncomingMessage,
      res: ServerResponse,
      error: Error,
      logged: Record<string, unknown>,
    ) => Record<string, unknown>;
    customErrorMessage: (req: IncomingMessage, res: ServerResponse, error: Error) => string;
  };
  const options = buildLoggerOptions(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info' }), false)
    .pinoHttp as unknown as Options;
  const request = {} as IncomingMessage;
  const answer = (statusCode: number) => ({ statusCode }) as ServerResponse;
  const made = new Error('failed with status code 503');
  const logged = { res: { statusCode: 503 }, err: made, responseTime: 1 };

  it('is an error line with the error, unless the application answered it on purpose', () => {
    const outage = answer(503);
    expect(options.customLogLevel(request, outage)).toBe('error');
    expect(options.customErrorObject(request, outage, made, logged)).toBe(logged);
    expect(options.customErrorMessage(request, outage, made)).toBe('request errored');
  });

  it('a deliberate 503 (/health while draining) is a plain answer: info, no error, no stack', () => {
    const draining = answer(503);
    markDeliberateAnswer(draining);
    expect(options.customLogLevel(request, draining)).toBe('info');
    expect(options.customErrorObject(request, draining, made, logged)).toEqual({
      res: { statusCode: 503 },
      responseTime: 1,
    });
    expect(options.customErrorMessage(request, draining, made)).toBe('request completed');
    expect(options.customLogLevel(request, answer(200))).toBe('info');
  });

  it('is silent when LOG_LEVEL drops it, so pino-http builds nothing for it', () => {
    const quiet = buildLoggerOptions(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn' }), false)
      .pinoHttp as unknown as Options;
    expect(quiet.customLogLevel(request, answer(200))).toBe('silent');
    expect(quiet.customLogLevel(request, answer(503))).toBe('error');
    const silent = buildLoggerOptions(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), false)
      .pinoHttp as unknown as Options;
    expect(silent.customLogLevel(request, answer(503))).toBe('silent');
  });
});

/**
 * Whether nestjs-pino's per-request store is bound here. nestjs-pino 5 no longer exports its
 * AsyncLocalStorage; `assign` refuses, naming it, when no store is bound.
 */
function nestjsPinoStore(): 'none' | 'bound' {
  try {
    PinoLogger.prototype.assign.call(Object.create(PinoLogger.prototype) as PinoLogger, {});
    return 'bound';
  } catch (error) {
    return /out of request scope/.test((error as Error).message) ? 'none' : 'bound';
  }
}

describe('installAccessLog', () => {
  /** A Fastify app with the access log, writing to `lines` through a logger standing for nestjs-pino's. */
  async function appWithAccessLog(lines: Record<string, unknown>[]) {
    const root = pino(
      { level: 'info' },
      { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    );
    const previous = PinoLogger.root;
    (PinoLogger as unknown as { root: Logger }).root = root;
    const app = Fastify({ genReqId: (req) => requestIdFor(req) });
    installAccessLog(app, loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info' }));
    app.addHook('onRequest', (request, _reply, done) => {
      recordRouteTemplate(request.raw, request.routeOptions.url);
      done();
    });
    app.get('/groups/:groupID', () => ({
      // nestjs-pino's request store: none (no AsyncLocalStorage per request).
      store: nestjsPinoStore(),
    }));
    await app.ready();
    return {
      app,
      restore: async () => {
        await app.close();
        (PinoLogger as unknown as { root: Logger }).root = previous;
      },
    };
  }

  it('logs one line per answer: request id and method, route template, status, time', async () => {
    const lines: Record<string, unknown>[] = [];
    const { app, restore } = await appWithAccessLog(lines);
    try {
      const answer = await app.inject({
        method: 'GET',
        url: '/groups/42?email=ana@example.com',
        headers: { 'x-request-id': 'req-access-1' },
      });
      expect(answer.json()).toEqual({ store: 'none' });
      await new Promise((resolve) => setImmediate(resolve));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 30,
        msg: 'request completed',
        req: { id: 'req-access-1', method: 'GET' },
        res: { statusCode: 200 },
        route: '/groups/:groupID',
        responseTime: expect.any(Number) as number,
      });
      expect(JSON.stringify(lines)).not.toContain('ana@example.com');
      expect(JSON.stringify(lines)).not.toContain('/groups/42');
    } finally {
      await restore();
    }
  });
});
