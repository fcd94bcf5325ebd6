"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sendInSpan = sendInSpan;
const api_1 = require("@opentelemetry/api");
const trace_context_1 = require("../../common/telemetry/trace-context");
/**
 * One delivery attempt as a span (docs/operations.md, "Traces"): `webhook.delivery`, whose parent
 * is the trace context stored with the event, so the attempt joins the trace of the request that
 * caused the event; the outbound HTTP request is its child. Its attributes name the delivery, the
 * event and the attempt — never the enterprise, the endpoint's URL or the participant. A failed
 * attempt's status says why in the fixed texts the deliveries API shows (docs/webhooks.md).
 */
function sendInSpan(delivery, send) {
    return (0, trace_context_1.inStoredTrace)('webhook.delivery', delivery.eventTraceContext, {
        'webhook.delivery.id': delivery.id,
        'webhook.delivery.attempt': delivery.attempts + 1,
        'webhook.event.id': delivery.eventId,
        'webhook.event.type': delivery.eventType,
    }, async (span) => {
        const sent = await send();
        span.setAttribute('webhook.delivery.outcome', sent.result);
        if (sent.outcome.statusCode !== null) {
            span.setAttribute('webhook.delivery.status_code', sent.outcome.statusCode);
        }
        if (sent.outcome.status === 'pending')
            span.setAttribute('webhook.delivery.retry', true);
        if (sent.result === 'failed' || sent.result === 'gone') {
            span.setStatus({ code: api_1.SpanStatusCode.ERROR, message: sent.outcome.error ?? undefined });
        }
        return sent;
    });
}
//# sourceMappingURL=delivery-span.js.map