/**
 * Start-up database preparation: create the database when it is missing, then run pending
 * migrations under a PostgreSQL advisory lock so that processes starting together do not race
 * (the first runs them, the others wait and find nothing left to do).
 */
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/config';
import { buildDataSourceOptions } from './typeorm-options';
import { DependencyUnavailableError, describeLocation, describeReason } from './dependency-errors';

/** Arbitrary, fixed key of the migration advisory lock ("ckin" in ASCII). */
const MIGRATION_LOCK_KEY = 0x636b696e;

const INVALID_CATALOG_NAME = '3D000';
const DUPLICATE_DATABASE = '42P04';
const UNIQUE_VIOLATION = '23505';

function unavailable(url: string, error: unknown): DependencyUnavailableError {
  return new DependencyUnavailableError('PostgreSQL', describeLocation(url), describeReason(error));
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}

/** Creates the configured database when it does not exist yet. */
export async function ensureDatabaseExists(databaseUrl: string): Promise<boolean> {
  try {
    const client = await connect(databaseUrl);
    await client.end();
    return false;
  } catch (error) {
    if ((error as { code?: string }).code !== INVALID_CATALOG_NAME) {
      throw unavailable(databaseUrl, error);
    }
  }
  const url = new URL(databaseUrl);
  const databaseName = decodeURIComponent(url.pathname.replace(/^\//, ''));
  url.pathname = '/postgres';
  let admin: Client;
  try {
    admin = await connect(url.toString());
  } catch (error) {
    throw unavailable(databaseUrl, error);
  }
  try {
    await admin.query(`CREATE DATABASE "${databaseName.replace(/"/g, '""')}"`);
    return true;
  } catch (error) {
    const code = (error as { code?: string }).code;
    // Another process created it at the same moment.
    if (code === DUPLICATE_DATABASE || code === UNIQUE_VIOLATION) return false;
    throw error;
  } finally {
    await admin.end();
  }
}

/** Runs pending migrations while holding the advisory lock; returns the names it ran. */
export async function runMigrationsLocked(config: AppConfig): Promise<string[]> {
  const dataSource = new DataSource({
    ...buildDataSourceOptions(config),
    extra: { max: 2, connectionTimeoutMillis: 5_000 },
  });
  try {
    await dataSource.initialize();
  } catch (error) {
    throw unavailable(config.database.url, error);
  }
  const lockRunner = dataSource.createQueryRunner();
  try {
    await lockRunner.connect();
    await lockRunner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const ran = await dataSource.runMigrations({ transaction: 'each' });
      return ran.map((migration) => migration.name);
    } finally {
      await lockRunner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await lockRunner.release();
    await dataSource.destroy();
  }
}

export interface PreparedDatabase {
  created: boolean;
  migrationsRun: string[];
}

export async function prepareDatabase(config: AppConfig): Promise<PreparedDatabase> {
  const created = await ensureDatabaseExists(config.database.url);
  const migrationsRun = config.database.migrateOnStart ? await runMigrationsLocked(config) : [];
  return { created, migrationsRun };
}
