/**
 * Hostile input (docs/security.md, "Hostile input"): control characters in every string field of
 * every operation that takes a body, JSON nested deeper than 32 levels, and impossible completion
 * times are refused with a 400 in the envelope (the field's own message where it has one, else
 * `<field> must not contain control characters`), and change nothing. Free text (a webhook's
 * description, a transcript's turns) keeps tab and line breaks.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CommonErrors } from '../src/common/errors/common.errors';
import { IngestionErrors } from '../src/ingestion/ingestion.errors';
import { GroupErrors } from '../src/groups/groups.errors';
import { InteractErrors } from '../src/interact/interact.errors';
import { PrivacyErrors } from '../src/privacy/privacy.errors';
import { SessionErrors } from '../src/sessions/sessions.errors';
import { WebhookErrors } from '../src/webhooks/webhooks.errors';
import { ENGINE_TOKEN, engineHeaders, engineResult, postResult, userSays } from './support/engine';
import {
  SessionCreated,
  startTestApp,
  TestApp,
  TestEnterprise,
  TestGroup,
} from './support/test-app';

const control = (field: string) => `${field} must not contain control characters`;

/** NUL, another C0 character, DEL; and tab / line feed / carriage return, free text's only ones. */
const FORBIDDEN_EVERYWHERE = ['\u0000', '\u0001', '\u001b', '\u007f'];
const LINE_CHARACTERS = ['\t', '\n', '\r'];

/** `{"a":{"a":…}}` nested `depth` deep, around `inner`. */
const nested = (depth: number, inner = '1') => '{"a":'.repeat(depth) + inner + '}'.repeat(depth);

