import { pageHeaders } from '../src/pages/page-renderer';
import { renderPage } from '../src/pages/page-templates';
import { PAGE_ERRORS } from '../src/pages/pages.messages';
import { CommonErrors } from '../src/common/errors/common.errors';
import { RATE_LIMIT_REDIS } from '../src/common/rate-limit/rate-limit.module';
import { ENGINE_TOKEN, engineHeaders } from './support/engine';
import { HttpResult, startTestApp, TestApp, TestEnterprise } from './support/test-app';

/**
 * Limits per client address (docs/security.md): unauthenticated traffic (participant pages, unsubscribe,
 * ingestion) per PUBLIC_RATE_LIMIT_REQUESTS, and requests failing authentication per
 * AUTH_FAILURE_LIMIT, after which that address's failures are 429 while valid keys are still
 * served. Addresses are told
 * apart with X-Forwarded-For from a trusted proxy (TRUST_PROXY): the test client is that proxy.
 */

const TOO_MANY_REQUESTS = JSON.stringify({ error: CommonErrors.TooManyRequests });
const UNAUTHORIZED = JSON.stringify({ error: CommonErrors.Unauthorized });

/** A request as the proxy forwards it for `client`. */
const from = (client: string, headers: Record<string, string> = {}) => ({
  headers: { 'x-forwarded-for': client, ...headers },
});

/** PUBLIC_RATE_LIMIT_REQUESTS of the first app. */
const PUBLIC_LIMIT = 5;

const INGESTION_PATH = '/internal/sessions/ses_000000000000000000000000/result';
const RESULT = { mhci: 50 };

function expectRetryAfter(response: HttpResult): void {
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

/** 429, the JSON envelope byte for byte, and Retry-After. */
function expectJson429(response: HttpResult): void {
  expect({ status: response.status, text: response.text }).toEqual({
    status: 429,
    text: TOO_MANY_REQUESTS,
  });
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expectRetryAfter(response);
}

/** 429 as the pages' error page: the one template, every page header, and Retry-After. */
/** `url`: the page's address when it was a GET (its language switcher links to it), else null. */
function expectPage429(t: TestApp, response: HttpResult, url: string | null): void {
  expect(response.status).toBe(429);
  expect(response.text).toBe(
    renderPage(
      'error',
      { ...PAGE_ERRORS['too-many-requests'], backHref: null },
      { locale: 'en', url },
    ),
  );
  for (const [name, value] of Object.entries(pageHeaders(t.config.checkin.engineUrl))) {
    expect({ name, value: response.headers.get(name) }).toEqual({ name, value });
  }
  expectRetryAfter(response);
}

const statuses = (responses: HttpResult[]) => responses.map((response) => response.status);

async function repeat(times: number, send: () => Promise<HttpResult>): Promise<HttpResult[]> {
  const responses: HttpResult[] = [];
  for (let i = 0; i < times; i++) responses.push(await send());
  return responses;
}

/** `/checkin/:token/consent` → a path that reaches the route (its token is nonsense). */
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, 'x');

