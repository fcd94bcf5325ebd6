"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.startTracingSdk = startTracingSdk;
/**
 * OpenTelemetry's SDK, set up when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md,
 * "Traces"). Only tracing.ts loads this file, and only then: with tracing off none of it is
 * loaded and nothing is patched. It must run before the instrumented modules are loaded (pg,
 * ioredis, http; Fastify is reached through its diagnostics channel), which is why the entry
 * points start it right after reading the configuration (startup.ts).
 */
const api_1 = require("@opentelemetry/api");
const core_1 = require("@opentelemetry/core");
const exporter_trace_otlp_http_1 = require("@opentelemetry/exporter-trace-otlp-http");
const exporter_trace_otlp_proto_1 = require("@opentelemetry/exporter-trace-otlp-proto");
const instrumentation_1 = require("@opentelemetry/instrumentation");
const instrumentation_http_1 = require("@opentelemetry/instrumentation-http");
const instrumentation_ioredis_1 = require("@opentelemetry/instrumentation-ioredis");
const instrumentation_pg_1 = require("@opentelemetry/instrumentation-pg");
const instrumentation_undici_1 = require("@opentelemetry/instrumentation-undici");
const resources_1 = require("@opentelemetry/resources");
const sdk_trace_node_1 = require("@opentelemetry/sdk-trace-node");
const otel_1 = require("@fastify/otel");
const common_1 = require("@nestjs/common");
const outbox_propagator_1 = require("./outbox-propagator");
const span_privacy_1 = require("./span-privacy");
/**
 * Requests not traced: load balancers' probes, which come every few seconds and say nothing about
 * the work.
 */
const UNTRACED_PATHS = new Set(['/health']);
/** How long stopping waits for the last spans to be sent (a collector that is gone). */
const SHUTDOWN_TIMEOUT_MS = 5_000;
const logger = new common_1.Logger('Tracing');
/**
 * The SDK's errors (a batch of spans that could not be sent: the collector is down or refuses
 * them) as one warn line each: the spans are dropped, requests are not affected.
 */
function reportError(error) {
    const message = error instanceof Error ? error.message : String(error);
    logger.warn(`Spans not sent (they are dropped): ${message}`);
}
/** The SDK's own diagnostics, warnings and errors only, as log lines of the process. */
function diagLogger() {
    const text = (message, args) => [message, ...args.map((arg) => (arg instanceof Error ? arg.message : String(arg)))].join(' ');
    return {
        error: (message, ...args) => logger.error(text(message, args)),
        warn: (message, ...args) => logger.warn(text(message, args)),
        info: () => undefined,
        debug: () => undefined,
        verbose: () => undefined,
    };
}
/** Starts tracing for this process; the answer stops it, sending what is left. */
function startTracingSdk(settings) {
    api_1.diag.setLogger(diagLogger(), api_1.DiagLogLevel.WARN);
    (0, core_1.setGlobalErrorHandler)(reportError);
    const url = `${settings.endpoint}/v1/traces`;
    const exporter = settings.protocol === 'http/json'
        ? new exporter_trace_otlp_http_1.OTLPTraceExporter({ url })
        : new exporter_trace_otlp_proto_1.OTLPTraceExporter({ url });
    const provider = new sdk_trace_node_1.NodeTracerProvider({
        resource: (0, resources_1.defaultResource)().merge((0, resources_1.resourceFromAttributes)({ 'service.name': settings.serviceName })),
        spanProcessors: [new sdk_trace_node_1.BatchSpanProcessor(new span_privacy_1.PrivateSpanExporter(exporter))],
    });
    provider.register({ propagator: new outbox_propagator_1.OutboxPropagator() });
    const deregister = (0, instrumentation_1.registerInstrumentations)({
        tracerProvider: provider,
        instrumentations: [
            // A webhook delivery's request, inside its span: deliveries are sent with undici
            // (webhooks/safe-http.ts), which this instrumentation follows through its diagnostics
            // channels. It writes no trace headers: the propagator only writes to the outbox.
            new instrumentation_undici_1.UndiciInstrumentation({ requireParentforSpans: true }),
            // Outbound requests made with node:http, if any. The server span of an incoming request is
            // Fastify's: the HTTP instrumentation's own costs a third of the throughput of a cheap
            // request even when nothing is sampled (docs/operations.md).
            new instrumentation_http_1.HttpInstrumentation({
                disableIncomingRequestInstrumentation: true,
                requireParentforOutgoingSpans: true,
            }),
            new otel_1.FastifyOtelInstrumentation({
                registerOnInitialization: true,
                ignorePaths: (route) => UNTRACED_PATHS.has(route.url.split('?')[0]),
                // Named like HTTP server spans: method and route template.
                requestHook: (span, request) => span.updateName(`${request.method} ${request.routeOptions.url ?? ''}`.trim()),
                // A span per request and per handler; none per lifecycle hook.
                instrumentHooks: false,
                // An error's message may quote what the client sent (span-privacy.ts).
                recordExceptions: false,
            }),
            // Only inside a request's or a delivery's span: the sweepers' polling makes no traces.
            new instrumentation_pg_1.PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
            new instrumentation_ioredis_1.IORedisInstrumentation({
                requireParentSpan: true,
                // The command's name only: keys may hold a client's address or an API key's id.
                dbStatementSerializer: (command) => command,
            }),
        ],
    });
    return {
        shutdown: async () => {
            deregister();
            let timer;
            await Promise.race([
                provider.shutdown(),
                new Promise((resolve) => {
                    timer = setTimeout(resolve, SHUTDOWN_TIMEOUT_MS);
                    timer.unref();
                }),
            ]).finally(() => clearTimeout(timer));
        },
    };
}
//# sourceMappingURL=tracing-sdk.js.map