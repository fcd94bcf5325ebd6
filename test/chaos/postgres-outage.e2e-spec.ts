/**
 * PostgreSQL stopped for 10 s under load (docs/performance.md): the API answers 503
 * `{"error":"Service unavailable"}` quickly while it is gone, and serves again once it is back,
 * without a restart. Uses a PostgreSQL server of its own (initdb in a temporary directory) so the
 * other tests' server is never touched.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import {
  createEnterpriseWithCli,
  freePort,
  RunningProcess,
  startService,
} from '../support/processes';
import { sleep } from '../support/webhook-receiver';

const BIN = '/usr/lib/postgresql/15/bin';

/** Runs a PostgreSQL tool as the `postgres` user when we are root (initdb refuses root). */
function pgTool(tool: string, args: string[]): void {
  const command =
    userInfo().uid === 0
      ? ['runuser', ['-u', 'postgres', '--', join(BIN, tool), ...args]]
      : [join(BIN, tool), args];
  execFileSync(command[0] as string, command[1] as string[], { stdio: 'ignore' });
}

describe('PostgreSQL outage', () => {
  let dataDir: string;
  let port: number;
  let api: RunningProcess | undefined;
  let apiPort: number;
  let apiKey: string;

  const start = () =>
    pgTool('pg_ctl', [
      '-D',
      dataDir,
      '-w',
      '-o',
      `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1`,
      'start',
    ]);
  const stop = () => pgTool('pg_ctl', ['-D', dataDir, '-w', '-m', 'immediate', 'stop']);

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'checkin-pg-'));
    if (userInfo().uid === 0) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
      chownSync(dataDir, uid, gid);
    }
    pgTool('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres']);
    port = await freePort();
    start();
    const env = {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/checkin`,
      QUEUE_PREFIX: `pg_outage_${process.pid}`,
      RUN_WORKERS: 'false',
      API_KEY_CACHE_TTL_MS: '1000',
    };
    apiPort = await freePort();
    api = await startService(env, apiPort, 60_000);
    ({ apiKey } = await createEnterpriseWithCli(env, 'Outage'));
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
    try {
      stop();
    } catch {
      // already stopped
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  const get = async () => {
    const started = Date.now();
    const response = await fetch(`http://127.0.0.1:${apiPort}/groups`, {
      headers: { 'x-api-key': apiKey },
    });
    return { status: response.status, body: await response.json(), ms: Date.now() - started };
  };

  it('answers 503 fast while PostgreSQL is down and recovers without a restart', async () => {
    expect((await get()).status).toBe(200);
    stop();
    const outageEnds = Date.now() + 10_000;
    const during: { status: number; body: unknown; ms: number }[] = [];
    // The load: three requests at a time, every 100 ms, for the outage's 10 s.
    while (Date.now() < outageEnds) {
      during.push(...(await Promise.all([get(), get(), get()])));
      await sleep(100);
    }
    expect(during.length).toBeGreaterThan(20);
    for (const answer of during) {
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 503,
        body: { error: 'Service unavailable' },
      });
      expect(answer.ms).toBeLessThan(1_000);
    }
    start();
    const deadline = Date.now() + 15_000;
    let last = await get();
    while (last.status !== 200 && Date.now() < deadline) {
      await sleep(50);
      last = await get();
    }
    expect(last.status).toBe(200);
    expect(last.body).toEqual([]);
  }, 60_000);
});
