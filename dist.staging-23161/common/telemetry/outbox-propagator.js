"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.OutboxPropagator = void 0;
const core_1 = require("@opentelemetry/core");
const trace_context_1 = require("./trace-context");
class OutboxPropagator {
    w3c = new core_1.W3CTraceContextPropagator();
    inject(context, carrier, setter) {
        if (setter === trace_context_1.OUTBOX_CARRIER)
            this.w3c.inject(context, carrier, setter);
    }
    extract(context, carrier, getter) {
        return getter === trace_context_1.OUTBOX_CARRIER ? this.w3c.extract(context, carrier, getter) : context;
    }
    fields() {
        return this.w3c.fields();
    }
}
exports.OutboxPropagator = OutboxPropagator;
//# sourceMappingURL=outbox-propagator.js.map