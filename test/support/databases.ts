/**
 * Test databases: a template migrated once per run (global setup), and a fresh copy of it for each
 * test file (CREATE DATABASE … TEMPLATE, ~100 ms), dropped when the file is done.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** Where tests create their databases (any database of the server; `postgres` by default). */
export const ADMIN_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEMPLATE_DATABASE = 'checkin_test_template';
export const TEST_DATABASE_PREFIX = 'checkin_test_f_';

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
  const name = `${TEST_DATABASE_PREFIX}${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin((client) =>
    client.query(`CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE_DATABASE}"`),
  );
  return name;
}
