import { AppConfig, ConfigError, loadConfig } from './config/config';
import { checkRedis } from './database/check-redis';
import { DependencyUnavailableError } from './database/dependency-errors';
import { prepareDatabase } from './database/prepare-database';

/** Prints one line and exits: start-up problems are the operator's to fix, not stack traces. */
function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/**
 * Shared by every process entry point: configuration, then PostgreSQL (create the database when
 * missing, run pending migrations under an advisory lock), then Redis.
 */
export async function startupChecks(
  options: { migrate?: boolean; redis?: boolean } = {},
): Promise<AppConfig> {
  try {
    const config = loadConfig(process.env);
    await prepareDatabase(
      options.migrate === false
        ? { ...config, database: { ...config.database, migrateOnStart: false } }
        : config,
    );
    if (options.redis !== false) await checkRedis(config.redis.url);
    return config;
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DependencyUnavailableError) {
      fail(error.message);
    }
    fail(`Start-up failed: ${(error as Error).message}`);
  }
}
