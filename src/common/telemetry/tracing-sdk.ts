/**
 * OpenTelemetry's SDK, set up when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md,
 * "Traces"). Only tracing.ts loads this file, and only then: with tracing off none of it is
 * loaded and nothing is patched. It must run before the instrumented modules are loaded (pg,
 * ioredis, http; Fastify is reached through its diagnostics channel), which is why the entry
 * points start it right after reading the configuration (startup.ts).
 */
import { diag, DiagLogLevel, type DiagLogger } from '@opentelemetry/api';
import { setGlobalErrorHandler } from '@opentelemetry/core';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { Logger } from '@nestjs/common';
import { OutboxPropagator } from './outbox-propagator';
import { PrivateSpanExporter } from './span-privacy';

export interface TracingSettings {
  /** OTEL_EXPORTER_OTLP_ENDPOINT, without a trailing slash; spans go to `/v1/traces`. */
  endpoint: string;
  protocol: 'http/protobuf' | 'http/json';
  serviceName: string;
}

/**
 * Requests not traced: load balancers' probes, which come every few seconds and say nothing about
 * the work.
 */
const UNTRACED_PATHS = new Set(['/health']);

/** How long stopping waits for the last spans to be sent (a collector that is gone). */
const SHUTDOWN_TIMEOUT_MS = 5_000;

const logger = new Logger('Tracing');

/**
 * The SDK's errors (a batch of spans that could not be sent: the collector is down or refuses
 * them) as one warn line each: the spans are dropped, requests are not affected.
 */
function reportError(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  logger.warn(`Spans not sent (they are dropped): ${message}`);
}

/** The SDK's own diagnostics, warnings and errors only, as log lines of the process. */
function diagLogger(): DiagLogger {
  const text = (message: string, args: unknown[]) =>
    [message, ...args.map((arg) => (arg instanceof Error ? arg.message : String(arg)))].join(' ');
  return {
    error: (message, ...args) => logger.error(text(message, args)),
    warn: (message, ...args) => logger.warn(text(message, args)),
    info: () => undefined,
    debug: () => undefined,
    verbose: () => undefined,
  };
}

/** Starts tracing for this process; the answer stops it, sending what is left. */
export function startTracingSdk(settings: TracingSettings): { shutdown: () => Promise<void> } {
  diag.setLogger(diagLogger(), DiagLogLevel.WARN);
  setGlobalErrorHandler(reportError);
  const url = `${settings.endpoint}/v1/traces`;
  const exporter =
    settings.protocol === 'http/json'
      ? new OtlpJsonExporter({ url })
      : new OtlpProtobufExporter({ url });
  const provider = new NodeTracerProvider({
    resource: defaultResource().merge(
      resourceFromAttributes({ 'service.name': settings.serviceName }),
    ),
    spanProcessors: [new BatchSpanProcessor(new PrivateSpanExporter(exporter))],
  });
  provider.register({ propagator: new OutboxPropagator() });
  const deregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // A webhook delivery's request, inside its span: deliveries are sent with undici
      // (webhooks/safe-http.ts), which this instrumentation follows through its diagnostics
      // channels. It writes no trace headers: the propagator only writes to the outbox.
      new UndiciInstrumentation({ requireParentforSpans: true }),
      // Outbound requests made with node:http, if any. The server span of an incoming request is
      // Fastify's: the HTTP instrumentation's own costs a third of the throughput of a cheap
      // request even when nothing is sampled (docs/operations.md).
      new HttpInstrumentation({
        disableIncomingRequestInstrumentation: true,
        requireParentforOutgoingSpans: true,
      }),
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        ignorePaths: (route) => UNTRACED_PATHS.has(route.url.split('?')[0]),
        // Named like HTTP server spans: method and route template.
        requestHook: (span, request) =>
          span.updateName(`${request.method} ${request.routeOptions.url ?? ''}`.trim()),
        // A span per request and per handler; none per lifecycle hook.
        instrumentHooks: false,
        // An error's message may quote what the client sent (span-privacy.ts).
        recordExceptions: false,
      }),
      // Only inside a request's or a delivery's span: the sweepers' polling makes no traces.
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
      new IORedisInstrumentation({
        requireParentSpan: true,
        // The command's name only: keys may hold a client's address or an API key's id.
        dbStatementSerializer: (command) => command,
      }),
    ],
  });
  return {
    shutdown: async () => {
      deregister();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        provider.shutdown(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, SHUTDOWN_TIMEOUT_MS);
          timer.unref();
        }),
      ]).finally(() => clearTimeout(timer));
    },
  };
}
