/**
 * Test databases: a template migrated once per run (global setup), and a fresh copy of it for each
 * test file (CREATE DATABASE … TEMPLATE, ~100 ms), dropped when the file is done.
 *
 * Every name carries the run's id (the Jest parent process id, set by the global setup), so two
 * runs on one machine never touch each other's databases; a run cleans up only databases of runs
 * whose process is gone.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** Where tests create their databases (any database of the server; `postgres` by default). */
export const ADMIN_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Every test database's name starts with this, then the run id. */
export const TEST_DATABASE_ROOT = 'checkin_test_';
/** Set by the global setup; workers inherit it. */
export const RUN_ID_VARIABLE = 'CHECKIN_TEST_RUN';

const runId = (): string => process.env[RUN_ID_VARIABLE] ?? String(process.pid);

/** This run's template database. */
export const templateDatabase = (): string => `${TEST_DATABASE_ROOT}${runId()}_template`;
/** The prefix of this run's own databases. */
export const testDatabasePrefix = (): string => `${TEST_DATABASE_ROOT}${runId()}_f_`;

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdmin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

export async function createTestDatabase(): Promise<string> {
  const name = `${testDatabasePrefix()}${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin((client) =>
    client.query(`CREATE DATABASE "${name}" TEMPLATE "${templateDatabase()}"`),
  );
  return name;
}

export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Databases left by runs that are no longer running (interrupted, killed). */
export async function abandonedTestDatabases(): Promise<string[]> {
  const names = await withAdmin(async (client) => {
    const result = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1`,
      [`${TEST_DATABASE_ROOT}%`],
    );
    return result.rows.map((row) => row.datname);
  });
  return names.filter((name) => {
    const pid = Number(/^checkin_test_(\d+)_/.exec(name)?.[1]);
    return !Number.isSafeInteger(pid) || !isAlive(pid);
  });
}
