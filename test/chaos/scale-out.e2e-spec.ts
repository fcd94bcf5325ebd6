/**
 * Scale-out (docs/design.md, docs/performance.md): two API processes (RUN_WORKERS=false) and two workers
 * (`dist/worker`) against one PostgreSQL and one Redis. Events created through either API are
 * delivered exactly once to each endpoint, signed; the per-key rate limit is one budget across
 * both API processes.
 */
import { ChildProcess } from 'node:child_process';
import { Pool } from 'pg';
import { createTestDatabase, databaseUrl, dropDatabase } from '../support/databases';
import { finalDeliveries } from '../support/deliveries';
import { request } from '../support/http';
import {
  createEnterpriseWithCli,
  freePort,
  kill,
  RunningProcess,
  serviceEnv,
  startService,
  startWorker,
} from '../support/processes';
import { rateLimitKeyOf, RateLimitSettles } from '../support/rate-limit-settles';
import { TEST_REDIS_URL } from '../support/run-environment';
import type { TestGroup } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

const EVENTS = 300;
const LIMIT = 400;
/**
 * Rate-limit windows are aligned on the epoch: one of a million hours began at the epoch and ends
 * in 2084, so no boundary falls in the middle of the test, and it waits for none.
 */
const RATE_LIMIT_WINDOW = '1000000h';

describe('Scale-out: 2 API processes, 2 workers', () => {
  let databaseName: string;
  let env: Record<string, string>;
  let db: Pool;
  const apis: { process: RunningProcess; base: string }[] = [];
  const workers: ChildProcess[] = [];
  const inboxes: WebhookReceiver[] = [];

  beforeAll(async () => {
    databaseName = await createTestDatabase();
    db = new Pool({ connectionString: databaseUrl(databaseName), max: 1 });
    env = serviceEnv(databaseName, {
      RUN_WORKERS: 'false',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_SWEEP_INTERVAL_MS: '200',
      RATE_LIMIT_REQUESTS: String(LIMIT),
      RATE_LIMIT_WINDOW,
    });
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      apis.push({ process: await startService(env, port), base: `http://127.0.0.1:${port}` });
      workers.push(await startWorker(env));
    }
    for (let i = 0; i < 2; i++) inboxes.push(await new WebhookReceiver().start());
  }, 120_000);

  afterAll(async () => {
    for (const api of apis) await api.process.stop();
    for (const worker of workers) await kill(worker);
    for (const inbox of inboxes) await inbox.stop();
    await db.end();
    await dropDatabase(databaseName);
  });

  const newKey = async (name: string) => (await createEnterpriseWithCli(env, name)).apiKey;

  const call = (api: number, apiKey: string, method: string, path: string, body?: unknown) =>
    request(apis[api].base, method, path, { apiKey, body });

  it('delivers every event exactly once per endpoint, whichever API wrote it and whichever worker sent it', async () => {
    const apiKey = await newKey('Scale');
    const group = (await call(0, apiKey, 'POST', '/groups', { groupName: 'Scale' }))
      .body as TestGroup;
    const secrets: string[] = [];
    const endpointIds: string[] = [];
    for (const [i, inbox] of inboxes.entries()) {
      const created = await call(i, apiKey, 'POST', `/webhooks/${group.groupID}`, {
        url: inbox.url,
        description: `endpoint ${i}`,
      });
      expect(created.status).toBe(200);
      secrets.push((created.body as { secret: string }).secret);
      endpointIds.push((created.body as { id: string }).id);
    }
    const failures: string[] = [];
    for (let index = 0; index < EVENTS; index += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, EVENTS - index) }, async (_, offset) => {
          const n = index + offset;
          const response = await call(n % 2, apiKey, 'POST', '/session/create', {
            groupID: group.groupID,
            groupKey: group.key,
            userIdentifier: `scale${n}@example.com`,
            returnURL: 'https://app.example.com/done',
          });
          if (response.status !== 200) failures.push(`${response.status}`);
        }),
      );
    }
    expect(failures).toEqual([]);

    // Every delivery final: each was sent and its outcome recorded, and none is sent again, so a
    // duplicate (two workers sending one delivery) would already be at its receiver.
    const deliveries = await finalDeliveries(db, endpointIds, 60_000);
    expect(deliveries).toHaveLength(2 * EVENTS);
    expect(deliveries.every((delivery) => delivery.status === 'delivered')).toBe(true);
    for (const [i, inbox] of inboxes.entries()) {
      const ids = inbox.received.map((received) => String(received.headers['webhook-id']));
      expect(ids).toHaveLength(EVENTS);
      expect(new Set(ids).size).toBe(EVENTS);
      for (const received of inbox.received.slice(0, 20)) {
        expect(WebhookReceiver.verify(received, secrets[i])).toMatchObject({
          type: 'user.created',
        });
      }
    }
  }, 150_000);

  it('shares one rate-limit budget per key across API processes', async () => {
    const apiKey = await newKey('Limited');
    const remaining = async (api: number) => {
      const response = await call(api, apiKey, 'GET', '/groups');
      expect(response.status).toBe(200);
      return response.headers.get('x-ratelimit-remaining');
    };
    // Each process counts its own requests exactly, and learns the other's when it settles with
    // Redis (batches, at most 100 ms apart while it has requests to settle): watched in Redis.
    const settles = await RateLimitSettles.watch(
      TEST_REDIS_URL,
      await rateLimitKeyOf(db, databaseName, apiKey),
    );
    try {
      expect([await remaining(0), await remaining(0), await remaining(0)]).toEqual(
        [1, 2, 3].map((n) => String(LIMIT - n)),
      );
      await settles.quiet(3); // process 0 has settled its three, and reads nothing more
      expect(await remaining(1)).toBe(String(LIMIT - 1)); // has not settled yet: knows only its own
      await settles.quiet(4);
      expect(settles.sources).toHaveLength(2);
      expect(await remaining(1)).toBe(String(LIMIT - 5)); // settled: learned process 0's three
      expect(await remaining(0)).toBe(String(LIMIT - 4)); // not settled since: its view lags by one
      await settles.quiet(6);
      // Spend the rest of the budget across both processes, then both refuse.
      for (let sent = 6; sent < LIMIT; sent += 25) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(25, LIMIT - sent) }, (_, i) =>
            call((sent + i) % 2, apiKey, 'GET', '/groups'),
          ),
        );
        expect(batch.every((response) => response.status === 200)).toBe(true);
      }
      // Both processes have settled every hit and read the total back.
      await settles.quiet(LIMIT);
    } finally {
      settles.stop();
    }
    // Each process learns the other's last hits within about two settle intervals; on a busy
    // machine one may still lag and let a few more through, never more than the documented
    // overshoot bound (docs/api.md: 2 × P × ⌈limit / 100⌉). Without a shared budget each process
    // would let through about LIMIT / 2 more.
    const overshootBound = 2 * 2 * Math.ceil(LIMIT / 100);
    let extra = 0;
    for (const api of [0, 1]) {
      let refused = await call(api, apiKey, 'GET', '/groups');
      while (refused.status === 200 && extra < overshootBound) {
        extra++;
        refused = await call(api, apiKey, 'GET', '/groups');
      }
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: 'Too many requests' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(extra).toBeLessThanOrEqual(overshootBound);
  }, 60_000);
});
