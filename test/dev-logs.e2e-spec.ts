/**
 * What a newcomer sees on `npm start` (docs/integrating.md): in development at a terminal, readable lines
 * (pino-pretty) without Nest's one-line-per-route start-up chatter; the same process writing to a
 * pipe (a log collector, a file) keeps one JSON object per line. The terminal is a real
 * pseudo-terminal (util-linux `script`), not a flag.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, databaseUrl, dropDatabase } from './support/databases';
import { distEntry, freePort, spawnTracked } from './support/processes';
import { TEST_REDIS_URL } from './support/run-environment';
import { POLL_INTERVAL_MS, sleep } from './support/webhook-receiver';

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

interface Started {
  lines: string[];
  port: number;
}

/** Starts `dist/main` in development, requests GET /groups once, stops it; its output's lines. */
async function startInDevelopment(
  terminal: boolean,
  env: Record<string, string>,
): Promise<Started> {
  const port = await freePort();
  // The operations port on, as `npm start` has it (on a port of its own: tests run in parallel).
  const ports = { PORT: String(port), OPS_PORT: String(await freePort()) };
  const main = `${process.execPath} ${distEntry('main')}`;
  const child = terminal
    ? spawnTracked('script', ['-qfec', main, '/dev/null'], {
        env: { ...env, ...ports },
        detached: true,
      })
    : spawnTracked(process.execPath, [distEntry('main')], {
        env: { ...env, ...ports },
        detached: true,
      });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  try {
    const deadline = Date.now() + 30_000;
    while (!/Listening on/.test(output)) {
      if (Date.now() > deadline || child.exitCode !== null) {
        throw new Error(`the service did not start: ${output}`);
      }
      await sleep(POLL_INTERVAL_MS);
    }
    const answer = await fetch(`http://127.0.0.1:${port}/groups`);
    expect(answer.status).toBe(401);
    // The access line of that request, and the end of start-up (the demo bootstrap's lines
    // come before it), are the last things waited for.
    while (!/request completed/.test(output) || !/Start-up complete/.test(output)) {
      if (Date.now() > deadline) throw new Error(`no access line or end of start-up: ${output}`);
      await sleep(POLL_INTERVAL_MS);
    }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
  }
  const lines = output
    .replace(ANSI, '')
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line !== '');
  return { lines, port };
}

describe('development logs', () => {
  let database: string;
  const secrets = mkdtempSync(join(tmpdir(), 'checkin-dev-logs-'));
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl(database),
      DB_MIGRATE_ON_START: 'false',
      QUEUE_PREFIX: database,
      REDIS_URL: TEST_REDIS_URL,
      LOCAL_SECRETS_FILE: join(secrets, 'local-secrets.env'),
      MAIL_DIR: join(secrets, 'mail'),
      SHUTDOWN_DRAIN_MS: '0',
      PUBLIC_RATE_LIMIT_REQUESTS: '0',
      AUTH_FAILURE_LIMIT: '0',
    };
  });
  afterAll(async () => {
    await dropDatabase(database);
    rmSync(secrets, { recursive: true, force: true });
  });

  it('are readable lines at a terminal, without the per-route start-up chatter', async () => {
    const { lines, port } = await startInDevelopment(true, env);
    expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^\\[\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\] INFO: \\[Main\\] Listening on 127\\.0\\.0\\.1:${port} `,
        ),
      ),
    );
    // The access log: method, path, status and time on one line.
    expect(lines).toContainEqual(
      expect.stringMatching(/INFO: request completed GET \/groups → 401 \(\d+ ms\)$/),
    );
    expect(lines.filter((line) => /Mapped \{|RouterExplorer|InstanceLoader/.test(line))).toEqual(
      [],
    );
    // What a newcomer needs is on screen: the sandbox key and the Swagger UI.
    expect(lines).toContainEqual(expect.stringMatching(/^Its API key, shown only this once: ck_/));
    expect(lines).toContainEqual(expect.stringMatching(/^Swagger UI: http/));
    expect(lines.length).toBeLessThan(25);
  });

  it('stay one JSON object per line when the output is not a terminal', async () => {
    const { lines, port } = await startInDevelopment(false, env);
    const json = lines.filter((line) => line.startsWith('{'));
    const messages = json.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toContainEqual(expect.stringMatching(`^Listening on 127.0.0.1:${port} `));
    expect(messages).toContain('request completed');
    // Nest's start-up lines are kept as they were in JSON (a collector filters them itself).
    expect(messages.filter((message) => message.startsWith('Mapped {')).length).toBeGreaterThan(20);
    // A second start on the same database: no new key, but how to get one.
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^The sandbox enterprise "Demo Enterprise" \([0-9a-f-]{36}\) was created at the first start; its API key was shown then only\. Lost it\? npm run cli:dev -- api-keys:create --enterprise [0-9a-f-]{36}$/,
      ),
    );
  });
});
