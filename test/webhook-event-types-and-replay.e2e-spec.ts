/**
 * Webhook event types, `enabledEvents` and replay (docs/webhooks.md), over real HTTP, PostgreSQL, Redis and a local receiver verifying
 * with `standardwebhooks`: `enabledEvents` on POST and PUT, the event types reaching only the
 * endpoints that enable them (driven from the participant pages and erasure), and replay.
 */
import { GroupErrors } from '../src/groups/groups.errors';
import { WebhookErrors } from '../src/webhooks/webhooks.errors';
import { finalDeliveries } from './support/deliveries';
import { ENGINE_TOKEN } from './support/engine';
import { match } from './support/matchers';
import { PageBrowser } from './support/page-browser';
import {
  SessionCreated,
  startTestApp,
  TestApp,
  TestEnterprise,
  TestGroup,
} from './support/test-app';
import { eventually, Received, WebhookReceiver } from './support/webhook-receiver';

interface Endpoint {
  id: string;
  description: string;
  object: string;
  status: string;
  url: string;
  enabledEvents: string[];
  secret: string;
}

interface Envelope {
  id: string;
  object: string;
  type: string;
  created: string;
  data: { object: Record<string, unknown> };
}

/** A closed local port: attempts fail at once, nothing leaves the machine. */
const UNREACHABLE = 'http://127.0.0.1:9/closed';
const ALL_EVENTS = ['user.created', 'user.session.result', 'user.privacy.updated', 'user.deleted'];
const SPEC_EVENTS = ['user.created', 'user.session.result'];

const INVALID_ENABLED_EVENTS: [string, unknown][] = [
  ['a string', 'user.created'],
  ['an empty array', []],
  ['an unknown type', ['user.created', 'user.updated']],
  ['webhook.test (not subscribable)', ['webhook.test']],
  ['a number element', [1]],
  ['a null element', [null]],
  ['a nested array', [['user.created']]],
  ['another case', ['User.Created']],
  ['null', null],
  ['an object', { 'user.created': true }],
  ['a number', 3],
  ['true', true],
];