describe('Hostile input', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let sandbox: TestEnterprise;
  let group: TestGroup;
  let sandboxGroup: TestGroup;
  let member: SessionCreated;
  let sandboxMember: SessionCreated;
  let webhookId: string;

  beforeAll(async () => {
    t = await startTestApp({ ENGINE_TOKEN });
    acme = await t.newEnterprise('Hostile');
    sandbox = await t.newEnterprise('Hostile sandbox', { sandbox: true });
    group = await t.newGroup(acme, 'Targets');
    sandboxGroup = await t.newGroup(sandbox, 'Sandboxed');
    member = (await t.createSession(acme, group, 'member@example.com')).body as SessionCreated;
    sandboxMember = (await t.createSession(sandbox, sandboxGroup, 'member@example.com'))
      .body as SessionCreated;
    const webhook = await t.request('POST', `/webhooks/${group.groupID}`, {
      apiKey: acme.apiKey,
      body: { url: 'https://hooks.example.com/in', description: 'Receiver' },
    });
    webhookId = (webhook.body as { id: string }).id;
  });
  afterAll(() => t.close());

  /** Everything a refused request could have changed, read straight from the tables. */
  const snapshot = async () => {
    const { rows } = await t.db.query<Record<string, string>>(
      `SELECT (SELECT count(*) FROM groups) AS groups,
              (SELECT string_agg(name || ':' || consent_required, ',' ORDER BY group_id) FROM groups) AS names,
              (SELECT count(*) FROM sessions) AS sessions,
              (SELECT count(*) FROM sessions WHERE completed_at IS NOT NULL) AS completed,
              (SELECT count(*) FROM participants) AS participants,
              (SELECT string_agg(url || description || status, ',' ORDER BY id) FROM webhook_endpoints) AS webhooks,
              (SELECT count(*) FROM webhook_deliveries) AS deliveries,
              (SELECT count(*) FROM email_messages) AS emails`,
    );
    return rows[0];
  };

  /** A fresh session of an existing member's (no new participant, no event), not completed. */
  const openSession = async (sandboxed = false) => {
    const [enterprise, target, who] = sandboxed
      ? [sandbox, sandboxGroup, sandboxMember]
      : [acme, group, member];
    const created = await t.createSession(enterprise, target, who.userIdentifier);
    return (created.body as SessionCreated).sessionID;
  };

  interface Case {
    name: string;
    method: string;
    path: () => Promise<string> | string;
    body: (value: string) => unknown;
    /** The answer to a value with a control character; free text fields say which ones pass. */
    expected: string;
    freeText?: boolean;
    engine?: boolean;
    apiKey?: () => string;
  }

  const result = (overrides: Record<string, unknown>) => ({ ...engineResult(), ...overrides });

  const cases: Case[] = [
    {
      name: 'POST /groups groupName',
      method: 'POST',
      path: () => '/groups',
      body: (v) => ({ groupName: `Night${v}shift` }),
      expected: control('groupName'),
    },
    {
      name: 'PUT /groups/{groupID} groupName',
      method: 'PUT',
      path: () => `/groups/${group.groupID}`,
      body: (v) => ({ groupName: `Day${v}shift` }),
      expected: control('groupName'),
    },
    {
      name: 'PUT /groups/{groupID} consentRequired',
      method: 'PUT',
      path: () => `/groups/${group.groupID}`,
      body: (v) => ({ consentRequired: `true${v}` }),
      expected: GroupErrors.ConsentRequiredInvalid,
    },
    {
      name: 'POST /session/create groupKey',
      method: 'POST',
      path: () => '/session/create',
      body: (v) => ({
        groupID: group.groupID,
        groupKey: `${group.key}${v}`,
        userIdentifier: 'new@example.com',
        returnURL: 'https://app.example.com/done',
      }),
      expected: SessionErrors.InvalidGroupKey,
    },
    {
      name: 'POST /session/create userIdentifier',
      method: 'POST',
      path: () => '/session/create',
      body: (v) => ({
        groupID: group.groupID,
        groupKey: group.key,
        userIdentifier: `new${v}@example.com`,
        returnURL: 'https://app.example.com/done',
      }),
      expected: SessionErrors.IdentifierInvalid,
    },
    {
      name: 'POST /session/create returnURL',
      method: 'POST',
      path: () => '/session/create',
      body: (v) => ({
        groupID: group.groupID,
        groupKey: group.key,
        userIdentifier: 'new@example.com',
        returnURL: `https://app.example.com/do${v}ne`,
      }),
      expected: SessionErrors.ReturnUrlNotHttps,
    },
    ...(['groups', 'participants'] as const).map((kind): Case => ({
      name: `POST /configure/${kind}/{id}/privacy requestedPrivacyLevel`,
      method: 'POST',
      path: () =>
        `/configure/${kind}/${kind === 'groups' ? group.groupID : member.userIdentifier}/privacy`,
      body: (v) => ({ requestedPrivacyLevel: [`mhci${v}`] }),
      expected: PrivacyErrors.RequestedPrivacyLevelInvalid,
    })),
    ...(['groups', 'participants'] as const).map((kind): Case => ({
      name: `POST /interact/${kind}/{id}/email emailType`,
      method: 'POST',
      path: () =>
        `/interact/${kind}/${kind === 'groups' ? group.groupID : member.userIdentifier}/email`,
      body: (v) => ({ emailType: `checkinReminder${v}` }),
      expected: InteractErrors.EmailTypeInvalid,
    })),
    {
      name: 'POST /webhooks/{groupID} url',
      method: 'POST',
      path: () => `/webhooks/${group.groupID}`,
      body: (v) => ({ url: `https://hooks.example.com/a${v}b`, description: 'x' }),
      expected: WebhookErrors.InvalidUrl,
    },
    {
      name: 'POST /webhooks/{groupID} description',
      method: 'POST',
      path: () => `/webhooks/${group.groupID}`,
      body: (v) => ({ url: 'https://hooks.example.com/b', description: `Night${v}receiver` }),
      expected: control('description'),
      freeText: true,
    },
    {
      name: 'POST /webhooks/{groupID} enabledEvents',
      method: 'POST',
      path: () => `/webhooks/${group.groupID}`,
      body: (v) => ({
        url: 'https://hooks.example.com/c',
        description: 'x',
        enabledEvents: [`user.created${v}`],
      }),
      expected: WebhookErrors.EnabledEventsInvalid,
    },
    {
      name: 'PUT /webhooks/{groupID}/{webhookID} url',
      method: 'PUT',
      path: () => `/webhooks/${group.groupID}/${webhookId}`,
      body: (v) => ({ url: `https://hooks.example.com/${v}` }),
      expected: WebhookErrors.InvalidUrl,
    },
    {
      name: 'PUT /webhooks/{groupID}/{webhookID} description',
      method: 'PUT',
      path: () => `/webhooks/${group.groupID}/${webhookId}`,
      body: (v) => ({ description: `Receiver${v}` }),
      expected: control('description'),
      freeText: true,
    },
    {
      name: 'PUT /webhooks/{groupID}/{webhookID} status',
      method: 'PUT',
      path: () => `/webhooks/${group.groupID}/${webhookId}`,
      body: (v) => ({ status: `enabled${v}` }),
      expected: WebhookErrors.StatusInvalid,
    },
    {
      name: 'POST /webhooks/{groupID}/{webhookID}/replay since',
      method: 'POST',
      path: () => `/webhooks/${group.groupID}/${webhookId}/replay`,
      body: (v) => ({ since: `2026-01-01${v}` }),
      expected: WebhookErrors.SinceInvalid,
    },
    {
      name: 'POST /webhooks/{groupID}/{webhookID}/replay until',
      method: 'POST',
      path: () => `/webhooks/${group.groupID}/${webhookId}/replay`,
      body: (v) => ({ since: '2026-01-01', until: `2026-01-02${v}` }),
      expected: WebhookErrors.UntilInvalid,
    },
    ...(['ingestion', 'sandbox completion'] as const).flatMap((route): Case[] => {
      const path = async () =>
        route === 'ingestion'
          ? `/internal/sessions/${await openSession()}/result`
          : `/sandbox/sessions/${await openSession(true)}/complete`;
      const common = {
        method: 'POST',
        path,
        engine: route === 'ingestion',
        apiKey: () => (route === 'ingestion' ? acme.apiKey : sandbox.apiKey),
      };
      return [
        {
          ...common,
          name: `${route} version`,
          body: (v) => result({ version: `v1.0.0${v}` }),
          expected: IngestionErrors.VersionFormat,
        },
        {
          ...common,
          name: `${route} transcript role`,
          body: (v) => result({ transcript: [{ role: `user${v}`, content: 'x' }] }),
          expected: IngestionErrors.TranscriptInvalid,
        },
        {
          ...common,
          name: `${route} transcript content`,
          body: (v) => result({ transcript: userSays(`I slept${v}badly`) }),
          expected: control('transcript'),
          freeText: true,
        },
        {
          ...common,
          name: `${route} feature name`,
          body: (v) => result({ features: { [`pitch${v}`]: 1 } }),
          expected: IngestionErrors.FeaturesInvalid,
        },
        {
          ...common,
          name: `${route} completedAt`,
          body: (v) => result({ completedAt: `2026-01-01T00:00:00Z${v}` }),
          expected: IngestionErrors.CompletedAtInvalid,
        },
      ];
    }),
  ];

  it.each(cases)('$name: control characters are refused and change nothing', async (c) => {
    const before = await snapshot();
    const characters = c.freeText
      ? FORBIDDEN_EVERYWHERE
      : [...FORBIDDEN_EVERYWHERE, ...LINE_CHARACTERS];
    for (const character of characters) {
      const response = await t.request(c.method, await c.path(), {
        apiKey: c.apiKey?.() ?? acme.apiKey,
        headers: c.engine ? engineHeaders() : {},
        body: c.body(character),
      });
      expect([JSON.stringify(character), response.status, response.body]).toEqual([
        JSON.stringify(character),
        400,
        { error: c.expected },
      ]);
    }
    const after = await snapshot();
    // A case that opens a session for its result adds that session, nothing else.
    expect({ ...after, sessions: '' }).toEqual({ ...before, sessions: '' });
  });

  it('refuses control characters in every path and query parameter of every operation, changing nothing', async () => {
    const document = JSON.parse(readFileSync(join(__dirname, '..', 'openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
    };
    const valid: Record<string, string> = {
      groupID: String(group.groupID),
      externalID: member.userIdentifier,
      sessionID: member.sessionID,
      webhookID: webhookId,
      deliveryID: '1',
      from: '2026-01-01',
      to: '2026-01-31',
      groupBy: 'day',
      top: '10',
    };
    const before = await snapshot();
    const answered: string[] = [];
    for (const [template, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const parameters = (operation.parameters ?? []).filter((p) => p.in !== 'header');
        for (const parameter of parameters) {
          for (const character of ['\u0000', '\u0001', '\n', '\u007f']) {
            const value = (name: string) =>
              encodeURIComponent(
                name === parameter.name ? `${valid[name]}${character}` : valid[name],
              );
            const path = template.replace(/\{(\w+)\}/g, (_, name: string) => value(name));
            const query = parameters
              .filter((p) => p.in === 'query')
              .map((p) => `${p.name}=${value(p.name)}`)
              .join('&');
            const response = await t.request(
              method.toUpperCase(),
              query ? `${path}?${query}` : path,
              {
                apiKey: path.startsWith('/sandbox/') ? sandbox.apiKey : acme.apiKey,
                headers: path.startsWith('/internal/') ? engineHeaders() : {},
                body: method === 'get' || method === 'delete' ? undefined : {},
              },
            );
            const error = (response.body as { error?: unknown } | undefined)?.error;
            if (response.status < 400 || response.status >= 500 || typeof error !== 'string') {
              answered.push(
                `${method} ${template} ${parameter.name} ${JSON.stringify(character)} → ${response.status}`,
              );
            }
          }
        }
      }
    }
    expect(answered).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('keeps tab and line breaks in free text: a webhook description, a transcript turn', async () => {
    const created = await t.request('POST', `/webhooks/${group.groupID}`, {
      apiKey: acme.apiKey,
      body: { url: 'https://hooks.example.com/lines', description: 'Night\treceiver\r\nline two' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ description: 'Night\treceiver\r\nline two' });
    const sessionId = await openSession();
    const posted = await postResult(
      t,
      sessionId,
      engineResult({ transcript: userSays('First line\nsecond\tline') }),
    );
    expect(posted.status).toBe(200);
  });

  it('refuses JSON nested deeper than 32 levels as an invalid body, before anything reads it', async () => {
    const sessionId = await openSession();
    const sandboxSession = await openSession(true);
    const routes: [string, string, Record<string, string>, string][] = [
      ['POST', '/groups', {}, acme.apiKey],
      ['PUT', `/groups/${group.groupID}`, {}, acme.apiKey],
      ['POST', '/session/create', {}, acme.apiKey],
      ['POST', `/webhooks/${group.groupID}`, {}, acme.apiKey],
      ['POST', `/webhooks/${group.groupID}/${webhookId}/replay`, {}, acme.apiKey],
      ['POST', `/internal/sessions/${sessionId}/result`, engineHeaders(), acme.apiKey],
      ['POST', `/sandbox/sessions/${sandboxSession}/complete`, {}, sandbox.apiKey],
    ];
    const before = await snapshot();
    for (const [method, path, headers, apiKey] of routes) {
      for (const body of [
        nested(33),
        nested(20_000),
        '['.repeat(33) + ']'.repeat(33),
        `{"groupName":"x","extra":${nested(40)}}`,
        // Brackets inside strings do not count; the real nesting does.
        `{"s":"${'{['.repeat(100)}","deep":${nested(32)}}`,
      ]) {
        const response = await t.request(method, path, { apiKey, headers, rawBody: body });
        expect([path, body.slice(0, 30), response.status, response.body]).toEqual([
          path,
          body.slice(0, 30),
          400,
          { error: CommonErrors.InvalidJsonBody },
        ]);
      }
    }
    expect(await snapshot()).toEqual(before);
    // 32 levels is allowed: the request reaches validation (and is refused for its content).
    const allowed = await t.request('POST', '/groups', {
      apiKey: acme.apiKey,
      rawBody: `{"groupName":"Deep","extra":${nested(31)}}`,
    });
    expect(allowed.status).toBe(200);
    const strings = await t.request('POST', '/groups', {
      apiKey: acme.apiKey,
      rawBody: JSON.stringify({ groupName: `Brackets ${'[{'.repeat(50)}` }),
    });
    expect(strings.status).toBe(200);
  });

  it('takes completion times from 2000-01-01 to 5 minutes ahead, and refuses the rest as Invalid completedAt', async () => {
    const minutesAhead = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
    for (const completedAt of [
      '0000-01-01T00:00:00Z',
      '0001-01-01T00:00:00Z',
      '1999-12-31T23:59:59Z',
      '1999-12-31T23:59:59.999Z',
      '2000-01-01T00:30:00+01:00',
      minutesAhead(6),
      '9999-12-31T23:59:59Z',
      '+275760-09-13T00:00:00Z',
      'yesterday',
      '',
    ]) {
      const response = await postResult(t, await openSession(), engineResult({ completedAt }));
      expect([completedAt, response.status, response.body]).toEqual([
        completedAt,
        400,
        { error: 'Invalid completedAt' },
      ]);
    }
    for (const completedAt of ['2000-01-01T00:00:00Z', minutesAhead(4)]) {
      const response = await postResult(t, await openSession(), engineResult({ completedAt }));
      expect([completedAt, response.status]).toEqual([completedAt, 200]);
    }
  });
});
