/**
 * Chaos: webhook durability (docs/webhooks.md, docs/performance.md) with real processes (`dist/main`, `dist/worker`), a Redis of
 * their own that the test kills, and a local receiver. Nothing may be lost.
 */
import type { ChildProcess } from 'node:child_process';
import Redis from 'ioredis';
import { Client } from 'pg';
import { createTestDatabase, databaseUrl, dropDatabase } from '../support/databases';
import { request } from '../support/http';
import {
  createEnterpriseWithCli,
  freePort,
  kill,
  RunningProcess,
  serviceEnv,
  startService,
  spawnTracked,
  startWorker,
} from '../support/processes';
import type { TestGroup } from '../support/test-app';
import { POLL_INTERVAL_MS, sleep, WebhookReceiver } from '../support/webhook-receiver';

function startRedis(port: number): Promise<ChildProcess> {
  const redis = spawnTracked(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore', env: { PATH: process.env.PATH } },
  );
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 5_000;
    const probe = async () => {
      try {
        const socket = await fetch(`http://127.0.0.1:${port}`).catch((error: Error) => error);
        // Redis answers HTTP with a protocol error or a reset: either way it is listening.
        if (!(socket instanceof Error) || !/ECONNREFUSED/.test(String(socket.cause))) {
          return resolve(redis);
        }
      } catch {
        // not yet
      }
      if (Date.now() > deadline) return reject(new Error('redis-server did not start'));
      setTimeout(() => void probe(), 50);
    };
    void probe();
  });
}

async function eventIds(url: string): Promise<string[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await client.query<{ id: string }>(
      `SELECT id FROM events WHERE type = 'user.created' ORDER BY id`,
    );
    return rows.rows.map((row) => row.id);
  } finally {
    await client.end();
  }
}