describe('Webhook event types, enabledEvents and replay', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let globex: TestEnterprise;
  let n = 0;
  const receivers: WebhookReceiver[] = [];
  const browser = new PageBrowser();

  beforeAll(async () => {
    t = await startTestApp({ ENGINE_TOKEN, WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s' });
    acme = await t.newEnterprise('Acme');
    globex = await t.newEnterprise('Globex');
  });
  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.stop()));
    await t.close();
  });

  const receiver = async () => {
    const inbox = await new WebhookReceiver().start();
    receivers.push(inbox);
    return inbox;
  };
  const create = (group: TestGroup, body: Record<string, unknown>, enterprise = acme) =>
    t.request('POST', `/webhooks/${group.groupID}`, { apiKey: enterprise.apiKey, body });
  const addEndpoint = async (group: TestGroup, url: string, enabledEvents?: string[]) => {
    const response = await create(group, { url, description: 'Receiver', enabledEvents });
    expect(response.status).toBe(200);
    return response.body as Endpoint;
  };
  const list = async (group: TestGroup) =>
    (await t.request('GET', `/webhooks/${group.groupID}`, { apiKey: acme.apiKey })).body;
  const update = (group: TestGroup, endpoint: Endpoint, body: unknown, enterprise = acme) =>
    t.request('PUT', `/webhooks/${group.groupID}/${endpoint.id}`, {
      apiKey: enterprise.apiKey,
      body,
    });
  const replay = (group: TestGroup, webhookId: string, body: unknown, enterprise = acme) =>
    t.request('POST', `/webhooks/${group.groupID}/${webhookId}/replay`, {
      apiKey: enterprise.apiKey,
      body,
    });
  const envelopes = (received: Received[], endpoint: Endpoint) =>
    received.map(
      (delivery) => WebhookReceiver.verify(delivery, endpoint.secret) as unknown as Envelope,
    );
  const deliveryCount = async (endpoint: Endpoint) =>
    (
      await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1',
        [endpoint.id],
      )
    ).rows[0].n;
  const pagePost = async (path: string, form: Record<string, string> = {}) =>
    (await browser.post(`${t.baseUrl}${path}`, form)).status;
  /** A new participant's first session in `group`, started on the check-in page. */
  const checkIn = async (group: TestGroup) => {
    const created = (await t.createSession(acme, group, `v2-${++n}@example.com`))
      .body as SessionCreated;
    const path = new URL(created.redirectUrl).pathname;
    expect(await pagePost(`${path}/start`)).toBe(303);
    return { externalId: created.userIdentifier, path };
  };
  /** Writes an event row directly (as the outbox would, without deliveries), at `createdAt`. */
  const insertEvent = async (
    enterprise: TestEnterprise,
    group: TestGroup,
    type: string,
    createdAt: string,
    payload: Record<string, unknown> = { groupID: group.groupID },
  ) =>
    (
      await t.db.query<{ id: string }>(
        `INSERT INTO events (id, enterprise_id, group_id, type, payload, created_at)
         VALUES ('evt_' || md5(random()::text) || substr(md5(random()::text), 1, 16),
                 $1, $2, $3, $4, $5)
         RETURNING id`,
        [enterprise.enterpriseId, group.groupID, type, JSON.stringify(payload), createdAt],
      )
    ).rows[0].id;

  describe('enabledEvents on POST /webhooks/{groupID}', () => {
    it.each(INVALID_ENABLED_EVENTS)(
      'refuses %s with the exact message, creating nothing',
      async (_, value) => {
        const group = await t.newGroup(acme, 'Invalid events');
        const response = await create(group, {
          url: 'https://hooks.example.com/in',
          description: 'x',
          enabledEvents: value,
        });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: WebhookErrors.EnabledEventsInvalid });
        expect(response.body).toEqual({
          error:
            "Invalid enabledEvents. Should be an array with elements in ['user.created', 'user.session.result', 'user.privacy.updated', 'user.deleted'].",
        });
        expect(await list(group)).toEqual([]);
      },
    );

    it("checks enabledEvents after the spec's fields and before the group", async () => {
      const group = await t.newGroup(acme, 'Order');
      const bad = { enabledEvents: [] };
      expect((await create(group, { ...bad, description: 'x' })).body).toEqual({
        error: WebhookErrors.UrlMissing,
      });
      expect((await create(group, { ...bad, url: 'nope', description: 'x' })).body).toEqual({
        error: WebhookErrors.InvalidUrl,
      });
      expect((await create(group, { ...bad, url: 'https://h.example.com' })).body).toEqual({
        error: WebhookErrors.DescriptionMissing,
      });
      expect(
        (await create(group, { ...bad, url: 'https://h.example.com', description: 7 })).body,
      ).toEqual({ error: WebhookErrors.DescriptionNotString });
      const elsewhere = { ...group, groupID: 999_999 };
      const body = { ...bad, url: 'https://h.example.com', description: 'x' };
      expect((await create(elsewhere, body)).body).toEqual({
        error: WebhookErrors.EnabledEventsInvalid,
      });
      expect((await create(elsewhere, { ...body, enabledEvents: ['user.deleted'] })).body).toEqual({
        error: GroupErrors.NotFound,
      });
      expect(await list(group)).toEqual([]);
    });

    it("answers exactly the spec's endpoint when absent", async () => {
      const group = await t.newGroup(acme, 'Spec');
      const response = await create(group, {
        url: 'https://hooks.example.com/in',
        description: 'Production',
      });
      expect(response.status).toBe(200);
      expect(Object.keys(response.body as object)).toEqual([
        'id',
        'description',
        'object',
        'status',
        'url',
        'enabledEvents',
        'secret',
      ]);
      expect((response.body as Endpoint).enabledEvents).toEqual(SPEC_EVENTS);
      expect((response.body as Endpoint).status).toBe('enabled');
    });

    it('stores the chosen types, duplicates collapsed, in canonical order', async () => {
      const group = await t.newGroup(acme, 'Chosen');
      const response = await create(group, {
        url: 'https://hooks.example.com/in',
        description: 'Chosen',
        enabledEvents: ['user.deleted', 'user.created', 'user.deleted', 'user.privacy.updated'],
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id: match.stringMatching(/^we_/),
        description: 'Chosen',
        object: 'webhook_endpoint',
        status: 'enabled',
        url: 'https://hooks.example.com/in',
        enabledEvents: ['user.created', 'user.privacy.updated', 'user.deleted'],
        secret: match.stringMatching(/^whsec_/),
      });
      const all = await create(group, {
        url: 'https://hooks.example.com/all',
        description: 'All',
        enabledEvents: [...ALL_EVENTS].reverse(),
      });
      expect((all.body as Endpoint).enabledEvents).toEqual(ALL_EVENTS);
      expect((await list(group)) as Endpoint[]).toMatchObject([
        { enabledEvents: ['user.created', 'user.privacy.updated', 'user.deleted'] },
        { enabledEvents: ALL_EVENTS },
      ]);
    });
  });

  describe('enabledEvents on PUT /webhooks/{groupID}/{webhookID}', () => {
    let group: TestGroup;
    let endpoint: Endpoint;
    beforeAll(async () => {
      group = await t.newGroup(acme, 'Put');
      endpoint = await addEndpoint(group, 'https://hooks.example.com/put');
    });

    it.each(INVALID_ENABLED_EVENTS)(
      'refuses %s with the exact message, changing nothing',
      async (_, value) => {
        const before = await list(group);
        const response = await update(group, endpoint, {
          description: 'changed',
          enabledEvents: value,
        });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: WebhookErrors.EnabledEventsInvalid });
        expect(await list(group)).toEqual(before);
      },
    );

    it("checks the spec's fields first", async () => {
      expect((await update(group, endpoint, { url: 5, enabledEvents: [] })).body).toEqual({
        error: WebhookErrors.UrlNotString,
      });
      expect((await update(group, endpoint, { description: 5, enabledEvents: [] })).body).toEqual({
        error: WebhookErrors.DescriptionNotString,
      });
    });
  });

  describe('filtering', () => {
    it('delivers user.privacy.updated and user.deleted only to the endpoints that enable them', async () => {
      const group = await t.newGroup(acme, 'Filtering');
      const [specInbox, privacyInbox, deletedInbox] = [
        await receiver(),
        await receiver(),
        await receiver(),
      ];
      const spec = await addEndpoint(group, specInbox.url);
      const privacy = await addEndpoint(group, privacyInbox.url, ['user.privacy.updated']);
      const deleted = await addEndpoint(group, deletedInbox.url, ['user.deleted']);

      const me = await checkIn(group);
      expect(await pagePost(`${me.path}/privacy`, { privacyLevel: '3' })).toBe(303);
      expect(await pagePost(`${me.path}/privacy`, { privacyLevel: '1' })).toBe(303);
      await privacyInbox.waitFor(2);
      const privacyEvents = envelopes(privacyInbox.received, privacy);
      expect(privacyEvents.map((event) => event.data.object)).toEqual([
        {
          groupID: group.groupID,
          userIdentifier: me.externalId,
          privacyLevel: 3,
          previousPrivacyLevel: 0,
          timestamp: match.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        },
        {
          groupID: group.groupID,
          userIdentifier: me.externalId,
          privacyLevel: 1,
          previousPrivacyLevel: 3,
          timestamp: match.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        },
      ]);
      for (const event of privacyEvents) {
        expect(event).toMatchObject({ object: 'event', type: 'user.privacy.updated' });
      }

      // Erasure deletes the events naming them: let user.created arrive first, and every
      // delivery so far be final (none in flight when its row goes).
      await specInbox.waitFor(1);
      const endpoints = [spec.id, privacy.id, deleted.id];
      expect((await finalDeliveries(t.db, endpoints)).map((row) => row.status)).toEqual([
        'delivered',
        'delivered',
        'delivered',
      ]);
      const erased = await t.request('DELETE', `/participants/${me.externalId}`, {
        apiKey: acme.apiKey,
      });
      expect(erased.status).toBe(200);
      await deletedInbox.waitFor(1);
      const [deletion] = envelopes(deletedInbox.received, deleted);
      expect(deletion).toEqual({
        id: match.stringMatching(/^evt_/),
        object: 'event',
        type: 'user.deleted',
        created: match.any(String),
        data: {
          object: {
            groupID: group.groupID,
            userIdentifier: me.externalId,
            timestamp: match.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
          },
        },
      });

      // Every delivery final: whatever the endpoints were to get, they have.
      expect(await finalDeliveries(t.db, endpoints)).toEqual([
        { endpointId: deleted.id, eventId: deletion.id, status: 'delivered', attempts: 1 },
      ]);
      // Each endpoint got its types and nothing else (the spec endpoint: user.created only,
      // sent before the erasure; no result was posted).
      expect(envelopes(specInbox.received, spec).map((event) => event.type)).toEqual([
        'user.created',
      ]);
      expect(privacyInbox.received).toHaveLength(2);
      expect(deletedInbox.received).toHaveLength(1);
    });
  });

  describe('replay', () => {
    const T0 = '2026-01-01T00:00:00.000Z';
    const T1 = '2026-01-02T00:00:00.000Z';

    it('re-sends the enabled types of [since, until) as new, signed deliveries', async () => {
      const group = await t.newGroup(acme, 'Replay');
      const other = await t.newGroup(acme, 'Replay other');
      const inbox = await receiver();
      const endpoint = await addEndpoint(group, inbox.url, [
        'user.created',
        'user.privacy.updated',
      ]);
      const before = await insertEvent(acme, group, 'user.created', '2025-12-31T23:59:59.999Z');
      const atSince = await insertEvent(acme, group, 'user.created', T0, {
        groupID: group.groupID,
        userIdentifier: 'ok_replayed',
      });
      const inside = await insertEvent(
        acme,
        group,
        'user.privacy.updated',
        '2026-01-01T12:00:00Z',
        {
          groupID: group.groupID,
          userIdentifier: 'ok_replayed',
          privacyLevel: 2,
          previousPrivacyLevel: 1,
          timestamp: '2026-01-01T12:00:00.000Z',
        },
      );
      await insertEvent(acme, group, 'user.session.result', '2026-01-01T13:00:00Z'); // not enabled
      await insertEvent(acme, group, 'user.deleted', '2026-01-01T14:00:00Z'); // not enabled
      await insertEvent(acme, group, 'webhook.test', '2026-01-01T15:00:00Z'); // never replayed
      await insertEvent(acme, other, 'user.created', '2026-01-01T12:00:00Z'); // another group
      const lastInside = await insertEvent(acme, group, 'user.created', '2026-01-01T23:59:59.999Z');
      await insertEvent(acme, group, 'user.created', T1); // until is excluded

      const response = await replay(group, endpoint.id, { since: T0, until: T1 });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ replayed: 3 });
      await inbox.waitFor(3);
      // The three deliveries are final: there is nothing more to send.
      expect((await finalDeliveries(t.db, [endpoint.id])).map((row) => row.status)).toEqual([
        'delivered',
        'delivered',
        'delivered',
      ]);
      expect(inbox.received).toHaveLength(3);
      const sent = envelopes(inbox.received, endpoint);
      expect(sent.map((event) => event.id).sort()).toEqual([atSince, inside, lastInside].sort());
      expect(inbox.received.map((delivery) => delivery.headers['webhook-id']).sort()).toEqual(
        [atSince, inside, lastInside].sort(),
      );
      expect(sent.find((event) => event.id === atSince)).toEqual({
        id: atSince,
        object: 'event',
        type: 'user.created',
        created: T0,
        // This event's email is gone (never stored here, as after retention): sent as null.
        data: { object: { groupID: group.groupID, userIdentifier: 'ok_replayed', email: null } },
      });
      expect(sent.find((event) => event.id === inside)?.data.object).toEqual({
        groupID: group.groupID,
        userIdentifier: 'ok_replayed',
        privacyLevel: 2,
        previousPrivacyLevel: 1,
        timestamp: '2026-01-01T12:00:00.000Z',
      });
      expect(sent.map((event) => event.id)).not.toContain(before);

      // Again: new deliveries each time, listed as such.
      expect((await replay(group, endpoint.id, { since: T0, until: T1 })).body).toEqual({
        replayed: 3,
      });
      await inbox.waitFor(6);
      const deliveries = (
        await t.request('GET', `/webhooks/${group.groupID}/${endpoint.id}/deliveries`, {
          apiKey: acme.apiKey,
        })
      ).body as { eventId: string; status: string }[];
      expect(deliveries).toHaveLength(6);
      expect(deliveries.filter((delivery) => delivery.eventId === atSince)).toHaveLength(2);
      await eventually(async () => {
        const statuses = (
          await t.db.query<{ status: string }>(
            'SELECT status FROM webhook_deliveries WHERE endpoint_id = $1',
            [endpoint.id],
          )
        ).rows.map((row) => row.status);
        expect(statuses).toEqual(Array(6).fill('delivered'));
      });
    });

    it('replays real events up to now by default, with the endpoint’s current types', async () => {
      const group = await t.newGroup(acme, 'Replay real');
      const inbox = await receiver();
      const endpoint = await addEndpoint(group, inbox.url);
      const since = new Date(Date.now() - 1_000).toISOString();
      const created = (await t.createSession(acme, group, `v2-${++n}@example.com`))
        .body as SessionCreated;
      await inbox.waitFor(1);
      const [original] = envelopes(inbox.received, endpoint);
      expect(original.data.object).toEqual({
        groupID: group.groupID,
        userIdentifier: created.userIdentifier,
        email: `v2-${n}@example.com`,
      });

      expect((await replay(group, endpoint.id, { since })).body).toEqual({ replayed: 1 });
      await inbox.waitFor(2);
      const [, replayed] = envelopes(inbox.received, endpoint);
      expect(replayed).toEqual(original);
      expect(inbox.received[1].headers['webhook-id']).toBe(original.id);

      // Only the types enabled now: none of these.
      await update(group, endpoint, { enabledEvents: ['user.deleted'] });
      expect((await replay(group, endpoint.id, { since })).body).toEqual({ replayed: 0 });
      // The original delivery and the first replay, both final; the second made none.
      expect(await finalDeliveries(t.db, [endpoint.id])).toEqual([
        { endpointId: endpoint.id, eventId: original.id, status: 'delivered', attempts: 1 },
        { endpointId: endpoint.id, eventId: original.id, status: 'delivered', attempts: 1 },
      ]);
      expect(inbox.received).toHaveLength(2);
    });

    it('keeps to the caller’s enterprise, group and webhook (the sibling routes’ errors)', async () => {
      const group = await t.newGroup(acme, 'Replay tenancy');
      const neighbour = await t.newGroup(acme, 'Replay neighbour');
      const endpoint = await addEndpoint(group, UNREACHABLE, ALL_EVENTS);
      const neighbours = await addEndpoint(neighbour, UNREACHABLE, ALL_EVENTS);
      await insertEvent(acme, group, 'user.created', '2026-01-01T10:00:00Z');
      // An event of another enterprise filed under this group id is never anyone else's.
      await insertEvent(globex, group, 'user.created', '2026-01-01T11:00:00Z');
      const body = { since: T0, until: T1 };

      expect(await replay(group, endpoint.id, body, globex)).toMatchObject({
        status: 400,
        body: { error: GroupErrors.NotFound },
      });
      expect(await replay(group, neighbours.id, body)).toMatchObject({
        status: 400,
        body: { error: WebhookErrors.NotFound },
      });
      expect(await replay(group, 'we_000000000000000000000000', body)).toMatchObject({
        status: 400,
        body: { error: WebhookErrors.NotFound },
      });
      expect(await replay(group, 'nonsense', body)).toMatchObject({
        status: 400,
        body: { error: WebhookErrors.NotFound },
      });
      expect(await replay({ ...group, groupID: 999_999 }, endpoint.id, body)).toMatchObject({
        status: 400,
        body: { error: GroupErrors.NotFound },
      });
      expect(
        (await t.request('POST', `/webhooks/${group.groupID}/${endpoint.id}/replay`, { body }))
          .status,
      ).toBe(401);
      expect(await deliveryCount(endpoint)).toBe(0);
      expect(await deliveryCount(neighbours)).toBe(0);

      expect((await replay(group, endpoint.id, body)).body).toEqual({ replayed: 1 });
    });

    it('refuses invalid windows with clear messages, creating nothing', async () => {
      const group = await t.newGroup(acme, 'Replay invalid');
      const endpoint = await addEndpoint(group, UNREACHABLE, ALL_EVENTS);
      await insertEvent(acme, group, 'user.created', '2026-01-01T10:00:00Z');
      const future = new Date(Date.now() + 3_600_000).toISOString();
      const cases: [unknown, string][] = [
        [{}, WebhookErrors.SinceMissing],
        [{ since: null }, WebhookErrors.SinceMissing],
        [{ until: T1 }, WebhookErrors.SinceMissing],
        [{ since: 1_767_225_600_000 }, WebhookErrors.SinceNotString],
        [{ since: 'yesterday' }, WebhookErrors.SinceInvalid],
        [{ since: '' }, WebhookErrors.SinceInvalid],
        [{ since: '2026-02-30' }, WebhookErrors.SinceInvalid],
        [{ since: '2026-01-01T25:00:00Z' }, WebhookErrors.SinceInvalid],
        [{ since: '2026-01-01T10:00:00' }, WebhookErrors.SinceInvalid], // no time zone
        [{ since: 'Thu, 01 Jan 2026 00:00:00 GMT' }, WebhookErrors.SinceInvalid],
        [{ since: T0, until: 5 }, WebhookErrors.UntilNotString],
        [{ since: T0, until: 'tomorrow' }, WebhookErrors.UntilInvalid],
        [{ since: T0, until: T0 }, WebhookErrors.UntilNotAfterSince],
        [{ since: T1, until: T0 }, WebhookErrors.UntilNotAfterSince],
        [{ since: '2026-01-01T02:00:00+02:00', until: T0 }, WebhookErrors.UntilNotAfterSince],
        [{ since: future }, WebhookErrors.SinceInFuture],
        [{ since: future, until: '2999-01-01' }, WebhookErrors.SinceInFuture],
      ];
      for (const [body, error] of cases) {
        const response = await replay(group, endpoint.id, body);
        expect({ body, status: response.status, answer: response.body }).toEqual({
          body,
          status: 400,
          answer: { error },
        });
      }
      // Body errors come before the group and webhook lookups, like the sibling routes.
      expect((await replay(group, 'we_000000000000000000000000', {})).body).toEqual({
        error: WebhookErrors.SinceMissing,
      });
      expect(await deliveryCount(endpoint)).toBe(0);
      // A date alone is UTC midnight; offsets are honoured (the event is at 10:00Z).
      const window = (since: string, until: string) =>
        replay(group, endpoint.id, { since, until }).then((response) => response.body);
      expect(await window('2026-01-01', '2026-01-02')).toEqual({ replayed: 1 });
      expect(await window('2026-01-01T11:00:00+01:00', '2026-01-01T12:00:00+01:00')).toEqual({
        replayed: 1,
      });
      expect(await window('2026-01-01T09:00:00+01:00', '2026-01-01T11:00:00+01:00')).toEqual({
        replayed: 0,
      });
    });

    it('replays at most 10 000 events per call, refusing a larger window whole', async () => {
      const group = await t.newGroup(acme, 'Replay bound');
      const endpoint = await addEndpoint(group, UNREACHABLE, ['user.created']);
      // 10 001 enabled events one second apart from T0, plus disabled types in between that
      // do not count.
      await t.db.query(
        `INSERT INTO events (id, enterprise_id, group_id, type, payload, created_at)
         SELECT 'evt_' || md5(random()::text) || substr(md5(random()::text), 1, 16),
                $1, $2, type, jsonb_build_object('groupID', $2::bigint),
                $3::timestamptz + i * interval '1 second'
           FROM generate_series(0, 10000) AS i,
                (VALUES ('user.created'), ('user.deleted')) AS types(type)`,
        [acme.enterpriseId, group.groupID, T0],
      );
      const tooMany = await replay(group, endpoint.id, { since: T0, until: T1 });
      expect(tooMany).toMatchObject({
        status: 400,
        body: { error: 'The replay window holds more than 10000 events; narrow since/until' },
      });
      expect(await deliveryCount(endpoint)).toBe(0);
      // The last second out: exactly 10 000, all replayed.
      const exactly = await replay(group, endpoint.id, {
        since: T0,
        until: new Date(Date.parse(T0) + 10_000_000).toISOString(),
      });
      expect(exactly).toMatchObject({ status: 200, body: { replayed: 10_000 } });
      expect(await deliveryCount(endpoint)).toBe(10_000);
      // Drop them rather than let the workers try 10 000 unreachable sends.
      await t.request('DELETE', `/webhooks/${group.groupID}/${endpoint.id}`, {
        apiKey: acme.apiKey,
      });
    });
  });
});
