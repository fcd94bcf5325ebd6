"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createApp = createApp;
exports.drainAndClose = drainAndClose;
const client_errors_1 = require("./common/http/client-errors");
const core_1 = require("@nestjs/core");
const platform_fastify_1 = require("@nestjs/platform-fastify");
const nestjs_pino_1 = require("nestjs-pino");
const app_module_1 = require("./app.module");
const api_error_1 = require("./common/errors/api-error");
const common_errors_1 = require("./common/errors/common.errors");
const all_exceptions_filter_1 = require("./common/http/all-exceptions.filter");
const http_arguments_host_1 = require("./common/http/http-arguments-host");
const page_error_handler_1 = require("./common/http/page-error-handler");
const request_body_1 = require("./common/http/request-body");
const page_language_1 = require("./pages/i18n/page-language");
const client_address_1 = require("./common/rate-limit/client-address");
const logger_options_1 = require("./common/logging/logger-options");
const openapi_1 = require("./common/swagger/openapi");
const queue_dashboard_1 = require("./queues/queue-dashboard");
const config_1 = require("./config/config");
const measurements_1 = require("./common/measurements/measurements");
const request_duration_1 = require("./operations/request-duration");
const logger_options_2 = require("./common/logging/logger-options");
const shutdown_state_1 = require("./common/lifecycle/shutdown-state");
const link_paths_1 = require("./participant-links/link-paths");
async function createApp(config, options = {}) {
    // A URL Fastify's router cannot even match (a malformed %-escape, a path parameter over
    // maxParamLength) never reaches Nest, and Fastify would answer it with its own JSON. It names
    // nothing we serve: 404 `Not found` through the one exception filter, so a participant-page
    // address still gets the HTML page with the page headers. Bound once the app exists.
    let answerUnroutable = (_request, reply) => {
        void reply.code(404).send({ error: common_errors_1.CommonErrors.NotFound });
    };
    const adapter = new platform_fastify_1.FastifyAdapter({
        frameworkErrors: (_error, request, reply) => answerUnroutable(request, reply),
        bodyLimit: request_body_1.BODY_LIMIT_BYTES,
        // What Node's HTTP parser refuses (an unknown method token, …) in the one error shape.
        clientErrorHandler: client_errors_1.answerClientError,
        // Check-in tokens travel as a path parameter (~125 characters; Fastify's default limit is 100).
        routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
        genReqId: logger_options_1.requestIdFor,
        // TRUST_PROXY: behind proxies, request.ip is the client's address (the limits per address).
        trustProxy: (0, client_address_1.fastifyTrustProxy)(config.trustProxy),
        // While closing, requests still arriving on open keep-alive connections are served, not 503'd
        // (the drain has already told clients to go: see ShutdownState).
        return503OnClosing: false,
    });
    const app = await core_1.NestFactory.create(app_module_1.AppModule.register(config), adapter, {
        bufferLogs: true,
        // Body parsers are ours (installBodyParsers): JSON errors are answered after authentication.
        bodyParser: false,
    });
    app.useLogger(app.get(nestjs_pino_1.Logger));
    app.flushLogs();
    const fastify = app.getHttpAdapter().getInstance();
    const filter = new all_exceptions_filter_1.AllExceptionsFilter(app.get(page_error_handler_1.PAGE_ERROR_HANDLER, { strict: false }));
    answerUnroutable = (request, reply) => {
        void reply.header(logger_options_1.REQUEST_ID_HEADER, request.id);
        filter.catch(new api_error_1.ApiError(404, common_errors_1.CommonErrors.NotFound), (0, http_arguments_host_1.httpArgumentsHost)(request, reply));
    };
    const { onRoute } = options;
    if (onRoute)
        fastify.addHook('onRoute', (route) => onRoute(route));
    // First, so its time covers every other hook.
    (0, logger_options_1.installAccessLog)(fastify, config);
    (0, request_body_1.installBodyParsers)(fastify, link_paths_1.PARTICIPANT_PAGE_PREFIXES);
    // The participant pages' language (docs/i18n.md).
    (0, page_language_1.installPageLanguage)(fastify, link_paths_1.PARTICIPANT_PAGE_PREFIXES, {
        secure: config.publicBaseUrl.startsWith('https:'),
    });
    fastify.addHook('onRequest', (request, reply, done) => {
        void reply.header(logger_options_1.REQUEST_ID_HEADER, request.id);
        // The access log names the route, never the URL (docs/security.md, "Logs").
        (0, logger_options_2.recordRouteTemplate)(request.raw, request.routeOptions.url);
        done();
    });
    // The request-duration histogram, only while the operations port is on (docs/operations.md).
    if ((0, config_1.opsPortOf)(config, 'api') !== 0)
        (0, request_duration_1.installRequestDuration)(fastify, app.get(measurements_1.Measurements));
    const shutdown = app.get(shutdown_state_1.ShutdownState);
    fastify.addHook('onSend', (_request, reply, _payload, done) => {
        if (shutdown.draining)
            void reply.header('connection', 'close');
        done();
    });
    (0, openapi_1.setupOpenApi)(app, config.publicBaseUrl);
    await (0, queue_dashboard_1.setupQueueDashboard)(app, config, app_module_1.DASHBOARD_QUEUES);
    if (options.shutdownHooks ?? true)
        app.enableShutdownHooks();
    await app.init();
    return app;
}
/**
 * Graceful stop of an API process (SIGTERM): mark it draining (health 503, `Connection: close`)
 * and keep serving for `drainMs` so load balancers move traffic away, then close: stop listening,
 * finish in-flight requests and queue jobs, close the pools.
 */
async function drainAndClose(app, drainMs) {
    app.get(shutdown_state_1.ShutdownState).draining = true;
    if (drainMs > 0)
        await new Promise((resolve) => setTimeout(resolve, drainMs));
    await app.close();
}
//# sourceMappingURL=app.factory.js.map