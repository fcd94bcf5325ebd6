import { CommonErrors } from '../src/common/errors/common.errors';
import { RATE_LIMIT_REDIS } from '../src/common/rate-limit/rate-limit.module';
import { Client } from 'pg';
import { createTestDatabase, databaseUrl, dropDatabase } from './support/databases';
import { request } from './support/http';
import {
  createEnterpriseWithCli,
  freePort,
  RunningProcess,
  serviceEnv,
  startService,
} from './support/processes';
import { rateLimitKeyOf, RateLimitSettles } from './support/rate-limit-settles';
import { TEST_REDIS_URL } from './support/run-environment';
import { startTestApp, TestApp, TestEnterprise } from './support/test-app';
import { sleep } from './support/webhook-receiver';

/**
 * Windows are fixed and aligned on the epoch (every process counts the same one): a test that
 * must stay in one window starts right after a boundary.
 */
async function startOfWindow(windowMs: number): Promise<void> {
  await sleep(windowMs - (Date.now() % windowMs) + 20);
}

/**
 * Per-API-key rate limiting (docs/api.md, docs/performance.md): counted in process, settled with Redis in batches,
 * every route of a key shares one budget.
 */
describe('Rate limiting', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let globex: TestEnterprise;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '5', RATE_LIMIT_WINDOW: '3s' });
    acme = await t.newEnterprise('Acme');
    globex = await t.newEnterprise('Globex');
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After once a key spends its budget, across routes, and recovers', async () => {
    // A window boundary in the middle would reset the count: start right after one.
    await startOfWindow(3_000);
    const paths = ['/groups', '/groups', '/groups/999999/participants', '/groups', '/groups'];
    const answers = [];
    for (const path of paths) answers.push(await t.request('GET', path, { apiKey: acme.apiKey }));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 400, 200, 200]);
    expect(answers.map((answer) => answer.headers.get('x-ratelimit-remaining'))).toEqual([
      '4',
      '3',
      '2',
      '1',
      '0',
    ]);
    expect(answers[0].headers.get('x-ratelimit-limit')).toBe('5');

    const refused = await t.request('GET', '/groups', { apiKey: acme.apiKey });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: CommonErrors.TooManyRequests });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3);

    // Another key has its own budget; requests without a valid key are 401 and count for nobody.
    expect((await t.request('GET', '/groups', { apiKey: globex.apiKey })).status).toBe(200);
    expect((await t.request('GET', '/groups', { apiKey: 'ck_unknown' })).status).toBe(401);

    await sleep(retryAfter * 1_000 + 100);
    const again = await t.request('GET', '/groups', { apiKey: acme.apiKey });
    expect(again.status).toBe(200);
  });

  it('does not limit public routes (health)', async () => {
    for (let i = 0; i < 8; i++) expect((await t.request('GET', '/health')).status).toBe(200);
  });

  it('a refused request changes nothing', async () => {
    const limited = await t.newEnterprise('Limited');
    await startOfWindow(3_000);
    for (let i = 0; i < 5; i++) await t.request('GET', '/groups', { apiKey: limited.apiKey });
    const refused = await t.request('POST', '/groups', {
      apiKey: limited.apiKey,
      body: { groupName: 'Never created' },
    });
    expect(refused.status).toBe(429);
    const stored = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM groups WHERE name = $1`,
      ['Never created'],
    );
    expect(stored.rows[0].n).toBe(0);
  });

  // Last: it takes the limits' Redis connection away.
  it('lets requests through when Redis does not answer (fail open), still counting locally', async () => {
    const quiet = await t.newEnterprise('Quiet');
    await startOfWindow(3_000);
    t.app.get<{ disconnect(): void }>(RATE_LIMIT_REDIS).disconnect();
    const answers = [];
    for (let i = 0; i < 3; i++)
      answers.push(await t.request('GET', '/groups', { apiKey: quiet.apiKey }));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers.map((answer) => answer.headers.get('x-ratelimit-remaining'))).toEqual([
      '4',
      '3',
      '2',
    ]);
  });
});

/**
 * Two API processes share a key's budget. Each decides locally and learns the other's count at
 * its settles, so together they may let through a little more than the limit: at most about
 * 2 × P × N (P processes, N = ⌈limit / 100⌉ hits settled at once), plus requests that arrive
 * during a Redis round trip (README).
 */
describe('Rate limiting across two API processes', () => {
  const LIMIT = 400; // N = 4
  const WINDOW_MS = 600_000;
  let databaseName: string;
  let env: Record<string, string>;
  const apis: { process: RunningProcess; base: string }[] = [];

  beforeAll(async () => {
    databaseName = await createTestDatabase();
    env = serviceEnv(databaseName, {
      RUN_WORKERS: 'false',
      RATE_LIMIT_REQUESTS: String(LIMIT),
      RATE_LIMIT_WINDOW: '10m',
    });
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      apis.push({ process: await startService(env, port), base: `http://127.0.0.1:${port}` });
    }
  }, 60_000);
  afterAll(async () => {
    for (const api of apis) await api.process.stop();
    await dropDatabase(databaseName);
  });

  it('lets through at least the limit and at most the documented overshoot, then both refuse', async () => {
    const { apiKey } = await createEnterpriseWithCli(env, 'Shared');
    const db = new Client({ connectionString: databaseUrl(databaseName) });
    await db.connect();
    const counter = await rateLimitKeyOf(db, databaseName, apiKey).finally(() => db.end());
    if (WINDOW_MS - (Date.now() % WINDOW_MS) < 10_000) await startOfWindow(WINDOW_MS);
    const settles = await RateLimitSettles.watch(TEST_REDIS_URL, counter);
    const concurrency = 10;
    let admitted = 0;
    try {
      for (let sent = 0; sent < 2 * LIMIT; sent += concurrency) {
        const answers = await Promise.all(
          Array.from({ length: concurrency }, (_, i) =>
            request(apis[i % 2].base, 'GET', '/groups', { apiKey }),
          ),
        );
        for (const answer of answers) {
          if (answer.status === 200) admitted++;
          else
            expect(answer).toMatchObject({
              status: 429,
              body: { error: CommonErrors.TooManyRequests },
            });
        }
      }
      expect(admitted).toBeGreaterThanOrEqual(LIMIT);
      expect(admitted).toBeLessThanOrEqual(LIMIT + 2 * 2 * 4 + concurrency);
      // Both have settled every request they let through, and read the total back.
      await settles.quiet(admitted);
      expect(settles.sources).toHaveLength(2);
    } finally {
      settles.stop();
    }
    for (const api of apis) {
      const refused = await request(api.base, 'GET', '/groups', { apiKey });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  }, 60_000);
});
