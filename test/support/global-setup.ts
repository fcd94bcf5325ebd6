import { loadConfig } from '../../src/config/config';
import { prepareDatabase } from '../../src/database/prepare-database';
import {
  abandonedTestDatabases,
  databaseUrl,
  dropDatabase,
  RUN_ID_VARIABLE,
  templateDatabase,
} from './databases';
import { createRunDirectory, removeRunDirectories, removeRunKeys } from './run-environment';

/**
 * Once per run (each project's setup calls it; the second call finds everything made): this run's
 * id and temporary folder (workers inherit both), what dead runs left removed, and a freshly
 * migrated template database.
 */
export default async function globalSetup(): Promise<void> {
  process.env[RUN_ID_VARIABLE] = String(process.pid);
  const runId = process.env[RUN_ID_VARIABLE];
  createRunDirectory(runId);
  removeRunDirectories(runId, { own: false });
  await removeRunKeys(runId, { own: false });
  for (const name of await abandonedTestDatabases()) await dropDatabase(name);
  await prepareDatabase(
    loadConfig({ NODE_ENV: 'test', DATABASE_URL: databaseUrl(templateDatabase()) }),
  );
}
