/**
 * Tracing on or off (docs/operations.md, "Traces"). Off unless OTEL_EXPORTER_OTLP_ENDPOINT is
 * set: then nothing of OpenTelemetry's SDK is loaded and no module is patched, so it costs
 * nothing. On, the SDK (tracing-sdk.ts) is loaded and started here, before the application and
 * its clients (pg, ioredis) are loaded: startup.ts calls this first thing after reading the
 * configuration.
 */
import type { AppConfig } from '../../config/config';

/** The service.name of each process kind unless OTEL_SERVICE_NAME says otherwise. */
export type TracedProcess = 'checkin-api' | 'checkin-worker';

let running: { shutdown: () => Promise<void> } | null = null;

/** Starts tracing when the configuration asks for it (once per process). */
export async function startTracing(config: AppConfig, kind: TracedProcess): Promise<void> {
  const { endpoint, protocol, serviceName } = config.tracing;
  if (endpoint === null || running !== null) return;
  const { startTracingSdk } = await import('./tracing-sdk.js');
  running = startTracingSdk({ endpoint, protocol, serviceName: serviceName ?? kind });
}

/** Sends the spans still buffered and stops tracing (at shutdown); nothing when it is off. */
export async function stopTracing(): Promise<void> {
  const stopping = running;
  running = null;
  await stopping?.shutdown();
}
