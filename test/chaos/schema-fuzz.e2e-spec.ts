/**
 * Schema fuzz (DESIGN §12): thousands of generated malformed requests against every route the
 * API serves, authenticated, with hostile path parameters, query strings and bodies. None may be
 * answered 5xx, and every error must be the `{"error": "<message>"}` envelope.
 */
import fc from 'fast-check';
import { ENGINE_TOKEN, engineHeaders } from '../support/engine';
import {
  SessionCreated,
  startTestApp,
  TestApp,
  TestEnterprise,
  TestGroup,
} from '../support/test-app';

const RUNS = 5_000;

interface Route {
  method: string;
  url: string;
}

describe('Schema fuzz', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let group: TestGroup;
  let session: SessionCreated;
  const routes: Route[] = [];

  beforeAll(async () => {
    t = await startTestApp(
      { ENGINE_TOKEN, LOG_LEVEL: 'silent' },
      {
        onRoute: (route) => {
          for (const method of [route.method].flat()) {
            if (method !== 'HEAD' && !route.url.startsWith('/docs'))
              routes.push({ method, url: route.url });
          }
        },
      },
    );
    acme = await t.newEnterprise('Fuzz');
    group = await t.newGroup(acme, 'Fuzzed');
    session = (await t.createSession(acme, group, 'fuzz@example.com')).body as SessionCreated;
  });
  afterAll(() => t.close());

  /** A path parameter: a valid id, or something hostile. */
  const parameter = (name: string) =>
    fc.oneof(
      fc.constant(
        name === 'groupID'
          ? String(group.groupID)
          : name === 'externalID'
            ? session.userIdentifier
            : name === 'sessionID'
              ? session.sessionID
              : 'x',
      ),
      fc.string({ maxLength: 40 }).map((value) => encodeURIComponent(value)),
      fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
      fc.constantFrom(
        '0',
        '-1',
        '1.5',
        '1e309',
        'NaN',
        '%00',
        '%2F',
        '..',
        'ok_' + 'f'.repeat(48),
        'ses_' + 'A'.repeat(24),
      ),
    );

  const body = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
    fc
      .record(
        {
          groupName: fc.anything(),
          groupID: fc.anything(),
          groupKey: fc.anything(),
          userIdentifier: fc.anything(),
          returnURL: fc.anything(),
          requestedPrivacyLevel: fc.anything(),
          emailType: fc.anything(),
          url: fc.anything(),
          description: fc.anything(),
          status: fc.anything(),
          consentRequired: fc.anything(),
          mhci: fc.anything(),
          version: fc.anything(),
        },
        { requiredKeys: [] },
      )
      .map((value) => JSON.stringify(value) ?? '{}'),
    fc.string({ maxLength: 200 }),
    fc.constantFrom('', '{', '[]', 'null', '{"__proto__":{"x":1}}', '{"a":'.repeat(50)),
  );

  const query = fc.oneof(
    fc.constant(''),
    fc
      .record(
        {
          from: fc.oneof(
            fc.string({ maxLength: 12 }),
            fc.constant('2026-02-30'),
            fc.date().map((d) => (Number.isNaN(d.getTime()) ? 'x' : d.toISOString().slice(0, 10))),
          ),
          to: fc.string({ maxLength: 12 }),
          groupBy: fc.oneof(fc.constantFrom('day', 'week', 'month'), fc.string({ maxLength: 8 })),
          top: fc.oneof(fc.integer().map(String), fc.string({ maxLength: 6 })),
          token: fc.string({ maxLength: 60 }),
        },
        { requiredKeys: [] },
      )
      .map((params) => `?${new URLSearchParams(params as Record<string, string>).toString()}`),
  );

  const contentType = fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
  );

  it(`answers ${RUNS} malformed requests without a single 5xx, errors always in the envelope`, async () => {
    expect(routes.length).toBeGreaterThan(30);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: routes.length - 1 }),
        fc.dictionary(
          fc.constantFrom(
            'groupID',
            'externalID',
            'sessionID',
            'webhookID',
            'deliveryID',
            'metric',
            'token',
          ),
          fc.constant(0),
        ),
        fc.tuple(
          parameter('groupID'),
          parameter('externalID'),
          parameter('sessionID'),
          parameter('other'),
        ),
        body,
        query,
        contentType,
        async (index, _unused, [groupID, externalID, sessionID, other], payload, search, type) => {
          const route = routes[index];
          const path = route.url
            .replace(':groupID', groupID)
            .replace(':externalID', externalID)
            .replace(':sessionID', sessionID)
            .replace(/:[A-Za-z]+/g, other);
          const isIngestion = path.startsWith('/internal/');
          const response = await t.request(route.method, `${path}${search}`, {
            apiKey: acme.apiKey,
            headers: isIngestion ? engineHeaders() : {},
            rawBody: route.method === 'GET' ? undefined : payload,
            contentType: type,
          });
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          const isHtml = (response.headers.get('content-type') ?? '').startsWith('text/html');
          const envelopeOk =
            response.status < 400 ||
            isHtml ||
            (typeof response.body === 'object' &&
              response.body !== null &&
              Object.keys(response.body).length === 1 &&
              typeof (response.body as { error?: unknown }).error === 'string');
          if (response.status >= 500 || !envelopeOk) {
            failures.push(
              `${route.method} ${path}${search} → ${response.status} ${response.text.slice(0, 200)}`,
            );
          }
          return true;
        },
      ),
      { numRuns: RUNS },
    );
    expect(failures.slice(0, 10)).toEqual([]);
    // The fuzz reaches the handlers: most answers are validation errors, some succeed.
    expect(statuses.get(400) ?? 0).toBeGreaterThan(RUNS / 4);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(50);
  }, 300_000);
});