async function eventCount(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE type = 'user.created'`,
    );
    return rows.rows[0].n;
  } finally {
    await client.end();
  }
}

async function waitForAll(
  inbox: WebhookReceiver,
  expected: string[],
  timeoutMs: number,
  url: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = new Set(inbox.received.map((request) => String(request.headers['webhook-id'])));
    const missing = expected.filter((id) => !seen.has(id));
    if (missing.length === 0) return;
    if (Date.now() > deadline) {
      const deliveries = await deliveriesOf(url, missing.slice(0, 5));
      throw new Error(
        `${missing.length} of ${expected.length} events never arrived; their deliveries: ` +
          JSON.stringify(deliveries) +
          ' redis: ' +
          JSON.stringify(await redisStateOf(deliveries.map((d) => `${d.id}:0:0`))),
      );
    }
    await sleep(POLL_INTERVAL_MS);
  }
}

let diagnosticRedis: { url: string; prefix: string } | undefined;

/** Where Bull holds these job ids (diagnostics for a failure message). */
async function redisStateOf(jobIds: string[]): Promise<unknown> {
  if (!diagnosticRedis) return null;
  const redis = new Redis(diagnosticRedis.url);
  const base = `${diagnosticRedis.prefix}:webhooks`;
  try {
    const lists = {
      wait: await redis.lrange(`${base}:wait`, 0, -1),
      active: await redis.lrange(`${base}:active`, 0, -1),
      paused: await redis.lrange(`${base}:paused`, 0, -1),
      delayed: await redis.zrange(`${base}:delayed`, 0, -1),
      stalled: await redis.smembers(`${base}:stalled`),
      keys: (await redis.keys(`${base}:*`)).filter((key) => !key.includes(':0:0')).slice(0, 30),
    };
    const jobs = [];
    for (const id of jobIds) {
      jobs.push({
        id,
        hash: await redis.hgetall(`${base}:${id}`),
        lock: await redis.get(`${base}:${id}:lock`),
        inWait: lists.wait.includes(id),
        inActive: lists.active.includes(id),
        inDelayed: lists.delayed.includes(id),
      });
    }
    return {
      counts: {
        wait: lists.wait.length,
        active: lists.active.length,
        delayed: lists.delayed.length,
        stalled: lists.stalled.length,
      },
      keys: lists.keys,
      jobs,
    };
  } finally {
    redis.disconnect();
  }
}

interface DeliveryRow {
  id: string;
  event_id: string;
  status: string;
  attempts: number;
  next_attempt_at: Date | null;
  locked_until: Date | null;
  now: Date;
  /** count(*): a bigint, which pg returns as a string. */
  attempt_rows: string;
}

/** What PostgreSQL says about the deliveries of these events (for a failure message). */
async function deliveriesOf(url: string, events: string[]): Promise<DeliveryRow[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await client.query<DeliveryRow>(
      `SELECT d.id, d.event_id, d.status, d.attempts, d.next_attempt_at, d.locked_until, now() AS now,
              (SELECT count(*) FROM delivery_attempts a WHERE a.delivery_id = d.id) AS attempt_rows
         FROM webhook_deliveries d WHERE d.event_id = ANY($1)`,
      [events],
    );
    return rows.rows;
  } finally {
    await client.end();
  }
}

describe('Webhook delivery under faults', () => {
  let databaseName: string;
  let redisPort: number;
  let redis: ChildProcess;
  let api: RunningProcess | undefined;
  let apiPort: number;
  const workers: ChildProcess[] = [];
  let inbox: WebhookReceiver;
  let env: Record<string, string>;
  let apiKey: string;
  let group: TestGroup;

  beforeAll(async () => {
    databaseName = await createTestDatabase();
    redisPort = await freePort();
    redis = await startRedis(redisPort);
    inbox = await new WebhookReceiver().start();
    env = serviceEnv(databaseName, {
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_SWEEP_INTERVAL_MS: '200',
      WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s,1s,1s,1s',
      WEBHOOK_TIMEOUT_MS: '2000',
      RUN_WORKERS: 'false',
    });
    diagnosticRedis = { url: env.REDIS_URL, prefix: env.QUEUE_PREFIX };
    apiPort = await freePort();
    api = await startService(env, apiPort);
    ({ apiKey } = await createEnterpriseWithCli(env, 'Faults'));
    group = (await call('POST', '/groups', { groupName: 'Faults' })) as TestGroup;
    await call('POST', `/webhooks/${group.groupID}`, { url: inbox.url, description: 'faults' });
  });

  afterAll(async () => {
    await api?.stop();
    for (const worker of workers) await kill(worker);
    await kill(redis);
    await inbox.stop();
    await dropDatabase(databaseName);
  });

  async function call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await request(`http://127.0.0.1:${apiPort}`, method, path, { apiKey, body });
    if (response.status !== 200)
      throw new Error(`${method} ${path}: ${response.status} ${response.text}`);
    return response.body;
  }

  const produce = async (count: number, tag: string) => {
    for (let index = 0; index < count; index += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, count - index) }, (_, offset) =>
          call('POST', '/session/create', {
            groupID: group.groupID,
            groupKey: group.key,
            userIdentifier: `${tag}${index + offset}@example.com`,
            returnURL: 'https://app.example.com/done',
          }),
        ),
      );
    }
  };

  it('Redis killed and restarted (empty) while 1 000 events are produced: all 1 000 delivered, no API request fails', async () => {
    workers.push(await startWorker(env));
    const url = databaseUrl(databaseName);
    // Every request must succeed while Redis is gone (call() throws on anything but 200).
    const producing = produce(1_000, 'redis');
    while ((await eventCount(url)) < 250) await sleep(50);
    await kill(redis);
    const producedBeforeOutage = await eventCount(url);
    // Redis stays down while 200 more events are written.
    const outageDeadline = Date.now() + 60_000;
    let producedDuringOutage = producedBeforeOutage;
    while (producedDuringOutage < producedBeforeOutage + 200 && Date.now() < outageDeadline) {
      await sleep(50);
      producedDuringOutage = await eventCount(url);
    }
    redis = await startRedis(redisPort); // a new, empty Redis: as after a flush
    await producing;
    // The outage really was mid-stream: events were written while Redis was down, and after.
    expect(producedDuringOutage - producedBeforeOutage).toBeGreaterThanOrEqual(200);
    expect(producedDuringOutage).toBeLessThan(1_000);
    const expected = await eventIds(url);
    expect(expected).toHaveLength(1_000);
    await waitForAll(inbox, expected, 90_000, databaseUrl(databaseName));
  }, 150_000);

  it('a worker killed with SIGKILL mid-stream, three times: nothing lost', async () => {
    const before = new Set(await eventIds(databaseUrl(databaseName)));
    // A slow receiver keeps deliveries in flight when the worker dies.
    for (let reply = 0; reply < 150; reply++) inbox.replies.push({ status: 200, delayMs: 600 });
    const receivedBefore = inbox.received.length;
    await produce(150, 'kill');
    // Mid-stream: at the first kill, deliveries are still outstanding (150 × 600 ms / 20 at a time).
    expect(inbox.received.length - receivedBefore).toBeLessThan(150);
    for (let round = 0; round < 3; round++) {
      await kill(workers[workers.length - 1]);
      workers.push(await startWorker(env));
      if (round === 2) break;
      // The next kill is mid-delivery: once the new worker's first requests are at the receiver
      // (which answers each after 600 ms). The killed one is gone, so they are the new one's.
      const receivedAtStart = inbox.received.length;
      const sendingBy = Date.now() + 30_000;
      while (inbox.received.length === receivedAtStart && Date.now() < sendingBy) await sleep(10);
      expect(inbox.received.length).toBeGreaterThan(receivedAtStart);
    }
    const expected = (await eventIds(databaseUrl(databaseName))).filter((id) => !before.has(id));
    expect(expected).toHaveLength(150);
    await waitForAll(inbox, expected, 90_000, databaseUrl(databaseName));
  }, 150_000);

  it('a worker stopped with SIGTERM while deliveries are in flight: each finishes and is recorded delivered, once', async () => {
    const url = databaseUrl(databaseName);
    await waitForAll(inbox, await eventIds(url), 30_000, url); // the last test's, all arrived
    // Each reply comes 800 ms after its request: the SIGTERM lands while they are in flight.
    inbox.replies.splice(0);
    for (let reply = 0; reply < 10; reply++) inbox.replies.push({ status: 200, delayMs: 800 });
    const receivedBefore = inbox.received.length;
    await produce(10, 'term');
    const sendingBy = Date.now() + 30_000;
    while (inbox.received.length === receivedBefore && Date.now() < sendingBy) await sleep(10);
    const worker = workers[workers.length - 1];
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.kill('SIGTERM');
    const inFlight = inbox.received
      .slice(receivedBefore)
      .map((received) => String(received.headers['webhook-id']));
    expect(inFlight.length).toBeGreaterThan(0);
    await exited;
    // Shutting down, the worker let its sends finish and wrote their outcomes: a closed
    // connection would have been a failed attempt, retried later (a second copy).
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ status: string; attempts: string }>(
        `SELECT d.status,
                string_agg(coalesce(a.status_code::text, a.error), ',') AS attempts
           FROM webhook_deliveries d LEFT JOIN delivery_attempts a ON a.delivery_id = d.id
          WHERE d.event_id = ANY ($1)
          GROUP BY d.id`,
        [inFlight],
      );
      expect(rows).toEqual(inFlight.map(() => ({ status: 'delivered', attempts: '200' })));
    } finally {
      await client.end();
    }
    workers.push(await startWorker(env));
    await waitForAll(inbox, await eventIds(url), 30_000, url);
  }, 90_000);
});
