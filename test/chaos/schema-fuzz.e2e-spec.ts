/**
 * Schema fuzz (docs/performance.md): thousands of generated malformed requests against every route the
 * API serves, authenticated, with hostile path parameters, query strings and bodies. None may be
 * answered 5xx, and every error must be the `{"error": "<message>"}` envelope.
 *
 * The participant pages (check-in, settings, unsubscribe) are fuzzed with working links as well
 * as broken ones, so requests get past the token into the handlers; and session creation is fed
 * hostile `userIdentifier` and `returnURL` values (docs/security.md), each accepted session then
 * completed by the engine and sent to `/done`.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LinkTokens } from '../../src/participant-links/link-tokens';
import { ParticipantLinks } from '../../src/participant-links/participant-links';
import { isPlainEmailAddress } from '../../src/common/validation/email-address';
import { normaliseReturnUrl } from '../../src/sessions/return-url';
import { SessionErrors } from '../../src/sessions/sessions.errors';
import { ENGINE_TOKEN, engineHeaders, postResult } from '../support/engine';
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

  // --- hostile strings, nesting and dates in otherwise valid bodies -------------------------

  it('refuses control characters in every string field of every operation, deep nesting and impossible dates, never 5xx', async () => {
    const HOSTILE_RUNS = 3_000;
    const document = JSON.parse(
      readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8'),
    ) as OpenApiDocument;
    const owner = await t.newEnterprise('Fuzzed strings');
    const target = await t.newGroup(owner, 'Hostile strings');
    const person = (await t.createSession(owner, target, 'strings@example.com'))
      .body as SessionCreated;
    const sandbox = await t.newEnterprise('Fuzzed sandbox', { sandbox: true });
    const sandboxGroup = await t.newGroup(sandbox, 'Hostile sandbox');
    const sandboxSession = (await t.createSession(sandbox, sandboxGroup, 'strings@example.com'))
      .body as SessionCreated;
    const webhook = (
      await t.request('POST', `/webhooks/${target.groupID}`, {
        apiKey: owner.apiKey,
        body: { url: 'https://hooks.example.com/fuzz', description: 'Fuzzed' },
      })
    ).body as { id: string };
    /** Every operation that takes a JSON body, with a valid body built from its examples. */
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => operation.requestBody)
        .map(([method, operation]) => ({
          method: method.toUpperCase(),
          path,
          example: exampleOf(
            document,
            operation.requestBody!.content['application/json'].schema,
          ) as Record<string, unknown>,
        })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(12);
    const url = (path: string) =>
      path
        .replace('{groupID}', String(target.groupID))
        .replace('{externalID}', person.userIdentifier)
        .replace('{webhookID}', webhook.id)
        .replace(
          '{sessionID}',
          path.startsWith('/sandbox/') ? sandboxSession.sessionID : person.sessionID,
        );
    /** Any C0 character or DEL, with at least one that no field takes (free text takes \t \n \r). */
    const controlCharacter = fc
      .constantFrom(...Array.from({ length: 0x20 }, (_, code) => code), 0x7f)
      .map((code) => String.fromCharCode(code));
    const neverAllowed = controlCharacter.filter((character) => !'\t\n\r'.includes(character));
    const hostileString = fc
      .tuple(
        fc.string({ maxLength: 10 }),
        fc.array(controlCharacter, { maxLength: 3 }),
        neverAllowed,
      )
      .map(([text, controls, forbidden]) => `${text}${controls.join('')}${forbidden}${text}`);
    const extremeDate = fc.oneof(
      fc.constantFrom(
        '0000-01-01T00:00:00Z',
        '-000001-01-01T00:00:00Z',
        '1999-12-31T23:59:59Z',
        '+275760-09-13T00:00:00Z',
        '9999-12-31T23:59:59.999999999Z',
        '2026-02-30T00:00:00Z',
        '2026-13-01T00:00:00Z',
      ),
      fc.integer({ min: -8.64e15, max: 8.64e15 }).map((time) => new Date(time).toISOString()),
    );
    const hostileBody = fc
      .tuple(
        fc.nat({ max: operations.length - 1 }),
        fc.nat(),
        fc.constantFrom('control', 'control', 'nesting', 'date'),
        hostileString,
        fc.integer({ min: 30, max: 20_000 }),
        extremeDate,
      )
      .map(([index, at, kind, text, depth, date]) => {
        const operation = operations[index];
        const body = structuredClone(operation.example);
        const fields = Object.keys(body);
        const field = fields[at % Math.max(fields.length, 1)] ?? 'x';
        let raw: string;
        let replaced: 'key' | 'value' | null = null;
        if (kind === 'control') {
          replaced = replaceAString(body, at, text);
          raw = JSON.stringify(body);
        } else if (kind === 'date')
          raw = JSON.stringify({ ...body, [field]: date, completedAt: date });
        else {
          const inner = JSON.stringify(body[field] ?? 1);
          raw = JSON.stringify({ ...body, [field]: '\u0000' }).replace(
            '"\\u0000"',
            '['.repeat(depth) + inner + ']'.repeat(depth),
          );
        }
        return { operation, raw, kind, depth, replaced };
      });
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(hostileBody, async ({ operation, raw, kind, depth, replaced }) => {
        const path = url(operation.path);
        const response = await t.request(operation.method, path, {
          apiKey: path.startsWith('/sandbox/') ? sandbox.apiKey : owner.apiKey,
          headers: path.startsWith('/internal/') ? engineHeaders() : {},
          rawBody: raw,
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const error = (response.body as { error?: unknown } | undefined)?.error;
        const deepEnough = kind === 'nesting' && depth + 1 > 32;
        if (
          response.status >= 500 ||
          (response.status >= 400 && typeof error !== 'string') ||
          (deepEnough && error !== 'Invalid JSON body') ||
          // A value with a control character is refused; a key is refused, or dropped as unknown.
          (replaced === 'value' && response.status < 400)
        ) {
          failures.push(
            `${operation.method} ${path} ${raw.slice(0, 160)} → ${response.status} ${response.text.slice(0, 120)}`,
          );
        }
        return true;
      }),
      { numRuns: HOSTILE_RUNS },
    );
    expect(failures.slice(0, 10)).toEqual([]);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(HOSTILE_RUNS / 2);
  }, 300_000);

  // --- the participant pages, with working links ------------------------------------------

  /** Strings a participant's browser (or a scanner, or an attacker) may send. */
  const nasty = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom(
      '',
      '0',
      '5',
      '-1',
      '1e3',
      '2.5',
      'on',
      'off',
      'true',
      'One-Click',
      '\u0000',
      'a\r\nSet-Cookie: x=1',
      'ü✓€',
      '\ud800',
      '__proto__',
      'x'.repeat(5000),
    ),
  );

  /** encodeURIComponent, or for a lone surrogate (which it refuses) its UTF-8 replacement. */
  const encode = (value: string): string => {
    try {
      return encodeURIComponent(value);
    } catch {
      return [...Buffer.from(value, 'utf8')]
        .map((byte) => `%${byte.toString(16).padStart(2, '0')}`)
        .join('');
    }
  };

  it('answers the participant pages, with working and broken links, never 5xx and always as HTML pages', async () => {
    const PAGE_RUNS = 2_000;
    const links = t.app.get(ParticipantLinks);
    const tokens = t.app.get(LinkTokens);
    /** Several participants (some groups ask for consent), their links and a browser each. */
    const people: { checkin: string; settings: string; unsubscribe: string[]; cookie: string }[] =
      [];
    // Groups of their own: the fuzz above may have deleted the shared one.
    const pagesOwner = await t.newEnterprise('Fuzzed pages');
    const plain = await t.newGroup(pagesOwner, 'Plain');
    const consenting = await t.newGroup(pagesOwner, 'Consenting');
    await t.request('PUT', `/groups/${consenting.groupID}`, {
      apiKey: pagesOwner.apiKey,
      body: { consentRequired: 'true' },
    });
    for (let n = 0; n < 12; n++) {
      const target = n % 2 === 0 ? plain : consenting;
      const created = (await t.createSession(pagesOwner, target, `page${n}@example.com`))
        .body as SessionCreated;
      const checkin = decodeURIComponent(
        new URL(created.redirectUrl).pathname.slice('/checkin/'.length),
      );
      const { rows } = await t.db.query<{ id: string }>(
        'SELECT id FROM participants WHERE external_id = $1',
        [created.userIdentifier],
      );
      const start = await fetch(`${t.baseUrl}/checkin/${encodeURIComponent(checkin)}/start`, {
        method: 'POST',
        redirect: 'manual',
      });
      // The identity and the device cookie (browser-binding.ts): the browser's own, both.
      const cookie = start.headers
        .getSetCookie()
        .map((setCookie) => setCookie.split(';')[0])
        .join('; ');
      const token = (url: string) => new URL(url).searchParams.get('token') as string;
      const membership = { participantId: rows[0].id, groupId: target.groupID, linkVersion: 0 };
      people.push({
        checkin,
        settings: token(links.settingsUrl(membership)),
        unsubscribe: ['checkinReminder', 'privacyRequest'].map((type) =>
          token(links.unsubscribeUrl(membership, type)),
        ),
        cookie,
      });
    }
    /** Broken links: cut, flipped, of another kind, expired, naming nothing, random. */
    const brokenToken = fc.oneof(
      fc
        .tuple(fc.constantFrom(...people.map((person) => person.checkin)), fc.nat())
        .map(([token, at]) => token.slice(0, at % token.length)),
      fc
        .tuple(fc.constantFrom(...people.map((person) => person.settings)), fc.nat())
        .map(([token, at]) => {
          const index = at % token.length;
          return `${token.slice(0, index)}${token[index] === 'A' ? 'B' : 'A'}${token.slice(index + 1)}`;
        }),
      fc.constantFrom(...people.flatMap((person) => [person.checkin, person.settings])),
      fc.constantFrom(...people.flatMap((person) => person.unsubscribe)),
      fc.constant(tokens.sign('checkin', 'ses_AAAAAAAAAAAAAAAAAAAAAAAA')),
      fc.constant(tokens.sign('settings', '00000000-0000-0000-0000-000000000000:1', Date.now(), 0)),
      fc.constant(
        tokens.sign('unsubscribe', '00000000-0000-0000-0000-000000000000:nope:1', Date.now(), 0),
      ),
      fc.constant(tokens.sign('checkin', 'ses_AAAAAAAAAAAAAAAAAAAAAAAB', Date.now() - 86_400_000)),
      nasty,
    );
    type LinkKind = 'checkin' | 'settings' | 'unsubscribe';
    const route = (method: 'GET' | 'POST', template: string, kind: LinkKind, weight = 4) => ({
      arbitrary: fc.constant({ method, template, kind }),
      weight,
    });
    const pageRoute = fc.oneof(
      route('GET', '/checkin/{t}', 'checkin'),
      route('POST', '/checkin/{t}/start', 'checkin'),
      route('POST', '/checkin/{t}/consent', 'checkin'),
      route('POST', '/checkin/{t}/privacy', 'checkin'),
      route('POST', '/checkin/{t}/preferences', 'checkin'),
      route('GET', '/checkin/{t}/done', 'checkin'),
      route('GET', '/participant/settings?token={t}', 'settings'),
      route('POST', '/participant/settings/privacy?token={t}', 'settings'),
      route('POST', '/participant/settings/preferences?token={t}', 'settings'),
      route('POST', '/participant/settings/consent/withdraw?token={t}', 'settings', 1),
      route('POST', '/participant/settings/export?token={t}', 'settings'),
      route('GET', '/participant/settings/delete?token={t}', 'settings'),
      // Withdrawal, sign-out and erasure end a participant's links: rarer, so that most requests
      // find a working one.
      route('POST', '/participant/settings/delete?token={t}', 'settings', 1),
      route('POST', '/participant/settings/sign-out?token={t}', 'settings', 1),
      route('GET', '/participant/unsubscribe?token={t}', 'unsubscribe'),
      route('POST', '/participant/unsubscribe?token={t}', 'unsubscribe'),
    );
    /** Mostly the participant's working link for the route, else a broken one or a raw escape. */
    const tokenChoice = fc.oneof(
      { arbitrary: fc.constant(null), weight: 6 },
      { arbitrary: brokenToken.map(encode), weight: 3 },
      {
        arbitrary: fc.constantFrom('%zz', '%E0%A4%A', '%00', '..%2F..%2Fgroups', '.', '%'),
        weight: 1,
      },
    );
    /** Mostly the participant's own browser, else another one, none, or a forged cookie. */
    const cookieChoice = fc.oneof(
      { arbitrary: fc.constant(null), weight: 6 },
      { arbitrary: fc.constantFrom('', ...people.map((person) => person.cookie)), weight: 2 },
      { arbitrary: nasty.map((value) => `checkin_browser=${encode(value)}`), weight: 2 },
    );
    const form = fc.oneof(
      fc
        .record(
          {
            privacyLevel: fc.constantFrom('0', '1', '2', '3', '4', '5'),
            checkinReminder: fc.constant('on'),
            privacyRequest: fc.constant('on'),
          },
          { requiredKeys: [] },
        )
        .map((fields) => new URLSearchParams(fields).toString()),
      fc
        .dictionary(
          fc.oneof(
            fc.constantFrom(
              'privacyLevel',
              'checkinReminder',
              'privacyRequest',
              'List-Unsubscribe',
            ),
            fc.string({ maxLength: 12 }),
          ),
          nasty,
          { maxKeys: 5 },
        )
        .map((fields) => new URLSearchParams(fields).toString()),
      nasty,
      fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)),
    );
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        pageRoute,
        fc.nat({ max: people.length - 1 }),
        fc.nat({ max: 1 }),
        tokenChoice,
        cookieChoice,
        form,
        fc.constantFrom(
          'application/x-www-form-urlencoded',
          'application/x-www-form-urlencoded',
          'application/x-www-form-urlencoded; charset=utf-8',
          'application/json',
          'text/plain',
          'multipart/form-data; boundary=x',
        ),
        fc.option(nasty, { freq: 4 }),
        async (
          { method, template, kind },
          who,
          emailType,
          brokenPath,
          otherCookie,
          payload,
          type,
          saved,
        ) => {
          const person = people[who];
          const working = kind === 'unsubscribe' ? person.unsubscribe[emailType] : person[kind];
          const token = brokenPath ?? encode(working);
          const cookie = otherCookie ?? person.cookie;
          const path =
            template.replace('{t}', token) +
            (saved === null ? '' : `${template.includes('?') ? '&' : '?'}saved=${encode(saved)}`);
          const response = await fetch(`${t.baseUrl}${path}`, {
            method,
            redirect: 'manual',
            headers: {
              ...(cookie ? { cookie } : {}),
              ...(method === 'POST' ? { 'content-type': type } : {}),
            },
            body: method === 'POST' ? payload : undefined,
          });
          await response.arrayBuffer();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          const contentType = response.headers.get('content-type') ?? '';
          const isPage =
            contentType === 'text/html; charset=utf-8' ||
            (response.status >= 300 && response.status < 400) ||
            (path.startsWith('/participant/settings/export') && response.status === 200);
          if (
            response.status >= 500 ||
            !isPage ||
            response.headers.get('x-frame-options') !== 'DENY' ||
            !response.headers.get('content-security-policy')
          ) {
            failures.push(`${method} ${path.slice(0, 200)} → ${response.status} ${contentType}`);
          }
          return true;
        },
      ),
      { numRuns: PAGE_RUNS },
    );
    expect(failures.slice(0, 10)).toEqual([]);
    // The fuzz gets past the token: pages, redirects after saving, and refusals of bad forms.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(PAGE_RUNS / 20);
    expect(statuses.get(303) ?? 0).toBeGreaterThan(PAGE_RUNS / 50);
    expect(statuses.get(404) ?? 0).toBeGreaterThan(PAGE_RUNS / 10);
  }, 300_000);

  // --- session creation with hostile identifiers and return URLs, then /done ----------------

  it('refuses or normalises hostile userIdentifier and returnURL values; /done never answers 5xx', async () => {
    const SESSION_RUNS = 400;
    // A group of its own (the first fuzz may have deleted the shared one), with one member.
    const owner = await t.newEnterprise('Fuzzed sessions');
    const target = await t.newGroup(owner, 'Hostile inputs');
    const member = (await t.createSession(owner, target, 'member@example.com'))
      .body as SessionCreated;
    const hostileEmail = fc.oneof(
      fc.emailAddress(),
      fc.emailAddress().map((email) => `Boss <${email}>`),
      fc.emailAddress().map((email) => `<${email}>`),
      fc.tuple(fc.emailAddress(), fc.emailAddress()).map(([a, b]) => `${a}, ${b}`),
      fc.tuple(fc.emailAddress(), fc.emailAddress()).map(([a, b]) => `team: ${a}, ${b};`),
      fc.emailAddress().map((email) => `${email} (boss)`),
      fc
        .tuple(
          fc.emailAddress(),
          fc.constantFrom('\n', '\r\n', '\u0000', '\t', '\u200b', ',', ';', ' '),
          fc.nat(),
        )
        .map(
          ([email, bad, at]) =>
            `${email.slice(0, at % email.length)}${bad}${email.slice(at % email.length)}`,
        ),
      fc.emailAddress().map((email) => `${email}\nBcc: eve@example.com`),
      fc.emailAddress().map((email) => email.replace('@', '@ü✓')),
      fc.constantFrom('a,b@c.d', 'ok_' + 'f'.repeat(48), member.userIdentifier, 'ok_\u0000'),
      nasty,
    );
    const hostileUrl = fc.oneof(
      fc.webUrl({ validSchemes: ['https'], withQueryParameters: true, withFragments: true }),
      fc
        .tuple(fc.webUrl({ validSchemes: ['https'] }), fc.string({ unit: 'binary', maxLength: 30 }))
        .map(([url, tail]) => `${url}/${tail}`),
      fc.string({ unit: 'binary', maxLength: 30 }).map((tail) => `https://app.example.com/${tail}`),
      fc.constantFrom(
        'https://app.example.com/ü✓',
        'https://app.example.com/€',
        'https://app.example.com/a\nb',
        'https://app.example.com/\u0000',
        'https://app.example.com/\r\nSet-Cookie: x=1',
        'https://198.18.0.1/',
        'https://240.0.0.1/',
        'https://255.255.255.255/',
        'https://[::127.0.0.1]/',
        'https://[::ffff:10.0.0.1]/',
        'https://[64:ff9b::7f00:1]/',
        'https://0x7f.1/',
        'https://bücher.example/ü',
        `https://app.example.com/${'€'.repeat(500)}`,
      ),
      nasty,
    );
    const accepted = new Set<string>([
      SessionErrors.IdentifierInvalid,
      SessionErrors.ReturnUrlNotHttps,
      SessionErrors.UserIdentifierNotString,
      SessionErrors.ReturnUrlNotString,
    ]);
    const failures: string[] = [];
    let created = 0;
    await fc.assert(
      fc.asyncProperty(
        hostileEmail,
        hostileUrl,
        fc.boolean(),
        async (identifier, returnURL, complete) => {
          const response = await t.request('POST', '/session/create', {
            apiKey: owner.apiKey,
            body: {
              groupID: target.groupID,
              groupKey: target.key,
              userIdentifier: identifier,
              returnURL,
            },
          });
          const label = `${JSON.stringify(identifier).slice(0, 80)} ${JSON.stringify(returnURL).slice(0, 80)}`;
          if (response.status !== 200) {
            const error = (response.body as { error?: string } | undefined)?.error ?? '';
            if (
              response.status !== 400 ||
              !(accepted.has(error) || error.startsWith('This user already exists'))
            ) {
              failures.push(`create ${label} → ${response.status} ${response.text.slice(0, 120)}`);
            }
            return true;
          }
          created += 1;
          const body = response.body as SessionCreated;
          if (!identifier.trim().startsWith('ok_') && !isPlainEmailAddress(identifier)) {
            failures.push(`create ${label} → 200 for an identifier that is not one plain address`);
          }
          const { rows } = await t.db.query<{ return_url: string }>(
            'SELECT return_url FROM sessions WHERE session_id = $1',
            [body.sessionID],
          );
          const stored = rows[0]?.return_url;
          if (
            stored !== normaliseReturnUrl(returnURL) ||
            !/^https:\/\/[\x21-\x7e]+$/.test(stored)
          ) {
            failures.push(`create ${label} → stored ${JSON.stringify(stored)}`);
          }
          if (complete) {
            const result = await postResult(t, body.sessionID, {
              version: 'v1.0.0',
              mhci: 50,
              subscores: { vision: 50, audio: 50, transcript: 50, assessment: 50 },
              transcript: [{ role: 'user', content: 'Fine.' }],
              features: { pitch: 0.5 },
            });
            if (result.status !== 200) failures.push(`result ${label} → ${result.status}`);
          }
          const done = await fetch(
            `${new URL(body.redirectUrl).pathname}/done`.replace(/^/, t.baseUrl),
            {
              redirect: 'manual',
            },
          );
          await done.arrayBuffer();
          const expected = complete ? 302 : 200;
          if (done.status !== expected || (complete && done.headers.get('location') !== stored)) {
            failures.push(`done ${label} → ${done.status} ${done.headers.get('location')}`);
          }
          return true;
        },
      ),
      { numRuns: SESSION_RUNS },
    );
    expect(failures.slice(0, 10)).toEqual([]);
    // Some hostile-looking values are fine (plain addresses, URLs that normalise).
    expect(created).toBeGreaterThan(SESSION_RUNS / 20);
  }, 300_000);
});

