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
import { eventually } from './support/webhook-receiver';

/**
 * Windows are fixed and aligned on the epoch (every process counts the same one): a window of W ms
 * ends at the next multiple of W. Tests that count requests in one window use a window of a
 * million hours, which began at the epoch and ends in 2084: no boundary falls in the middle of
 * them, and none waits for one. The end of a window is the behaviour of one test, which has the
 * shortest window the setting allows (1 s).
 */
const ONE_WINDOW = { setting: '1000000h', ms: 1_000_000 * 3_600_000 };

/** Retry-After at `time` in ONE_WINDOW: the seconds left to its end, rounded up. */
const secondsLeftAt = (time: number) => Math.ceil((ONE_WINDOW.ms - time) / 1_000);

/**
 * Per-API-key rate limiting (docs/api.md, docs/performance.md): counted in process, settled with Redis in batches,
 * every route of a key shares one budget.
 */
describe('Rate limiting', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let globex: TestEnterprise;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '5', RATE_LIMIT_WINDOW: ONE_WINDOW.setting });
    acme = await t.newEnterprise('Acme');
    globex = await t.newEnterprise('Globex');
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After once a key spends its budget, across routes', async () => {
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

    const sentAt = Date.now();
    const refused = await t.request('GET', '/groups', { apiKey: acme.apiKey });
    const answeredAt = Date.now();
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: CommonErrors.TooManyRequests });
    // The seconds to the window's end, as they were while the request was decided.
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(secondsLeftAt(answeredAt));
    expect(retryAfter).toBeLessThanOrEqual(secondsLeftAt(sentAt));

    // Another key has its own budget; requests without a valid key are 401 and count for nobody.
    expect((await t.request('GET', '/groups', { apiKey: globex.apiKey })).status).toBe(200);
    expect((await t.request('GET', '/groups', { apiKey: 'ck_unknown' })).status).toBe(401);
  });

  it('does not limit public routes (health)', async () => {
    for (let i = 0; i < 8; i++) expect((await t.request('GET', '/health')).status).toBe(200);
  });

  it('a refused request changes nothing', async () => {
    const limited = await t.newEnterprise('Limited');
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

/** The end of a window is the behaviour: the shortest window RATE_LIMIT_WINDOW allows, 1 s. */
describe('Rate limiting: the end of a window', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '1', RATE_LIMIT_WINDOW: '1s' });
  });
  afterAll(() => t.close());

  it('lets a refused key through again once its window ends, as Retry-After said', async () => {
    const { apiKey } = await t.newEnterprise('Recovering');
    const get = () => t.request('GET', '/groups', { apiKey });
    // Its one request, then refused (a boundary in between gives a new budget: then the next).
    let refused = await get();
    for (let sent = 1; refused.status === 200 && sent < 5; sent++) refused = await get();
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: CommonErrors.TooManyRequests });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBe(1);
    // Refused until the window ends, then let through: polled, so the wait ends with the window.
    await eventually(
      async () => expect((await get()).status).toBe(200),
      retryAfter * 1_000 + 1_000,
    );
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
  let databaseName: string;
  let env: Record<string, string>;
  const apis: { process: RunningProcess; base: string }[] = [];

  beforeAll(async () => {
    databaseName = await createTestDatabase();
    env = serviceEnv(databaseName, {
      RUN_WORKERS: 'false',
      RATE_LIMIT_REQUESTS: String(LIMIT),
      RATE_LIMIT_WINDOW: ONE_WINDOW.setting,
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