describe('Limits per client address', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  const routes: { method: string; url: string }[] = [];

  beforeAll(async () => {
    t = await startTestApp(
      {
        PUBLIC_RATE_LIMIT_REQUESTS: String(PUBLIC_LIMIT),
        AUTH_FAILURE_LIMIT: '2',
        TRUST_PROXY: '127.0.0.1',
        ENGINE_TOKEN,
      },
      {
        onRoute: (route) => {
          for (const method of [route.method].flat()) routes.push({ method, url: route.url });
        },
      },
    );
    acme = await t.newEnterprise('Acme');
  });
  afterAll(() => t.close());

  describe('participant pages and ingestion (PUBLIC_RATE_LIMIT_REQUESTS)', () => {
    it('answers pages 429 as an HTML page with the page headers and Retry-After past the limit', async () => {
      const client = '198.51.100.1';
      const pages = await repeat(PUBLIC_LIMIT, () =>
        t.request('GET', '/checkin/no-such-token', from(client)),
      );
      expect(statuses(pages)).toEqual(Array(PUBLIC_LIMIT).fill(404));
      expectPage429(
        t,
        await t.request('GET', '/checkin/no-such-token', from(client)),
        '/checkin/no-such-token',
      );
      // One budget per address, over every page: settings and unsubscribe are refused as well,
      // through the pages' error rendering.
      expectPage429(
        t,
        await t.request('GET', '/participant/settings?token=x', from(client)),
        '/participant/settings?token=x',
      );
      expectPage429(
        t,
        await t.request('GET', '/participant/unsubscribe?token=x', from(client)),
        '/participant/unsubscribe?token=x',
      );
      expectPage429(
        t,
        await t.request('POST', '/participant/unsubscribe?token=x', from(client)),
        null,
      );
    });

    it('ingestion: the engine (its own token) is not counted; anyone else is refused with the JSON envelope', async () => {
      const engine = from('198.51.100.2', engineHeaders());
      const answers = await repeat(PUBLIC_LIMIT * 2, () =>
        t.request('POST', INGESTION_PATH, { ...engine, body: RESULT }),
      );
      expect(statuses(answers)).not.toContain(429);
      // Without the token: the limits per address apply (here the stricter failure limit).
      const stranger = from('198.51.100.2');
      const refused = await repeat(PUBLIC_LIMIT, () =>
        t.request('POST', INGESTION_PATH, { ...stranger, body: RESULT }),
      );
      expect(statuses(refused)).toContain(429);
      expectJson429(await t.request('POST', INGESTION_PATH, { ...stranger, body: RESULT }));
    });

    it('counts each address on its own, and never limits /health or the enterprise API', async () => {
      const limited = '198.51.100.3';
      await repeat(PUBLIC_LIMIT, () => t.request('GET', '/checkin/x', from(limited)));
      expect((await t.request('GET', '/checkin/x', from(limited))).status).toBe(429);
      expect((await t.request('GET', '/checkin/x', from('198.51.100.4'))).status).toBe(404);
      const health = await repeat(6, () => t.request('GET', '/health', from(limited)));
      expect(statuses(health)).toEqual([200, 200, 200, 200, 200, 200]);
      const api = await repeat(6, () =>
        t.request('GET', '/groups', { ...from(limited), apiKey: acme.apiKey }),
      );
      expect(statuses(api)).toEqual([200, 200, 200, 200, 200, 200]);
    });

    it('limits every route under /checkin/, /participant/ and /internal/ (secure by default)', async () => {
      const publicRoutes = routes.filter(
        ({ method, url }) => method !== 'HEAD' && /^\/(checkin|participant|internal)\//.test(url),
      );
      expect(publicRoutes.map(({ method, url }) => `${method} ${url}`)).toEqual(
        expect.arrayContaining([
          'GET /checkin/:token',
          'GET /participant/settings',
          'GET /participant/unsubscribe',
          'POST /participant/unsubscribe',
          'POST /internal/sessions/:sessionID/result',
        ]),
      );
      const unlimited: string[] = [];
      for (const [index, { method, url }] of publicRoutes.entries()) {
        const client = `203.0.113.${index + 1}`;
        // No engine token: a request presenting it is the engine, which is not counted.
        const send = () => t.request(method, concrete(url), from(client));
        await repeat(PUBLIC_LIMIT, send);
        const refused = await send();
        if (refused.status !== 429 || !refused.headers.get('retry-after')) {
          unlimited.push(`${method} ${url} → ${refused.status}`);
        }
      }
      expect(unlimited).toEqual([]);
    });
  });

  describe('authentication failures (AUTH_FAILURE_LIMIT)', () => {
    it('answers failures 429 past the limit, and still serves every valid key from that address (another tenant behind the same proxy)', async () => {
      const sharedProxy = '198.51.100.10';
      const other = await t.newEnterprise('Other tenant');
      const failures = [
        await t.request('GET', '/groups', from(sharedProxy)),
        await t.request('GET', '/groups', { ...from(sharedProxy), apiKey: `ck_${'A'.repeat(40)}` }),
      ];
      expect(failures.map((response) => [response.status, response.text])).toEqual([
        [401, UNAUTHORIZED],
        [401, UNAUTHORIZED],
      ]);
      // The failure that goes over the limit is already refused as too many, and so are the next.
      for (const key of [`ck_${'B'.repeat(40)}`, 'not-a-key', `ck_${'C'.repeat(40)}`]) {
        expectJson429(await t.request('GET', '/groups', { ...from(sharedProxy), apiKey: key }));
      }
      // Valid keys from the same address, of both tenants, are served: only failures are limited.
      for (const enterprise of [acme, other]) {
        const served = await repeat(5, () =>
          t.request('GET', '/groups', { ...from(sharedProxy), apiKey: enterprise.apiKey }),
        );
        expect(statuses(served)).toEqual([200, 200, 200, 200, 200]);
      }
      const created = await t.request('POST', '/groups', {
        ...from(sharedProxy),
        apiKey: other.apiKey,
        body: { groupName: 'Created behind the proxy' },
      });
      expect(created.status).toBe(200);
      // ... while the address's failures are still refused as too many.
      expectJson429(await t.request('GET', '/groups', from(sharedProxy)));
    });

    it('counts refused engine tokens too, and then refuses the address on the API and ingestion', async () => {
      const attacker = '198.51.100.12';
      const refused = await repeat(2, () =>
        t.request('POST', INGESTION_PATH, {
          ...from(attacker, engineHeaders('wrong')),
          body: RESULT,
        }),
      );
      expect(refused.map((response) => [response.status, response.text])).toEqual([
        [401, UNAUTHORIZED],
        [401, UNAUTHORIZED],
      ]);
      expectJson429(
        await t.request('POST', INGESTION_PATH, {
          ...from(attacker, engineHeaders('wrong')),
          body: RESULT,
        }),
      );
      // The engine's own token from that address is still accepted, and so is a valid API key;
      // a wrong API key is refused as too many (one failure budget per address).
      const engine = await t.request('POST', INGESTION_PATH, {
        ...from(attacker, engineHeaders()),
        body: RESULT,
      });
      expect(engine.status).not.toBe(429);
      expect(engine.status).not.toBe(401);
      expect(
        (await t.request('GET', '/groups', { ...from(attacker), apiKey: acme.apiKey })).status,
      ).toBe(200);
      expectJson429(await t.request('GET', '/groups', { ...from(attacker), apiKey: 'ck_wrong' }));
      // Participant pages are not API requests: they keep their own limit only.
      expect((await t.request('GET', '/checkin/x', from(attacker))).status).toBe(404);
    });
  });

  it('lets requests through when Redis does not answer (fail open)', async () => {
    t.app.get<{ disconnect(): void }>(RATE_LIMIT_REDIS).disconnect();
    const client = '198.51.100.20';
    const pages = await repeat(8, () => t.request('GET', '/checkin/x', from(client)));
    expect(statuses(pages)).toEqual(Array(8).fill(404));
    const failures = await repeat(5, () => t.request('GET', '/groups', from(client)));
    expect(statuses(failures)).toEqual(Array(5).fill(401));
    const valid = await t.request('GET', '/groups', { ...from(client), apiKey: acme.apiKey });
    expect(valid.status).toBe(200);
  });
});

