/**
 * What every process entry point does first (docs/operations.md). It loads only the configuration
 * before checking it: the database and Redis clients are loaded once the configuration is valid,
 * and the entry points load the application only after these checks, so a refusal costs no more
 * than reading the configuration.
 */
import { startTracing } from './common/telemetry/tracing';
import {
  AppConfig,
  ConfigError,
  type EntryPoint,
  loadConfig,
  opsPortOf,
  type OpsProcess,
} from './config/config';
import { withLocalSecrets } from './config/local-secrets';
import { DependencyUnavailableError } from './database/dependency-errors';
import type { OpsServer } from './operations/ops-server';

/** Prints one line and exits: start-up problems are the operator's to fix, not stack traces. */
function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/**
 * What the entry point should log once its logger is up: where secrets came from when they were
 * not configured (development and test only).
 */
export function secretsNotice(
  config: AppConfig,
  filled: string[],
  file: string,
  created: boolean,
): string | null {
  if (config.ephemeralSecrets.length > 0) {
    return `${config.ephemeralSecrets.join(', ')} not set: random for this process only (links and encrypted data will not survive a restart)`;
  }
  if (filled.length === 0) return null;
  return `${filled.join(', ')} not set: using the local secrets in ${file}${created ? ' (generated now)' : ''}; production refuses to start without them`;
}

/**
 * Variables an earlier release read and this one ignores: set, each gets one line in the start-up
 * notice, so that an operator's old setting is not silently dropped.
 */
export const RETIRED_VARIABLES: Record<string, string> = {
  METRICS_SEAL_DELAY_MINUTES:
    'group metrics are released by calendar windows now; METRICS_RELEASE_GRACE_HOURS says when (docs/metrics.md)',
};

/** The notice for retired variables set in `env`, or null. */
export function retiredVariablesNotice(env: NodeJS.ProcessEnv): string | null {
  const set = Object.keys(RETIRED_VARIABLES).filter((name) => env[name] !== undefined);
  if (set.length === 0) return null;
  return set.map((name) => `${name} is no longer read: ${RETIRED_VARIABLES[name]}`).join('; ');
}

let notice: string | null = null;

/** The start-up notice of this process (see secretsNotice), for the entry point to log. */
export const startupNotice = (): string | null => notice;

/**
 * Shared by every process entry point (`entry`: which program is starting, named by a refusal to
 * start without NODE_ENV): configuration (secrets filled from the local secrets file in
 * development and test), then, for the API and the worker, tracing when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set — before the PostgreSQL and Redis clients are loaded, which
 * it instruments — then PostgreSQL (create the database when missing, run pending migrations
 * under an advisory lock), then Redis.
 */
export async function startupChecks(
  entry: EntryPoint,
  options: { migrate?: boolean; redis?: boolean } = {},
): Promise<AppConfig> {
  try {
    const local = withLocalSecrets(process.env);
    const config = loadConfig(local.env, entry);
    notice =
      [
        secretsNotice(config, local.filled, local.file, local.created),
        retiredVariablesNotice(process.env),
      ]
        .filter((line) => line !== null)
        .join('; ') || null;
    if (entry === 'api' || entry === 'worker') await startTracing(config, entry);
    const { prepareDatabase } = await import('./database/prepare-database.js');
    await prepareDatabase(
      options.migrate === false
        ? { ...config, database: { ...config.database, migrateOnStart: false } }
        : config,
    );
    if (options.redis !== false) {
      const { checkRedis } = await import('./database/check-redis.js');
      await checkRedis(config.redis.url);
    }
    return config;
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DependencyUnavailableError) {
      fail(error.message);
    }
    fail(`Start-up failed: ${(error as Error).message}`);
  }
}

/**
 * Opens this process's operations port (docs/operations.md, "Monitoring") before the application
 * is loaded, so a port already in use stops the process — one line, exit 1 — before a worker has
 * leased anything. Null when OPS_PORT=0.
 */
export async function openOpsPort(config: AppConfig, kind: OpsProcess): Promise<OpsServer | null> {
  const port = opsPortOf(config, kind);
  if (port === 0) return null;
  const { OpsServer, OpsPortInUseError } = await import('./operations/ops-server.js');
  try {
    return await OpsServer.listen(config.ops.host, port);
  } catch (error) {
    if (error instanceof OpsPortInUseError) fail(error.message);
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    fail(
      `The operations port cannot listen on ${config.ops.host}:${port} (${code}); check OPS_HOST and OPS_PORT.`,
    );
  }
}

/**
 * Which PostgreSQL and Redis this process uses, for its start-up line: host, port and database,
 * never the user or password the URLs may carry.
 */
export function dependencyTargets(config: AppConfig): string {
  const postgres = new URL(config.database.url);
  const redis = new URL(config.redis.url);
  const postgresHost = postgres.hostname || postgres.searchParams.get('host') || 'localhost';
  const database = decodeURIComponent(postgres.pathname.replace(/^\//, '')) || '(the default)';
  return (
    `PostgreSQL at ${postgresHost}:${postgres.port || '5432'}, database ${database}; ` +
    `Redis at ${redis.hostname}:${redis.port || '6379'}, database ${redis.pathname.replace(/^\//, '') || '0'}` +
    (redis.protocol === 'rediss:' ? ' (TLS)' : '')
  );
}

/**
 * SIGTERM (orchestrators, `kill`) and SIGINT (Ctrl-C) stop the process once: `stop` says what it
 * does and does it, then the process logs "Stopped" and exits 0 — or, when stopping fails, logs why
 * and exits 1 (docs/operations.md).
 */
export function onStopSignals(
  logger: { log(message: string): void; error(message: string): void },
  stop: (signal: 'SIGTERM' | 'SIGINT') => Promise<void>,
): void {
  let stopping = false;
  const handle = (signal: 'SIGTERM' | 'SIGINT') => {
    if (stopping) return;
    stopping = true;
    stop(signal).then(
      () => {
        logger.log('Stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error(`Shutdown failed: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => handle('SIGTERM'));
  process.on('SIGINT', () => handle('SIGINT'));
}
