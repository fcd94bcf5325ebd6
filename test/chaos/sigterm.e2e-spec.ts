/**
 * SIGTERM under load (docs/performance.md): zero failed requests. The load generator behaves like a load
 * balancer: it polls `/health` and stops routing new requests to the instance once it answers
 * 503. Every request sent must get a complete 2xx answer; the process must exit 0.
 */
import { Agent, request as httpRequest } from 'node:http';
import { Client } from 'pg';
import { createTestDatabase, databaseUrl, dropDatabase } from '../support/databases';
import {
  createEnterpriseWithCli,
  freePort,
  RunningProcess,
  serviceEnv,
  startService,
} from '../support/processes';
import { sleep } from '../support/webhook-receiver';

const DRAIN_MS = 1_500;

interface Answer {
  status: number;
  text: string;
  connection: string | undefined;
}

/** One request over a keep-alive agent; rejects on any socket error. */
function send(
  url: string,
  agent: Agent,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { agent, method: options.method ?? 'GET', headers: options.headers },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            text,
            connection: response.headers.connection,
          }),
        );
        response.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
const CLIENTS = 16;

describe('SIGTERM under load', () => {
  let databaseName: string;
  let api: RunningProcess | undefined;

  beforeAll(async () => {
    databaseName = await createTestDatabase();
  });
  afterAll(async () => {
    await api?.stop();
    await dropDatabase(databaseName);
  });

  it('drains: health turns 503, every request sent is answered 2xx, then the process exits 0', async () => {
    const env = serviceEnv(databaseName, { SHUTDOWN_DRAIN_MS: String(DRAIN_MS) });
    const port = await freePort();
    api = await startService(env, port);
    const { apiKey } = await createEnterpriseWithCli(env, 'Drain');
    const base = `http://127.0.0.1:${port}`;
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS + 1 });

    // The "load balancer" stops routing on a 503 from /health, when the instance is gone, or
    // (so that a broken drain fails the test instead of hanging it) after 20 s.
    let routable = true;
    let healthTurned503At = 0;
    const giveUpAt = Date.now() + 20_000;
    const poller = (async () => {
      while (routable) {
        const health = await send(`${base}/health`, agent).catch(() => null);
        if (health?.status === 503) healthTurned503At = Date.now();
        if (health?.status !== 200 || Date.now() > giveUpAt) routable = false;
        // Its check period, a cadence and not a wait: after SIGTERM, clients keep sending until
        // the next probe, and the drain must answer what they send.
        await sleep(100);
      }
    })();

    const outcomes = { ok: 0, writes: 0, failed: [] as string[], closeHeaders: 0 };
    /** Answers each client has had. */
    const answered = Array.from({ length: CLIENTS }, () => 0);
    const client = async (index: number) => {
      let n = 0;
      while (routable) {
        n += 1;
        try {
          const isWrite = n % 5 === 0;
          const answer = await send(`${base}/groups`, agent, {
            method: isWrite ? 'POST' : 'GET',
            headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
            body: isWrite ? JSON.stringify({ groupName: `drain ${index}.${n}` }) : undefined,
          });
          if (answer.status !== 200) outcomes.failed.push(`${answer.status} ${answer.text}`);
          else {
            outcomes.ok += 1;
            if (isWrite) outcomes.writes += 1;
          }
          if (answer.connection === 'close') outcomes.closeHeaders += 1;
          answered[index] += 1;
        } catch (error) {
          outcomes.failed.push(String((error as Error).message));
        }
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));

    // Under load: the signal comes once every client has had five answers, a write among them.
    const loadedBy = Date.now() + 20_000;
    while (answered.some((count) => count < 5) && Date.now() < loadedBy) await sleep(10);
    expect(answered.every((count) => count >= 5)).toBe(true);
    const okBeforeSignal = outcomes.ok;
    const signalledAt = Date.now();
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      api!.child.once('exit', (code) => resolve({ code, at: Date.now() })),
    );
    api.child.kill('SIGTERM');
    await Promise.all([load, poller]);
    const exit = await exited;
    agent.destroy();

    expect(outcomes.failed).toEqual([]);
    expect(okBeforeSignal).toBeGreaterThan(50);
    expect(outcomes.ok).toBeGreaterThan(okBeforeSignal);
    // Health said "go away" promptly; the process served the drain window, then exited cleanly.
    expect(healthTurned503At - signalledAt).toBeLessThan(1_000);
    expect(exit.at - signalledAt).toBeGreaterThanOrEqual(DRAIN_MS);
    expect(exit.code).toBe(0);
    // While draining, answers told keep-alive clients to reconnect elsewhere.
    expect(outcomes.closeHeaders).toBeGreaterThan(0);
    // Every write that was answered was stored, and nothing else.
    expect(await countGroups(databaseUrl(databaseName))).toBe(outcomes.writes);
  }, 60_000);
});

async function countGroups(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM groups')).rows[0].n;
  } finally {
    await client.end();
  }
}
