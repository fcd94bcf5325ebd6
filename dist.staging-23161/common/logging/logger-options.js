"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.UNMATCHED_PATH = exports.REQUEST_ID_HEADER = void 0;
exports.requestIdFor = requestIdFor;
exports.recordRouteTemplate = recordRouteTemplate;
exports.loggablePath = loggablePath;
exports.markDeliberateAnswer = markDeliberateAnswer;
exports.usePrettyLogs = usePrettyLogs;
exports.buildLoggerOptions = buildLoggerOptions;
exports.installAccessLog = installAccessLog;
const node_crypto_1 = require("node:crypto");
const nestjs_pino_1 = require("nestjs-pino");
const pino_http_1 = require("pino-http");
const pino_1 = require("pino");
exports.REQUEST_ID_HEADER = 'x-request-id';
const CALLER_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/**
 * A request's id: the caller's `x-request-id` when it is a plain token, else a new UUID. It is
 * stored on the raw request so Fastify, the access log and the error log share it.
 */
function requestIdFor(req) {
    const raw = req;
    if (raw.id)
        return raw.id;
    const header = req.headers[exports.REQUEST_ID_HEADER];
    raw.id = typeof header === 'string' && CALLER_REQUEST_ID.test(header) ? header : (0, node_crypto_1.randomUUID)();
    return raw.id;
}
/** What the access log says of a request no route matched (a 404, an unroutable URL). */
exports.UNMATCHED_PATH = 'unmatched';
const ROUTE_TEMPLATE = Symbol('routeTemplate');
/**
 * Records on the raw request the template of the route Fastify matched (`/participants/:externalID`),
 * for the access log (app.factory.ts, an `onRequest` hook).
 */
function recordRouteTemplate(req, template) {
    req[ROUTE_TEMPLATE] = template;
}
/**
 * The path as logged (docs/security.md, "Logs"): the route template, never the URL — a path
 * holds participants' external IDs, session IDs, link tokens, and whatever a caller mistypes
 * there (an email address in `/participants/{externalID}`). A request no route matched is
 * `unmatched`.
 */
function loggablePath(req) {
    return req[ROUTE_TEMPLATE] ?? exports.UNMATCHED_PATH;
}
/**
 * Answers given on purpose although their status is 5xx — the 503 of `/health` while the process
 * drains (docs/operations.md) — marked by the exception filter. The access log writes them as any
 * other answer (info, "request completed"), not as an error with a stack: a load balancer polls
 * /health all through a drain, and an error line per probe would bury real errors.
 */
const deliberate = new WeakSet();
/** The answer on `res` is a deliberate 5xx (see above). */
function markDeliberateAnswer(res) {
    deliberate.add(res);
}
/**
 * Structured JSON logs. Requests are logged by method, route template (never the URL: its path and
 * query carry participants' identifiers and tokens) and status; headers and bodies are never
 * logged, so API keys and emails cannot reach the log. Anything that does log an object has these
 * paths redacted as well.
 */
/**
 * Readable logs (pino-pretty) for a developer at a terminal: `NODE_ENV=development` with stdout a
 * TTY. Everywhere else (production, tests, a pipe or a file, a log collector) logs stay one JSON
 * object per line. Without pino-pretty installed (`npm ci --omit=dev`), JSON too.
 */
function usePrettyLogs(config, stdoutIsTty = process.stdout.isTTY === true, prettyInstalled = isInstalled('pino-pretty')) {
    return config.env === 'development' && stdoutIsTty && prettyInstalled;
}
function isInstalled(module) {
    try {
        require.resolve(module);
        return true;
    }
    catch {
        return false;
    }
}
/**
 * Nest's start-up chatter, one line per module and per route (some 40): at a terminal it is
 * logged at debug level (shown with LOG_LEVEL=debug), so what a developer sees first is ours.
 */
const START_UP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);
const PRETTY_OPTIONS = {
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context,req,res,responseTime,route',
    messageFormat: '{if context}[{context}] {end}{msg}{if req} {req.method} {route} → {res.statusCode} ({responseTime} ms){end}',
    singleLine: true,
};
function buildLoggerOptions(config, pretty = usePrettyLogs(config)) {
    const threshold = config.logLevel === 'silent' ? Infinity : (pino_1.pino.levels.values[config.logLevel] ?? 0);
    return {
        // nestjs-pino's own middleware runs on no route: the access log is a Fastify hook
        // (installAccessLog), without the AsyncLocalStorage nestjs-pino wraps each request in
        // (docs/performance.md, "GET /groups"). nestjs-pino still builds the logger every line goes to.
        forRoutes: [],
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
                req: (req) => ({ id: req.id, method: req.method }),
                res: (res) => ({ statusCode: res.statusCode }),
            },
            // The route is known once Fastify has routed the request, after pino-http has bound `req`
            // to the request's logger: it joins the line written when the answer is complete.
            // Before the answer (pino-http asks once per request, to bind a child logger) there is
            // nothing to add: no props, so no child logger with empty bindings (docs/performance.md).
            customProps: (req, res) => res.headersSent ? { route: loggablePath(req) } : undefined,
            // 'silent' when LOG_LEVEL would drop the line anyway: pino-http then skips building it (the
            // route's bindings, a child logger) for every answer (docs/performance.md).
            customLogLevel: (_req, res, error) => {
                const level = error || (res.statusCode >= 500 && !deliberate.has(res)) ? 'error' : 'info';
                return pino_1.pino.levels.values[level] >= threshold ? level : 'silent';
            },
            // pino-http treats any 5xx as failed (an "request errored" line with a made-up error and
            // its stack); a deliberate one is logged as the answer it is.
            customErrorObject: (_req, res, _error, logged) => {
                if (!deliberate.has(res))
                    return logged;
                const { err: _err, ...answer } = logged;
                return answer;
            },
            customErrorMessage: (_req, res) => deliberate.has(res) ? 'request completed' : 'request errored',
            autoLogging: true,
            ...(pretty
                ? {
                    transport: { target: 'pino-pretty', options: PRETTY_OPTIONS },
                    hooks: {
                        logMethod(args, method, level) {
                            const context = args[0]?.context;
                            const quiet = typeof context === 'string' &&
                                START_UP_CONTEXTS.has(context) &&
                                level === this.levels.values.info;
                            if (quiet && !this.isLevelEnabled('debug'))
                                return;
                            method.apply(this, args);
                        },
                    },
                }
                : {}),
        },
    };
}
/**
 * The access log: one line per answer (pino-http, with the options above), started by the first
 * `onRequest` hook. It used to be nestjs-pino's middleware, which also ran every request inside an
 * AsyncLocalStorage so that lines logged while answering carried the request's bindings; on
 * Node 20 that store turns promise hooks on for every request (6–10 % of `GET /groups`' CPU,
 * docs/performance.md). The lines that concern one request name it themselves: the access line
 * and the unexpected-error line (`requestId`, error-response.ts); the others are about the process
 * (an outage, a key). The logger is nestjs-pino's, which exists once the application has started.
 */
function installAccessLog(fastify, config) {
    // The logger's own options (its level, redaction, pretty transport) are already its own.
    const { transport: _transport, hooks: _hooks, ...options } = buildLoggerOptions(config).pinoHttp;
    let accessLog;
    fastify.addHook('onRequest', (request, reply, done) => {
        accessLog ??= (0, pino_http_1.pinoHttp)({ ...options, logger: nestjs_pino_1.PinoLogger.root });
        accessLog(request.raw, reply.raw);
        done();
    });
}
//# sourceMappingURL=logger-options.js.map