describe('Limits per client address: without TRUST_PROXY, or turned off', () => {
  let t: TestApp;
  let acme: TestEnterprise;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_RATE_LIMIT_REQUESTS: '3', AUTH_FAILURE_LIMIT: '0' });
    acme = await t.newEnterprise('Acme');
  });
  afterAll(() => t.close());

  it('ignores X-Forwarded-For from an untrusted peer: every request is the peer', async () => {
    const pages = await repeat(3, () =>
      t.request('GET', '/checkin/x', from(`198.51.100.${Math.floor(Math.random() * 200) + 1}`)),
    );
    expect(statuses(pages)).toEqual([404, 404, 404]);
    expectPage429(t, await t.request('GET', '/checkin/x', from('192.0.2.77')), '/checkin/x');
  });

  it('AUTH_FAILURE_LIMIT=0: wrong keys stay 401 and a valid key works', async () => {
    const failures = await repeat(10, () => t.request('GET', '/groups', { apiKey: 'ck_wrong' }));
    expect(statuses(failures)).toEqual(Array(10).fill(401));
    expect((await t.request('GET', '/groups', { apiKey: acme.apiKey })).status).toBe(200);
  });
});

describe('Limits per client address: a number of proxies, and PUBLIC_RATE_LIMIT_REQUESTS=0', () => {
  let t: TestApp;
  let acme: TestEnterprise;

  beforeAll(async () => {
    t = await startTestApp({
      PUBLIC_RATE_LIMIT_REQUESTS: '0',
      AUTH_FAILURE_LIMIT: '2',
      TRUST_PROXY: '1',
      ENGINE_TOKEN,
    });
    acme = await t.newEnterprise('Acme');
  });
  afterAll(() => t.close());

  it('PUBLIC_RATE_LIMIT_REQUESTS=0: pages and ingestion are not limited', async () => {
    const pages = await repeat(10, () => t.request('GET', '/checkin/x', from('198.51.100.1')));
    expect(statuses(pages)).toEqual(Array(10).fill(404));
    const results = await repeat(10, () =>
      t.request('POST', INGESTION_PATH, { ...from('198.51.100.1', engineHeaders()), body: RESULT }),
    );
    expect(statuses(results)).not.toContain(429);
  });

  it('TRUST_PROXY=1: the client is the address our one proxy saw (the last forwarded one)', async () => {
    // What a client puts in X-Forwarded-For itself comes before what the proxy appends.
    const spoofing = (spoofed: string) => from(`${spoofed}, 198.51.100.30`);
    await t.request('GET', '/groups', spoofing('192.0.2.1'));
    await t.request('GET', '/groups', spoofing('192.0.2.2'));
    expectJson429(await t.request('GET', '/groups', spoofing('192.0.2.3')));
    expectJson429(await t.request('GET', '/groups', from('198.51.100.30')));
    // Its valid key is still served: only failures are limited.
    const valid = await t.request('GET', '/groups', {
      ...from('198.51.100.30'),
      apiKey: acme.apiKey,
    });
    expect(valid.status).toBe(200);
    // Another client behind the same proxy has its own failure budget.
    const other = await t.request('GET', '/groups', from('198.51.100.30, 198.51.100.31'));
    expect(other.status).toBe(401);
  });
});

