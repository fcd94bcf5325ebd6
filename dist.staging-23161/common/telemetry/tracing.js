"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.startTracing = startTracing;
exports.stopTracing = stopTracing;
let running = null;
/**
 * Starts tracing when the configuration asks for it (once per process); its service.name is
 * OTEL_SERVICE_NAME, else `checkin-api` or `checkin-worker`.
 */
async function startTracing(config, kind) {
    const { endpoint, protocol, serviceName } = config.tracing;
    if (endpoint === null || running !== null)
        return;
    const { startTracingSdk } = await import('./tracing-sdk.js');
    running = startTracingSdk({ endpoint, protocol, serviceName: serviceName ?? `checkin-${kind}` });
}
/** Sends the spans still buffered and stops tracing (at shutdown); nothing when it is off. */
async function stopTracing() {
    const stopping = running;
    running = null;
    await stopping?.shutdown();
}
//# sourceMappingURL=tracing.js.map