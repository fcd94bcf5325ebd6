/**
 * A local OTLP/HTTP receiver for tracing tests (docs/operations.md, "Traces"): what a collector
 * is to the service. It takes `POST /v1/traces` and answers 200; spans sent as JSON
 * (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`, the OTLP JSON encoding: ids in hex, attributes as
 * `{key, value: {stringValue | intValue | …}}`) are decoded into {@link ReceivedSpan}s; protobuf
 * bodies are kept as bytes.
 */
import { LocalServer } from './local-server';

export interface ReceivedSpan {
  /** The resource's `service.name`. */
  service: string;
  /** The instrumentation scope (`@opentelemetry/instrumentation-pg`, `checkin`, …). */
  scope: string;
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  status: { code?: number; message?: string };
  events: { name: string; attributes: Record<string, unknown> }[];
}

export const SpanKinds = { Internal: 1, Server: 2, Client: 3 } as const;

export interface ReceivedExport {
  path: string;
  contentType: string;
  body: Buffer;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
  status?: { code?: number; message?: string };
  events?: { name: string; attributes?: OtlpAttribute[] }[];
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[];
  }[];
}

function valueOf(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}

const attributesOf = (attributes: OtlpAttribute[] = []): Record<string, unknown> =>
  Object.fromEntries(attributes.map(({ key, value }) => [key, valueOf(value)]));

export class OtlpReceiver {
  readonly exports: ReceivedExport[] = [];
  readonly spans: ReceivedSpan[] = [];
  private server!: LocalServer;
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT. */
  url = '';

  async start(): Promise<this> {
    this.server = await LocalServer.start((request, body, response) => {
      const received: ReceivedExport = {
        path: request.url ?? '',
        contentType: String(request.headers['content-type'] ?? ''),
        body,
      };
      this.exports.push(received);
      if (received.contentType.startsWith('application/json')) this.decode(received.body);
      response.writeHead(200, { 'content-type': received.contentType || 'application/json' });
      response.end(received.contentType.startsWith('application/json') ? '{}' : '');
    });
    this.url = this.server.url;
    return this;
  }

  stop(): Promise<void> {
    return this.server.stop();
  }

  private decode(body: Buffer): void {
    const request = JSON.parse(body.toString('utf8')) as OtlpExport;
    for (const resourceSpans of request.resourceSpans ?? []) {
      const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
      for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
        for (const span of scopeSpans.spans ?? []) {
          this.spans.push({
            service,
            scope: scopeSpans.scope?.name ?? '',
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            status: span.status ?? {},
            events: (span.events ?? []).map((event) => ({
              name: event.name,
              attributes: attributesOf(event.attributes),
            })),
          });
        }
      }
    }
  }

  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }
}
