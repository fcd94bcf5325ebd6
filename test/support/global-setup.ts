import { loadConfig } from '../../src/config/config';
import { prepareDatabase } from '../../src/database/prepare-database';
import {
  abandonedTestDatabases,
  databaseUrl,
  dropDatabase,
  RUN_ID_VARIABLE,
  templateDatabase,
} from './databases';

/**
 * Once per run: this run's id (workers inherit it), databases of dead runs removed, and a freshly
 * migrated template database.
 */
export default async function globalSetup(): Promise<void> {
  process.env[RUN_ID_VARIABLE] = String(process.pid);
  for (const name of await abandonedTestDatabases()) await dropDatabase(name);
  await prepareDatabase(
    loadConfig({ NODE_ENV: 'test', DATABASE_URL: databaseUrl(templateDatabase()) }),
  );
}
