/**
 * What of a span leaves the process (docs/operations.md, "Traces"): no personal data and no
 * secrets. The instrumentations record more than that — the request's path and query (a
 * participant's external ID, a check-in link's token), the client's address and user agent, a
 * webhook URL with the receiver's own token, error messages quoting what a client sent — so every
 * span is rewritten on its way to the exporter, keeping only:
 *
 * - the attributes named in {@link KEPT_ATTRIBUTES} (method, route template, status, database
 *   and statement text, …) and our own `webhook.*` and `email.*` ones;
 * - `url.full` (an outbound request) reduced to its origin: scheme, host and port;
 * - of each event, its name and `exception.type`;
 * - the status code, and the status message of our own spans only (theirs are fixed texts).
 *
 * An attribute an instrumentation adds in a later version is dropped until it is listed here.
 */
import type { Attributes, SpanStatus } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter, TimedEvent } from '@opentelemetry/sdk-trace-node';
import { SERVICE_TRACER } from './trace-context';

/** Attributes that say how the service works, never who used it or with what. */
export const KEPT_ATTRIBUTES: ReadonlySet<string> = new Set([
  // HTTP, both ways (the path and query are dropped: `http.route` is the template).
  'http.request.method',
  'http.request.method_original',
  'http.response.status_code',
  'http.route',
  'url.scheme',
  'server.address',
  'server.port',
  'network.protocol.version',
  'error.type',
  // Fastify's request, handler and hook spans.
  'fastify.root',
  'fastify.type',
  'hook.name',
  'hook.callback.name',
  // PostgreSQL and Redis. The statement text is the parameterised SQL (values are never
  // recorded: enhancedDatabaseReporting is off) or the Redis command's name (tracing-sdk.ts).
  'db.system.name',
  'db.namespace',
  'db.operation.name',
  'db.query.text',
  'db.response.status_code',
]);

/** Our own attributes (delivery and mail spans), which name no tenant or participant. */
const KEPT_PREFIXES = ['webhook.', 'email.'];

const kept = (key: string) =>
  KEPT_ATTRIBUTES.has(key) || KEPT_PREFIXES.some((prefix) => key.startsWith(prefix));

/** `https://user:pass@hooks.example.com/t/abc?token=x` → `https://hooks.example.com`. */
export function urlOrigin(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

export function keptAttributes(attributes: Attributes): Attributes {
  const result: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (kept(key)) result[key] = value;
  }
  const origin = urlOrigin(attributes['url.full']);
  if (origin !== undefined) result['url.full'] = origin;
  return result;
}

function keptEvent(event: TimedEvent): TimedEvent {
  const type = event.attributes?.['exception.type'];
  return {
    name: event.name,
    time: event.time,
    attributes: type === undefined ? {} : { 'exception.type': type },
    droppedAttributesCount: 0,
  };
}

function keptStatus(span: ReadableSpan): SpanStatus {
  return span.instrumentationScope.name === SERVICE_TRACER
    ? span.status
    : { code: span.status.code };
}

/** The span as it may leave the process. */
export function privateSpan(span: ReadableSpan): ReadableSpan {
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status: keptStatus(span),
    attributes: keptAttributes(span.attributes),
    links: span.links.map((link) => ({ context: link.context })),
    events: span.events.map(keptEvent),
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: 0,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/** Wraps the OTLP exporter: every span goes through {@link privateSpan} first. */
export class PrivateSpanExporter implements SpanExporter {
  constructor(private readonly exporter: SpanExporter) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.exporter.export(spans.map(privateSpan), resultCallback);
  }

  shutdown(): Promise<void> {
    return this.exporter.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.exporter.forceFlush?.() ?? Promise.resolve();
  }
}
