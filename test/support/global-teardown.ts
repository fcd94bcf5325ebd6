import { dropDatabase, RUN_ID_VARIABLE, templateDatabase } from './databases';
import { endRunProcesses, removeRunDirectories, removeRunKeys } from './run-environment';

/**
 * Once per run: processes a test left running are ended, and this run's template database, Redis
 * keys and temporary folder go (each file drops its own database and keys as it closes).
 */
export default async function globalTeardown(): Promise<void> {
  const runId = process.env[RUN_ID_VARIABLE] ?? String(process.pid);
  const ended = endRunProcesses(runId);
  if (ended > 0) console.warn(`global teardown: ended ${ended} process(es) a test left running`);
  await dropDatabase(templateDatabase());
  await removeRunKeys(runId, { own: true });
  removeRunDirectories(runId, { own: true });
}
