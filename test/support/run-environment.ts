/**
 * What a test run owns, so that it leaves the machine as it found it (docs/tests.md, "Isolation"):
 *
 * - **A Redis database of its own**: TEST_REDIS_URL, by default database 15 of the local server
 *   (the service's default is 0), and in it only keys under this run's prefix
 *   (`checkin_test_<run>_…`, one prefix per test file, as its queue prefix).
 * - **A temporary folder of its own** (`os.tmpdir()/checkin-test-<run>-…`), for the mails written
 *   as files and the local secrets file, which otherwise go to `var/`, where `npm start` keeps its.
 * - **Its processes**: every process a test spawns carries SPAWNED_BY_VARIABLE in its environment;
 *   the global teardown ends any that are still running.
 *
 * The global setup creates them (and removes what runs that died left); the global teardown removes
 * them. Every app, CLI and process a test starts takes `runEnvironment()` under its own settings.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { isAlive, RUN_ID_VARIABLE, TEST_DATABASE_ROOT } from './databases';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/15';
/** Set by the global setup; workers inherit it. */
export const RUN_DIRECTORY_VARIABLE = 'CHECKIN_TEST_DIR';
/** In the environment of every process a test spawns (not of jest's own workers): the run's id. */
export const SPAWNED_BY_VARIABLE = 'CHECKIN_TEST_SPAWNED_BY';
const RUN_DIRECTORY_PREFIX = 'checkin-test-';

/** This run's temporary folder (removed by the global teardown). */
export function runDirectory(): string {
  const directory = process.env[RUN_DIRECTORY_VARIABLE];
  if (!directory) throw new Error(`${RUN_DIRECTORY_VARIABLE} is unset: run tests through jest.`);
  return directory;
}

/** Settings every app, CLI and process of this run starts from. */
export function runEnvironment(): Record<string, string> {
  return {
    REDIS_URL: TEST_REDIS_URL,
    MAIL_DIR: join(runDirectory(), 'mail'),
    LOCAL_SECRETS_FILE: join(runDirectory(), 'local-secrets.env'),
  };
}

/** What marks a spawned process as this run's (processes.ts adds it to every child). */
export function spawnMarker(): Record<string, string> {
  return { [SPAWNED_BY_VARIABLE]: process.env[RUN_ID_VARIABLE] ?? String(process.pid) };
}

/** Global setup: this run's temporary folder, once (each project's setup calls this). */
export function createRunDirectory(runId: string): void {
  if (process.env[RUN_DIRECTORY_VARIABLE]) return;
  process.env[RUN_DIRECTORY_VARIABLE] = mkdtempSync(
    join(tmpdir(), `${RUN_DIRECTORY_PREFIX}${runId}-`),
  );
}

/** Folders of runs that are no longer running (interrupted, killed), and this run's at its end. */
export function removeRunDirectories(runId: string, { own }: { own: boolean }): void {
  for (const name of readdirSync(tmpdir())) {
    const match = new RegExp(`^${RUN_DIRECTORY_PREFIX}(\\d+)-`).exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    if ((own && match[1] === runId) || (match[1] !== runId && !isAlive(pid))) {
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
    }
  }
}

/** Deletes the keys matching `pattern` in `url`'s database. */
export async function deleteRedisKeys(url: string, pattern: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Keys of this run (at its end) and of runs that died, in the test Redis database. */
export async function removeRunKeys(runId: string, { own }: { own: boolean }): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const runs = new Set<string>();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(
        cursor,
        'MATCH',
        `${TEST_DATABASE_ROOT}*`,
        'COUNT',
        1000,
      );
      for (const key of keys) {
        const run = /^checkin_test_(\d+)_/.exec(key)?.[1];
        if (run) runs.add(run);
      }
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  for (const run of runs) {
    if ((own && run === runId) || (run !== runId && !isAlive(Number(run)))) {
      await deleteRedisKeys(TEST_REDIS_URL, `${TEST_DATABASE_ROOT}${run}_*`);
    }
  }
}

/**
 * Processes this run spawned that are still running (Linux: read from /proc), ended with SIGKILL.
 * Answers how many there were.
 */
export function endRunProcesses(runId: string): number {
  let ended = 0;
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  const marker = `${SPAWNED_BY_VARIABLE}=${runId}`;
  for (const pid of entries) {
    if (Number(pid) === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
    } catch {
      continue;
    }
    if (!environ.split('\0').includes(marker)) continue;
    try {
      process.kill(Number(pid), 'SIGKILL');
      ended += 1;
    } catch {
      // Gone meanwhile.
    }
  }
  return ended;
}