describe('Limits per client address: several API processes', () => {
  let first: TestApp;
  let second: TestApp;
  let acmeOnSecond: TestEnterprise;

  beforeAll(async () => {
    const env = {
      PUBLIC_RATE_LIMIT_REQUESTS: '4',
      AUTH_FAILURE_LIMIT: '2',
      TRUST_PROXY: '127.0.0.1',
    };
    first = await startTestApp(env);
    // Another API process of the same deployment: the same Redis counters.
    second = await startTestApp({ ...env, QUEUE_PREFIX: first.config.redis.queuePrefix });
    acmeOnSecond = await second.newEnterprise('Acme');
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('share the page budget of an address', async () => {
    const client = from('198.51.100.40');
    await repeat(2, () => first.request('GET', '/checkin/x', client));
    await repeat(2, () => second.request('GET', '/checkin/x', client));
    expectPage429(first, await first.request('GET', '/checkin/x', client), '/checkin/x');
    expectPage429(second, await second.request('GET', '/checkin/x', client), '/checkin/x');
  });

  it('share authentication failures; a process learns of a block at the next failure it sees', async () => {
    const attacker = from('198.51.100.41');
    await repeat(2, () => first.request('GET', '/groups', attacker));
    expectJson429(await first.request('GET', '/groups', attacker));
    // The second process has seen no failure from this address yet; its first one, Redis answers
    // "blocked". A valid key passes on both, before and after.
    const valid = { ...attacker, apiKey: acmeOnSecond.apiKey };
    expect((await second.request('GET', '/groups', valid)).status).toBe(200);
    expectJson429(await second.request('GET', '/groups', attacker));
    expect((await second.request('GET', '/groups', valid)).status).toBe(200);
  });
});
