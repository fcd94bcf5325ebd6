import { CommonErrors } from '../src/common/errors/common.errors';
import { EnterprisesService } from '../src/enterprises/enterprises.service';
import { startTestApp, TestApp } from './support/test-app';

const UNAUTHORIZED = { error: CommonErrors.Unauthorized };

/**
 * Routes that are public on purpose. Anything else must demand an API key. The pages among them
 * (and the ingestion endpoint) are limited per client address, /health and /docs are not
 * (test/address-limits.e2e-spec.ts).
 */
const PUBLIC_ROUTES = [
  /^\/health$/,
  /^\/docs(\/.*|-json|-yaml)?$/,
  // Participant pages: the signed token in the address is the credential (CheckinPagesModule).
  /^\/checkin(\/:token(\/(start|consent|privacy|preferences|choices|handoff|declined|done))?)?$/,
  // The engine's confirm step: the hand-off token and the browser's cookie are the credential.
  /^\/checkin\/confirm$/,
  /^\/participant\/settings(\/(privacy|preferences|choices|consent\/withdraw|export|delete|sign-out))?$/,
  // One-click unsubscribe links in emails: the signed token is the credential (CheckinPagesModule).
  /^\/participant\/unsubscribe$/,
];

interface Route {
  method: string;
  url: string;
}

const concrete = (url: string) =>
  url
    .replace(/:groupID/g, '1')
    .replace(/:[A-Za-z]+/g, 'x')
    .replace(/\*/g, 'x');

describe('Authentication', () => {
  let t: TestApp;
  const routes: Route[] = [];

  beforeAll(async () => {
    t = await startTestApp(
      { API_KEY_CACHE_TTL_MS: '0' },
      {
        onRoute: (route) => {
          for (const method of [route.method].flat()) routes.push({ method, url: route.url });
        },
      },
    );
  });
  afterAll(() => t.close());

  const guarded = () =>
    routes.filter(
      (route) =>
        route.method !== 'HEAD' && !PUBLIC_ROUTES.some((pattern) => pattern.test(route.url)),
    );

  it('knows every route the API serves (sanity check of the walk)', () => {
    const listed = guarded().map((route) => `${route.method} ${route.url}`);
    expect(listed).toEqual(
      expect.arrayContaining([
        'GET /groups',
        'POST /groups',
        'PUT /groups/:groupID',
        'DELETE /groups/:groupID',
        'GET /groups/:groupID/participants',
        'GET /groups//participants',
      ]),
    );
  });

  it('answers 401 {"error":"Unauthorized"} on every non-public route without a key', async () => {
    const failures: string[] = [];
    for (const route of guarded()) {
      const response = await t.request(route.method, concrete(route.url));
      if (response.status !== 401 || response.text !== JSON.stringify(UNAUTHORIZED)) {
        failures.push(`${route.method} ${route.url} → ${response.status} ${response.text}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers 401 for an unknown key, a malformed key and an empty key, on every route', async () => {
    const failures: string[] = [];
    for (const apiKey of [`ck_${'A'.repeat(40)}`, 'not-a-key', '', 'x'.repeat(5000)]) {
      for (const route of guarded()) {
        const response = await t.request(route.method, concrete(route.url), { apiKey });
        if (response.status !== 401)
          failures.push(`${route.method} ${route.url} (${apiKey.slice(0, 8)})`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('authenticates before any validation: bad paths and bodies still answer 401', async () => {
    for (const [method, path, rawBody] of [
      ['POST', '/groups', '{"groupName":'],
      ['POST', '/groups', '{}'],
      ['PUT', '/groups/abc', '{"groupName":5}'],
      ['DELETE', '/groups/', undefined],
      ['GET', '/groups//participants', undefined],
    ] as const) {
      const response = await t.request(method, path, { rawBody });
      expect({ method, path, status: response.status, body: response.body }).toEqual({
        method,
        path,
        status: 401,
        body: UNAUTHORIZED,
      });
    }
  });

  it('accepts a valid key and rejects it once revoked', async () => {
    const enterprise = await t.newEnterprise('Revoker');
    expect((await t.request('GET', '/groups', { apiKey: enterprise.apiKey })).status).toBe(200);
    await t.app.get(EnterprisesService).revokeApiKey(enterprise.apiKey.slice(0, 11));
    const response = await t.request('GET', '/groups', { apiKey: enterprise.apiKey });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(UNAUTHORIZED);
  });
});

describe('Authentication cache', () => {
  // The TTL is the behaviour, shortened through its setting to 1 ms, the shortest that keeps
  // the cache on (0 turns it off): the request that follows the revocation comes after it.
  const TTL_MS = 1;
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ API_KEY_CACHE_TTL_MS: String(TTL_MS) });
  });
  afterAll(() => t.close());

  it('a revocation takes effect within the cache TTL', async () => {
    const enterprise = await t.newEnterprise('Cached');
    expect((await t.request('GET', '/groups', { apiKey: enterprise.apiKey })).status).toBe(200);
    // The key's answer was cached before this (the cache reads performance.now(), in steps of
    // 1 ms): once the clock is past it by the TTL and a step, the entry has expired.
    const cachedBy = performance.now();
    await t.app.get(EnterprisesService).revokeApiKey(enterprise.apiKey.slice(0, 11));
    while (performance.now() <= cachedBy + TTL_MS + 1) await new Promise(setImmediate);
    expect((await t.request('GET', '/groups', { apiKey: enterprise.apiKey })).status).toBe(401);
  });
});
