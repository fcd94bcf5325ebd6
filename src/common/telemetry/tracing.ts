/**
 * Tracing on or off (docs/operations.md, "Traces"). Off unless OTEL_EXPORTER_OTLP_ENDPOINT is
 * set: then nothing of OpenTelemetry's SDK is loaded and no module is patched, so it costs
 * nothing. On, the SDK (tracing-sdk.ts) is loaded and started here, before the application and
 * its clients (pg, ioredis) are loaded: startup.ts calls this first thing after reading the
 * configuration.
 */
import type { AppConfig, OpsProcess } from '../../config/config';

let running: { shutdown: () => Promise<void> } | null = null;

/**
 * Starts tracing when the configuration asks for it (once per process); its service.name is
 * OTEL_SERVICE_NAME, else `checkin-api` or `checkin-worker`.
 */
export async function startTracing(config: AppConfig, kind: OpsProcess): Promise<void> {
  const { endpoint, protocol, serviceName } = config.tracing;
  if (endpoint === null || running !== null) return;
  const { startTracingSdk } = await import('./tracing-sdk.js');
  running = startTracingSdk({ endpoint, protocol, serviceName: serviceName ?? `checkin-${kind}` });
}

/** Sends the spans still buffered and stops tracing (at shutdown); nothing when it is off. */
export async function stopTracing(): Promise<void> {
  const stopping = running;
  running = null;
  await stopping?.shutdown();
}
