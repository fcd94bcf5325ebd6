import { CommonErrors } from '../src/common/errors/common.errors';
import { startTestApp, TestApp, TestEnterprise } from './support/test-app';
import { sleep } from './support/webhook-receiver';

/** Per-API-key rate limiting (DESIGN §5): Redis-backed, every route of a key shares one budget. */
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
});
