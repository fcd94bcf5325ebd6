"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SERVICE_TRACER = exports.OUTBOX_CARRIER = void 0;
exports.traceContextToStore = traceContextToStore;
exports.traceContextParam = traceContextParam;
exports.contextFromStored = contextFromStored;
exports.inStoredTrace = inStoredTrace;
/**
 * The trace context an outbox row carries (docs/operations.md, "Traces"): the request that writes
 * an event or a mail stores its W3C trace context (`traceparent`, and `tracestate` when there is
 * one) with the row, and the worker that sends it later starts its span with that context as
 * parent, so the delivery joins the trace of the request that caused it.
 *
 * Only `@opentelemetry/api` is used here: with tracing off no propagator and no tracer are
 * registered, so `traceContextToStore` answers null (nothing is stored) and the spans are the
 * API's no-op ones. With tracing on, the propagator tracing-sdk.ts registers reads and writes
 * trace context only through {@link OUTBOX_CARRIER}: trace context does not cross the service's
 * edge (no `traceparent` is taken from a request or sent with a webhook).
 */
const api_1 = require("@opentelemetry/api");
/**
 * The getter and setter of the outbox carrier. The registered propagator answers only to these
 * (their identity), so HTTP requests in and out carry no trace context.
 */
exports.OUTBOX_CARRIER = {
    get: (carrier, key) => carrier[key],
    keys: (carrier) => Object.keys(carrier),
    set: (carrier, key, value) => {
        carrier[key] = value;
    },
};
/** The longest `tracestate` W3C Trace Context lets a propagator keep (32 members). */
const MAX_TRACESTATE = 512;
/**
 * The active trace context, to store with an outbox row; null when there is none to store
 * (tracing off, or no span active: an event written by the CLI or a sweep).
 */
function traceContextToStore(active = api_1.context.active()) {
    const carrier = {};
    api_1.propagation.inject(active, carrier, exports.OUTBOX_CARRIER);
    if (typeof carrier.traceparent !== 'string')
        return null;
    const stored = { traceparent: carrier.traceparent };
    if (carrier.tracestate)
        stored.tracestate = carrier.tracestate;
    return stored;
}
/** The active trace context as an outbox row's `trace_context` (jsonb) parameter, or null. */
function traceContextParam() {
    const stored = traceContextToStore();
    return stored && JSON.stringify(stored);
}
/**
 * The context a stored trace context stands for: its span as the (remote) parent. Anything that
 * is not a stored trace context (null, a row written with tracing off, a malformed value) gives
 * the root context, so the span starts a trace of its own.
 */
function contextFromStored(stored) {
    if (typeof stored !== 'object' || stored === null)
        return api_1.ROOT_CONTEXT;
    const { traceparent, tracestate } = stored;
    if (typeof traceparent !== 'string')
        return api_1.ROOT_CONTEXT;
    const carrier = { traceparent };
    if (typeof tracestate === 'string' && tracestate.length <= MAX_TRACESTATE) {
        carrier.tracestate = tracestate;
    }
    return api_1.propagation.extract(api_1.ROOT_CONTEXT, carrier, exports.OUTBOX_CARRIER);
}
/** The tracer of this service's own spans (deliveries and mails). */
exports.SERVICE_TRACER = 'checkin';
/**
 * Runs `work` in an INTERNAL span named `name` whose parent is the stored trace context, so the
 * spans `work` causes (the outbound HTTP request) are its children. The span ends when `work`
 * settles; `work` sets its outcome on the span it is given. With tracing off, the span is a no-op.
 */
function inStoredTrace(name, stored, attributes, work) {
    return api_1.trace
        .getTracer(exports.SERVICE_TRACER)
        .startActiveSpan(name, { kind: api_1.SpanKind.INTERNAL, attributes }, contextFromStored(stored), async (span) => {
        try {
            return await work(span);
        }
        catch (error) {
            span.setStatus({ code: api_1.SpanStatusCode.ERROR, message: error.name });
            throw error;
        }
        finally {
            span.end();
        }
    });
}
//# sourceMappingURL=trace-context.js.map