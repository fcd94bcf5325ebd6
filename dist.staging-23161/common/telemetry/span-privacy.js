"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PrivateSpanExporter = exports.KEPT_ATTRIBUTES = void 0;
exports.urlOrigin = urlOrigin;
exports.keptAttributes = keptAttributes;
exports.privateSpan = privateSpan;
const trace_context_1 = require("./trace-context");
/** Attributes that say how the service works, never who used it or with what. */
exports.KEPT_ATTRIBUTES = new Set([
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
const kept = (key) => exports.KEPT_ATTRIBUTES.has(key) || KEPT_PREFIXES.some((prefix) => key.startsWith(prefix));
/** `https://user:pass@hooks.example.com/t/abc?token=x` → `https://hooks.example.com`. */
function urlOrigin(value) {
    if (typeof value !== 'string')
        return undefined;
    try {
        const origin = new URL(value).origin;
        return origin === 'null' ? undefined : origin;
    }
    catch {
        return undefined;
    }
}
function keptAttributes(attributes) {
    const result = {};
    for (const [key, value] of Object.entries(attributes)) {
        if (kept(key))
            result[key] = value;
    }
    const origin = urlOrigin(attributes['url.full']);
    if (origin !== undefined)
        result['url.full'] = origin;
    return result;
}
function keptEvent(event) {
    const type = event.attributes?.['exception.type'];
    return {
        name: event.name,
        time: event.time,
        attributes: type === undefined ? {} : { 'exception.type': type },
        droppedAttributesCount: 0,
    };
}
function keptStatus(span) {
    return span.instrumentationScope.name === trace_context_1.SERVICE_TRACER
        ? span.status
        : { code: span.status.code };
}
/** The span as it may leave the process. */
function privateSpan(span) {
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
class PrivateSpanExporter {
    exporter;
    constructor(exporter) {
        this.exporter = exporter;
    }
    export(spans, resultCallback) {
        this.exporter.export(spans.map(privateSpan), resultCallback);
    }
    shutdown() {
        return this.exporter.shutdown();
    }
    forceFlush() {
        return this.exporter.forceFlush?.() ?? Promise.resolve();
    }
}
exports.PrivateSpanExporter = PrivateSpanExporter;
//# sourceMappingURL=span-privacy.js.map