/**
 * A test run leaves the machine as it found it (docs/tests.md, "Isolation"): what the run's apps,
 * CLIs and processes are given, and the teardown that ends what a test left running.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { childEnv } from '../support/processes';
import {
  endRunProcesses,
  runEnvironment,
  SPAWNED_BY_VARIABLE,
  TEST_REDIS_URL,
} from '../support/run-environment';

const ROOT = join(__dirname, '..', '..');
const inside = (folder: string, path: string) => !relative(folder, path).startsWith('..');

describe('a test run', () => {
  it('writes mails and local secrets in a temporary folder of its own, never under var/', () => {
    const env = runEnvironment();
    for (const path of [env.MAIL_DIR, env.LOCAL_SECRETS_FILE]) {
      expect(inside(tmpdir(), path)).toBe(true);
      expect(inside(ROOT, path)).toBe(false);
    }
    expect(env.MAIL_DIR).toContain(`checkin-test-${process.env.CHECKIN_TEST_RUN}-`);
  });

  it('uses a Redis database other than the service default (0)', () => {
    expect(runEnvironment().REDIS_URL).toBe(TEST_REDIS_URL);
    if (!process.env.TEST_REDIS_URL) expect(new URL(TEST_REDIS_URL).pathname).toBe('/15');
  });

  it('gives every spawned process the same settings', () => {
    const env = childEnv({ NODE_ENV: 'test' });
    expect(env).toMatchObject(runEnvironment());
  });

  it('ends, at its teardown, a process a test left running', async () => {
    // Another run id than this run's: ending this run's processes would end other files' too.
    const run = '999999999';
    const left = spawn('sleep', ['60'], {
      env: { PATH: process.env.PATH, [SPAWNED_BY_VARIABLE]: run },
      stdio: 'ignore',
    });
    const exited = once(left, 'exit');
    // Linux only: the teardown reads the environment of processes from /proc.
    await new Promise((resolve) => left.once('spawn', resolve));
    expect(endRunProcesses(run)).toBe(1);
    const [, signal] = (await exited) as [number | null, string | null];
    expect(signal).toBe('SIGKILL');
  });

  it('does not rebuild dist/ when the build is current', () => {
    const build = spawnSync(process.execPath, ['scripts/build-app.js', '--if-stale'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(build.status).toBe(0);
    expect(build.stdout).toMatch(/^build: dist\/ is current \([0-9a-f]{12}\)$/m);
  });
});
