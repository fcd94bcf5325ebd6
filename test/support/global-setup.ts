import { loadConfig } from '../../src/config/config';
import { prepareDatabase } from '../../src/database/prepare-database';
import {
  databaseUrl,
  dropDatabase,
  TEMPLATE_DATABASE,
  TEST_DATABASE_PREFIX,
  withAdmin,
} from './databases';

/** Once per run: a freshly migrated template database; leftovers of interrupted runs removed. */
export default async function globalSetup(): Promise<void> {
  const leftovers = await withAdmin(async (client) => {
    const result = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1`,
      [`${TEST_DATABASE_PREFIX}%`],
    );
    return result.rows.map((row) => row.datname);
  });
  for (const name of [...leftovers, TEMPLATE_DATABASE]) await dropDatabase(name);
  await prepareDatabase(
    loadConfig({ NODE_ENV: 'test', DATABASE_URL: databaseUrl(TEMPLATE_DATABASE) }),
  );
}