interface OpenApiSchema {
  $ref?: string;
  type?: string;
  example?: unknown;
  properties?: Record<string, OpenApiSchema>;
  allOf?: OpenApiSchema[];
  items?: OpenApiSchema;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<string, { requestBody?: { content: Record<string, { schema: OpenApiSchema }> } }>
  >;
  components: { schemas: Record<string, OpenApiSchema> };
}

/** A valid value for `schema`, from the document's examples (what the API documents as valid). */
function exampleOf(document: OpenApiDocument, schema: OpenApiSchema): unknown {
  if (schema.$ref)
    return exampleOf(document, document.components.schemas[schema.$ref.split('/').pop()!]);
  if (schema.example !== undefined) return schema.example;
  if (schema.allOf?.length) return exampleOf(document, schema.allOf[0]);
  if (schema.properties) {
    return Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => [
        name,
        exampleOf(document, property),
      ]),
    );
  }
  if (schema.type === 'array' && schema.items) return [exampleOf(document, schema.items)];
  return schema.type === 'string' ? 'x' : 1;
}

/**
 * Replaces one of the strings in `value` (a value or a key, chosen by `at`) by `text`, in place;
 * says which kind it replaced (null: `value` holds no string).
 */
function replaceAString(value: unknown, at: number, text: string): 'key' | 'value' | null {
  const slots: [kind: 'key' | 'value', replace: () => void][] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        if (typeof item === 'string') slots.push(['value', () => (node[i] = text)]);
        else walk(item);
      });
    } else if (node !== null && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      for (const [key, item] of Object.entries(record)) {
        slots.push([
          'key',
          () => {
            delete record[key];
            record[text] = item;
          },
        ]);
        if (typeof item === 'string') slots.push(['value', () => (record[key] = text)]);
        else walk(item);
      }
    }
  };
  walk(value);
  if (slots.length === 0) return null;
  const [kind, replace] = slots[at % slots.length];
  replace();
  return kind;
}
