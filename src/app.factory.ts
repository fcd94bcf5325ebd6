import { answerClientError } from './common/http/client-errors';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'nestjs-pino';
import { AppModule, DASHBOARD_QUEUES } from './app.module';
import { ApiError } from './common/errors/api-error';
import { CommonErrors } from './common/errors/common.errors';
import { AllExceptionsFilter } from './common/http/all-exceptions.filter';
import { httpArgumentsHost } from './common/http/http-arguments-host';
import { PAGE_ERROR_HANDLER, PageErrorHandler } from './common/http/page-error-handler';
import { BODY_LIMIT_BYTES, installBodyParsers } from './common/http/request-body';
import { installPageLanguage } from './pages/i18n/page-language';
import { fastifyTrustProxy } from './common/rate-limit/client-address';
import { installAccessLog, REQUEST_ID_HEADER, requestIdFor } from './common/logging/logger-options';
import { setupOpenApi } from './common/swagger/openapi';
import { setupQueueDashboard } from './queues/queue-dashboard';
import { AppConfig, opsPortOf } from './config/config';
import { Measurements } from './common/measurements/measurements';
import { installRequestDuration } from './operations/request-duration';
import { recordRouteTemplate } from './common/logging/logger-options';
import { ShutdownState } from './common/lifecycle/shutdown-state';
import { PARTICIPANT_PAGE_PREFIXES } from './participant-links/link-paths';

/**
 * Builds the HTTP application exactly as production runs it; main.ts and the end-to-end tests
 * both call this. Fastify-level behaviour lives here: the 1 MiB body limit, the trailing-slash
 * rule (so `DELETE /groups/` reaches its "missing groupID" route), request ids and the body
 * parsers. Errors Fastify raises before a request reaches a route (an oversized body) go through
 * Nest's error handler to the same global filter as everything else.
 */
export interface CreateAppOptions {
  /** Called for every route as it is registered (tests use it to walk all routes). */
  onRoute?: (route: { method: string | string[]; url: string }) => void;
  /**
   * Nest's own SIGTERM/SIGINT handling (close at once). main.ts turns it off and drains first
   * (drainAndClose); tests close the app themselves.
   */
  shutdownHooks?: boolean;
}

export async function createApp(
  config: AppConfig,
  options: CreateAppOptions = {},
): Promise<NestFastifyApplication> {
  // A URL Fastify's router cannot even match (a malformed %-escape, a path parameter over
  // maxParamLength) never reaches Nest, and Fastify would answer it with its own JSON. It names
  // nothing we serve: 404 `Not found` through the one exception filter, so a participant-page
  // address still gets the HTML page with the page headers. Bound once the app exists.
  let answerUnroutable = (_request: FastifyRequest, reply: FastifyReply): void => {
    void reply.code(404).send({ error: CommonErrors.NotFound });
  };
  const adapter = new FastifyAdapter({
    frameworkErrors: (_error: Error, request: FastifyRequest, reply: FastifyReply) =>
      answerUnroutable(request, reply),
    bodyLimit: BODY_LIMIT_BYTES,
    // What Node's HTTP parser refuses (an unknown method token, …) in the one error shape.
    clientErrorHandler: answerClientError,
    // Check-in tokens travel as a path parameter (~125 characters; Fastify's default limit is 100).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    genReqId: requestIdFor,
    // TRUST_PROXY: behind proxies, request.ip is the client's address (the limits per address).
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // While closing, requests still arriving on open keep-alive connections are served, not 503'd
    // (the drain has already told clients to go: see ShutdownState).
    return503OnClosing: false,
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.register(config),
    adapter,
    {
      bufferLogs: true,
      // Body parsers are ours (installBodyParsers): JSON errors are answered after authentication.
      bodyParser: false,
    },
  );
  app.useLogger(app.get(Logger));
  app.flushLogs();

  const fastify = app.getHttpAdapter().getInstance();
  const filter = new AllExceptionsFilter(
    app.get<PageErrorHandler | undefined>(PAGE_ERROR_HANDLER, { strict: false }),
  );
  answerUnroutable = (request, reply) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    filter.catch(new ApiError(404, CommonErrors.NotFound), httpArgumentsHost(request, reply));
  };
  const { onRoute } = options;
  if (onRoute) fastify.addHook('onRoute', (route) => onRoute(route));
  // First, so its time covers every other hook.
  installAccessLog(fastify, config);
  installBodyParsers(fastify, PARTICIPANT_PAGE_PREFIXES);
  // The participant pages' language (docs/i18n.md).
  installPageLanguage(fastify, PARTICIPANT_PAGE_PREFIXES, {
    secure: config.publicBaseUrl.startsWith('https:'),
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    // The access log names the route, never the URL (docs/security.md, "Logs").
    recordRouteTemplate(request.raw, request.routeOptions.url);
    done();
  });
  // The request-duration histogram, only while the operations port is on (docs/operations.md).
  if (opsPortOf(config, 'api') !== 0) installRequestDuration(fastify, app.get(Measurements));
  const shutdown = app.get(ShutdownState);
  fastify.addHook('onSend', (_request, reply, _payload, done) => {
    if (shutdown.draining) void reply.header('connection', 'close');
    done();
  });

  setupOpenApi(app, config.publicBaseUrl);
  await setupQueueDashboard(app, config, DASHBOARD_QUEUES);
  if (options.shutdownHooks ?? true) app.enableShutdownHooks();
  await app.init();
  return app;
}

/**
 * Graceful stop of an API process (SIGTERM): mark it draining (health 503, `Connection: close`)
 * and keep serving for `drainMs` so load balancers move traffic away, then close: stop listening,
 * finish in-flight requests and queue jobs, close the pools.
 */
export async function drainAndClose(app: NestFastifyApplication, drainMs: number): Promise<void> {
  app.get(ShutdownState).draining = true;
  if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
  await app.close();
}
