/**
 * WebhooksService below HTTP, on its real repositories and PostgreSQL (docs/webhooks.md). Pinned down:
 * - an endpoint is created enabled, with the spec's two events unless it names others (duplicates
 *   collapsed, canonical order), and a `whsec_` secret answered once and stored only encrypted;
 * - the SSRF rules refuse a URL (on create and update) before the group is looked at, and
 *   nothing is written; with private URLs allowed, a local http URL is accepted;
 * - every operation is scoped: another enterprise's or an unknown group is `Group not found`,
 *   another group's, an unknown or a malformed webhook is `Webhook not found`, and nothing changes;
 * - update changes only the fields given; disabling cancels that endpoint's pending deliveries
 *   only, re-enabling ends its failure streak; delete takes its deliveries and their log along;
 * - rotating a secret keeps the previous one valid for exactly 24 h;
 * - a test event goes to that endpoint only; the delivery log is newest first, at most 100, with
 *   the fixed error texts only; a redelivery makes a delivery pending and due now;
 * - replay: the window [since, until) of the group's events whose types the endpoint enables now,
 *   as new replay deliveries, all or nothing above 10 000, refused for a disabled endpoint and
 *   for a window in the future or empty.
 */
import { randomUUID } from 'node:crypto';
import { GroupErrors } from '../../src/groups/groups.errors';
import { DeliveryLeaseRepository } from '../../src/webhooks/delivery/delivery-lease.repository';
import { type EventType, EventTypes, SUBSCRIBABLE_EVENTS } from '../../src/webhooks/events/events';
import { REPLAY_MAX_EVENTS, WebhookErrors } from '../../src/webhooks/webhooks.errors';
import { newEventId, TestDatabase } from './support';
import {
  apiErrorOf,
  type Services,
  servicesOn,
  snapshot,
  testConfig,
  Tenants,
} from './tenant-fixtures';

const WEBHOOK_TABLES = ['webhook_endpoints', 'webhook_deliveries', 'delivery_attempts', 'events'];
const DEFAULT = [EventTypes.UserCreated, EventTypes.SessionResult];
const HOUR_MS = 3_600_000;

describe('WebhooksService (PostgreSQL)', () => {
  let t: TestDatabase;
  let s: Services;
  let tenants: Tenants;
  let acme: string;
  let globex: string;
  let leases: DeliveryLeaseRepository;

  beforeAll(async () => {
    t = await TestDatabase.create();
    s = servicesOn(t);
    tenants = new Tenants(t, s);
    acme = await t.enterprise('Acme');
    globex = await t.enterprise('Globex');
    leases = new DeliveryLeaseRepository(t.db);
  });
  afterAll(() => t.close());

  let urls = 0;
  const newUrl = () => `https://hooks.example.com/in/${++urls}`;
  const newGroup = async (enterpriseId = acme) => (await tenants.group(enterpriseId)).groupId;
  const create = (groupId: number, enabledEvents?: string[], enterpriseId = acme) =>
    s.webhooks.create(enterpriseId, groupId, {
      url: newUrl(),
      description: 'receiver',
      enabledEvents,
    });
  const endpointRow = (id: string) =>
    t.one<{
      status: string;
      enabledEvents: string[];
      secretCiphertext: string;
      previousSecretCiphertext: string | null;
      previousSecretExpiresAt: Date | null;
      failingSince: Date | null;
    }>(
      `SELECT status, enabled_events AS "enabledEvents", secret_ciphertext AS "secretCiphertext",
              previous_secret_ciphertext AS "previousSecretCiphertext",
              previous_secret_expires_at AS "previousSecretExpiresAt",
              failing_since AS "failingSince"
         FROM webhook_endpoints WHERE id = $1`,
      [id],
    );
  /** An event of the group through the outbox: one delivery per endpoint that takes it. */
  const event = (groupId: number, type: EventType = EventTypes.UserCreated, enterpriseId = acme) =>
    s.events.insert({ enterpriseId, groupId, type, payload: { groupID: groupId } });
  const deliveriesOf = (endpointId: string) =>
    t.rows<{ id: string; eventId: string; status: string; replay: boolean }>(
      `SELECT id, event_id AS "eventId", status, replay FROM webhook_deliveries
        WHERE endpoint_id = $1 ORDER BY created_at, event_id`,
      [endpointId],
    );
  const webhookTables = () => snapshot(t, WEBHOOK_TABLES);

  describe('create', () => {
    it("answers an enabled endpoint of the spec's two events and its secret, stored only encrypted", async () => {
      const groupId = await newGroup();
      const created = await s.webhooks.create(acme, groupId, {
        url: 'https://hooks.example.com/acme?token=abc',
        description: 'Acme receiver',
      });
      expect(created).toEqual({
        id: expect.stringMatching(/^we_[0-9A-Za-z]{24}$/) as unknown,
        description: 'Acme receiver',
        object: 'webhook_endpoint',
        status: 'enabled',
        url: 'https://hooks.example.com/acme?token=abc',
        enabledEvents: DEFAULT,
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) as unknown,
      });
      const row = await endpointRow(created.id);
      expect(s.cipher.decrypt(row.secretCiphertext)).toBe(created.secret);
      expect(row).toEqual({
        status: 'enabled',
        enabledEvents: DEFAULT,
        secretCiphertext: expect.not.stringContaining(created.secret.slice(6)) as unknown,
        previousSecretCiphertext: null,
        previousSecretExpiresAt: null,
        failingSince: null,
      });
      // The secret is shown once: listing never answers it.
      const { secret: _secret, ...shown } = created;
      expect(await s.webhooks.list(acme, groupId)).toEqual([shown]);
      // Every endpoint its own secret.
      expect((await create(groupId)).secret).not.toBe(created.secret);
    });

    it.each([
      [
        ['user.deleted', 'user.created', 'user.deleted'],
        ['user.created', 'user.deleted'],
      ],
      [[...SUBSCRIBABLE_EVENTS].reverse(), [...SUBSCRIBABLE_EVENTS]],
      [['user.privacy.updated'], ['user.privacy.updated']],
    ])('enabledEvents %j are stored and answered as %j', async (given, stored) => {
      const created = await create(await newGroup(), given);
      expect(created.enabledEvents).toEqual(stored);
      expect((await endpointRow(created.id)).enabledEvents).toEqual(stored);
    });

    it('refuses every URL the SSRF rules forbid as Invalid URL, before the group, writing nothing', async () => {
      const groupId = await newGroup();
      const before = await webhookTables();
      for (const url of [
        'http://hooks.example.com/in',
        'https://localhost/in',
        'https://app.localhost/in',
        'https://127.0.0.1/in',
        'https://10.1.2.3/in',
        'https://192.168.0.10/in',
        'https://169.254.169.254/latest/meta-data',
        'https://100.64.0.1/in',
        'https://[::1]/in',
        'https://[::ffff:10.0.0.1]/in',
        'https://user:password@hooks.example.com/in',
        'ftp://hooks.example.com/in',
        'not a url',
      ]) {
        // Its own group, an unknown one, another enterprise's: the URL is refused first.
        for (const [enterpriseId, group] of [
          [acme, groupId],
          [acme, 987_654_321],
          [globex, groupId],
        ] as const) {
          expect({
            url,
            group,
            answer: await apiErrorOf(
              s.webhooks.create(enterpriseId, group, { url, description: 'x' }),
            ),
          }).toEqual({ url, group, answer: { status: 400, error: WebhookErrors.InvalidUrl } });
        }
      }
      expect(await webhookTables()).toEqual(before);
    });

    it('accepts a local http URL where private URLs are allowed (a laptop)', async () => {
      const laptop = servicesOn(t, {
        config: testConfig(t, { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }),
      });
      const created = await laptop.webhooks.create(acme, await newGroup(), {
        url: 'http://127.0.0.1:4000/hooks',
        description: 'local receiver',
      });
      expect(created).toMatchObject({ status: 'enabled', url: 'http://127.0.0.1:4000/hooks' });
    });
  });

  describe('scoping', () => {
    let groupA: number;
    let groupB: number;
    let foreignGroup: number;
    let endpointA: string;
    let deliveryA: string;

    beforeAll(async () => {
      groupA = await newGroup();
      groupB = await newGroup();
      foreignGroup = await newGroup(globex);
      endpointA = (await create(groupA)).id;
      await create(groupB);
      await event(groupA);
      [{ id: deliveryA }] = await deliveriesOf(endpointA);
    });

    /** Every operation on a webhook, as `enterpriseId` asks about `webhookId` in `groupId`. */
    const operations = (enterpriseId: string, groupId: number, webhookId: string) => ({
      update: () => s.webhooks.update(enterpriseId, groupId, webhookId, { description: 'x' }),
      remove: () => s.webhooks.remove(enterpriseId, groupId, webhookId),
      rotateSecret: () => s.webhooks.rotateSecret(enterpriseId, groupId, webhookId),
      sendTest: () => s.webhooks.sendTest(enterpriseId, groupId, webhookId),
      listDeliveries: () => s.webhooks.listDeliveries(enterpriseId, groupId, webhookId),
      redeliver: () => s.webhooks.redeliver(enterpriseId, groupId, webhookId, deliveryA),
      replay: () =>
        s.webhooks.replay(enterpriseId, groupId, webhookId, {
          since: new Date(Date.now() - HOUR_MS).toISOString(),
        }),
    });

    it("another enterprise's group, or an unknown one: Group not found for every operation, nothing changes", async () => {
      const before = await webhookTables();
      const notFound = { status: 400, error: GroupErrors.NotFound };
      for (const [enterpriseId, groupId] of [
        [globex, groupA],
        [acme, foreignGroup],
        [acme, 987_654_321],
      ] as const) {
        expect(await apiErrorOf(s.webhooks.list(enterpriseId, groupId))).toEqual(notFound);
        expect(
          await apiErrorOf(
            s.webhooks.create(enterpriseId, groupId, { url: newUrl(), description: 'x' }),
          ),
        ).toEqual(notFound);
        for (const [name, operation] of Object.entries(
          operations(enterpriseId, groupId, endpointA),
        )) {
          expect({ name, answer: await apiErrorOf(operation()) }).toEqual({
            name,
            answer: notFound,
          });
        }
      }
      expect(await webhookTables()).toEqual(before);
    });

    it('another group’s webhook, an unknown or a malformed id: Webhook not found, nothing changes', async () => {
      const before = await webhookTables();
      const notFound = { status: 400, error: WebhookErrors.NotFound };
      for (const [groupId, webhookId] of [
        [groupB, endpointA],
        [groupA, 'we_000000000000000000000000'],
        [groupA, 'we_short'],
        [groupA, endpointA.slice(0, -1)],
        [groupA, `${endpointA}x`],
        [groupA, ''],
        [groupA, `${endpointA}\u0000`],
      ] as const) {
        for (const [name, operation] of Object.entries(operations(acme, groupId, webhookId))) {
          expect({ name, webhookId, answer: await apiErrorOf(operation()) }).toEqual({
            name,
            webhookId,
            answer: notFound,
          });
        }
      }
      expect(await webhookTables()).toEqual(before);
    });

    it("lists a group's endpoints only, oldest first", async () => {
      const groupId = await newGroup();
      const first = await create(groupId);
      const second = await create(groupId, ['user.deleted']);
      await create(await newGroup());
      expect(await s.webhooks.list(acme, groupId)).toEqual(
        [first, second].map(({ secret: _secret, ...endpoint }) => endpoint),
      );
    });
  });

  describe('update', () => {
    it('changes only the fields given', async () => {
      const groupId = await newGroup();
      const created = await create(groupId);
      const { secret: _secret, ...endpoint } = created;
      expect(await s.webhooks.update(acme, groupId, created.id, {})).toEqual(endpoint);
      expect(
        await s.webhooks.update(acme, groupId, created.id, { description: 'renamed' }),
      ).toEqual({ ...endpoint, description: 'renamed' });
      expect(
        await s.webhooks.update(acme, groupId, created.id, {
          url: 'https://other.example.com/hook',
          enabledEvents: ['user.deleted', 'user.privacy.updated', 'user.deleted'],
        }),
      ).toEqual({
        ...endpoint,
        description: 'renamed',
        url: 'https://other.example.com/hook',
        enabledEvents: ['user.privacy.updated', 'user.deleted'],
      });
      expect(await s.webhooks.list(acme, groupId)).toEqual([
        {
          ...endpoint,
          description: 'renamed',
          url: 'https://other.example.com/hook',
          enabledEvents: ['user.privacy.updated', 'user.deleted'],
        },
      ]);
      // The secret is not touched by an update.
      expect(s.cipher.decrypt((await endpointRow(created.id)).secretCiphertext)).toBe(
        created.secret,
      );
    });

    it('refuses a URL the SSRF rules forbid before the group, changing nothing', async () => {
      const groupId = await newGroup();
      const created = await create(groupId);
      const before = await webhookTables();
      for (const group of [groupId, 987_654_321]) {
        expect(
          await apiErrorOf(
            s.webhooks.update(acme, group, created.id, {
              url: 'https://127.0.0.1/in',
              description: 'changed',
            }),
          ),
        ).toEqual({ status: 400, error: WebhookErrors.InvalidUrl });
      }
      expect(await webhookTables()).toEqual(before);
    });

    it("disabling cancels that endpoint's pending deliveries only; re-enabling ends the failure streak", async () => {
      const groupId = await newGroup();
      const endpoint = (await create(groupId)).id;
      const sibling = (await create(groupId)).id;
      for (let i = 0; i < 3; i++) await event(groupId);
      const [delivered, failed] = await deliveriesOf(endpoint);
      await leases.finish(delivered.id, {
        status: 'delivered',
        statusCode: 200,
        error: null,
        countsAsAttempt: true,
      });
      await leases.finish(failed.id, {
        status: 'failed',
        statusCode: 500,
        error: 'endpoint answered 500',
        countsAsAttempt: true,
      });
      await t.rows(
        `UPDATE webhook_endpoints SET failing_since = now() - interval '1 day' WHERE id = $1`,
        [endpoint],
      );

      expect(
        await s.webhooks.update(acme, groupId, endpoint, { status: 'disabled' }),
      ).toMatchObject({ status: 'disabled' });
      expect((await deliveriesOf(endpoint)).map((delivery) => delivery.status)).toEqual([
        'delivered',
        'failed',
        'cancelled',
      ]);
      expect((await deliveriesOf(sibling)).map((delivery) => delivery.status)).toEqual([
        'pending',
        'pending',
        'pending',
      ]);
      // Disabled: the streak stays (only re-enabling ends it), the outbox skips the endpoint.
      expect((await endpointRow(endpoint)).failingSince).not.toBeNull();
      await event(groupId);
      expect(await deliveriesOf(endpoint)).toHaveLength(3);

      expect(await s.webhooks.update(acme, groupId, endpoint, { status: 'enabled' })).toMatchObject(
        { status: 'enabled' },
      );
      expect(await endpointRow(endpoint)).toMatchObject({ status: 'enabled', failingSince: null });
      // What was cancelled stays cancelled; new events reach it again.
      await event(groupId);
      expect((await deliveriesOf(endpoint)).map((delivery) => delivery.status)).toEqual([
        'delivered',
        'failed',
        'cancelled',
        'pending',
      ]);
    });
  });

  it("remove deletes the endpoint with its deliveries and their log; the others' stay", async () => {
    const groupId = await newGroup();
    const endpoint = (await create(groupId)).id;
    const sibling = (await create(groupId)).id;
    await event(groupId);
    const [delivery] = await deliveriesOf(endpoint);
    await leases.finish(
      delivery.id,
      { status: 'pending', statusCode: 503, error: 'endpoint answered 503', countsAsAttempt: true },
      { startedAt: new Date(), durationMs: 5, statusCode: 503, error: null, responseExcerpt: '' },
    );
    await s.webhooks.remove(acme, groupId, endpoint);
    expect(await t.rows('SELECT id FROM webhook_endpoints WHERE group_id = $1', [groupId])).toEqual(
      [{ id: sibling }],
    );
    expect(await deliveriesOf(endpoint)).toEqual([]);
    expect(
      await t.rows('SELECT count(*)::int AS n FROM delivery_attempts WHERE delivery_id = $1', [
        delivery.id,
      ]),
    ).toEqual([{ n: 0 }]);
    expect(await deliveriesOf(sibling)).toHaveLength(1);
    expect(await apiErrorOf(s.webhooks.remove(acme, groupId, endpoint))).toEqual({
      status: 400,
      error: WebhookErrors.NotFound,
    });
  });

  it('rotating the secret keeps the previous one for exactly 24 h; a second rotation drops the first', async () => {
    const groupId = await newGroup();
    const created = await create(groupId);
    const now = Date.parse('2031-01-02T03:04:05.006Z');
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
    try {
      const rotated = await s.webhooks.rotateSecret(acme, groupId, created.id);
      const { secret: _old, ...endpoint } = created;
      expect(rotated).toEqual({
        ...endpoint,
        secret: expect.stringMatching(/^whsec_/) as unknown,
      });
      expect(rotated.secret).not.toBe(created.secret);
      const row = await endpointRow(created.id);
      expect(s.cipher.decrypt(row.secretCiphertext)).toBe(rotated.secret);
      expect(s.cipher.decrypt(row.previousSecretCiphertext as string)).toBe(created.secret);
      expect(row.previousSecretExpiresAt).toEqual(new Date(now + 24 * HOUR_MS));

      clock.mockReturnValue(now + HOUR_MS);
      const again = await s.webhooks.rotateSecret(acme, groupId, created.id);
      const after = await endpointRow(created.id);
      expect(s.cipher.decrypt(after.secretCiphertext)).toBe(again.secret);
      expect(s.cipher.decrypt(after.previousSecretCiphertext as string)).toBe(rotated.secret);
      expect(after.previousSecretExpiresAt).toEqual(new Date(now + 25 * HOUR_MS));
    } finally {
      clock.mockRestore();
    }
  });

  it('a test event goes to that endpoint only, whatever the types it enables', async () => {
    const groupId = await newGroup();
    const endpoint = (await create(groupId, ['user.deleted'])).id;
    const sibling = (await create(groupId, [...SUBSCRIBABLE_EVENTS])).id;
    const { eventId } = await s.webhooks.sendTest(acme, groupId, endpoint);
    expect(
      await t.rows(
        `SELECT id, enterprise_id AS "enterpriseId", group_id AS "groupId", type, payload,
                encrypted_pii AS "encryptedPii"
           FROM events WHERE group_id = $1`,
        [groupId],
      ),
    ).toEqual([
      {
        id: eventId,
        enterpriseId: acme,
        groupId,
        type: 'webhook.test',
        payload: { groupID: groupId, webhookID: endpoint },
        encryptedPii: null,
      },
    ]);
    expect(await deliveriesOf(endpoint)).toEqual([
      { id: expect.any(String) as unknown, eventId, status: 'pending', replay: false },
    ]);
    expect(await deliveriesOf(sibling)).toEqual([]);
  });

  describe('the delivery log', () => {
    it('newest first, with its event type, attempts in order, the next attempt only while pending', async () => {
      const groupId = await newGroup();
      const endpoint = (await create(groupId, [...SUBSCRIBABLE_EVENTS])).id;
      await event(groupId, EventTypes.UserCreated);
      await event(groupId, EventTypes.Deleted);
      const [first, second] = await deliveriesOf(endpoint);
      await t.rows(
        `UPDATE webhook_deliveries SET created_at = now() - interval '1 minute' WHERE id = $1`,
        [first.id],
      );
      const started = [
        new Date('2031-01-01T00:00:00.000Z'),
        new Date('2031-01-01T00:00:05.000Z'),
        new Date('2031-01-01T00:05:05.000Z'),
      ];
      const retryAt = new Date('2031-01-01T00:35:05.000Z');
      await leases.finish(
        first.id,
        {
          status: 'pending',
          statusCode: null,
          error: 'timeout',
          countsAsAttempt: true,
          nextAttemptAt: retryAt,
        },
        {
          startedAt: started[0],
          durationMs: 15_000,
          statusCode: null,
          error: 'timeout',
          responseExcerpt: null,
        },
      );
      await leases.finish(
        first.id,
        {
          status: 'pending',
          statusCode: null,
          error: 'x',
          countsAsAttempt: true,
          nextAttemptAt: retryAt,
        },
        {
          startedAt: started[1],
          durationMs: 3,
          statusCode: null,
          error: 'connection failed',
          responseExcerpt: null,
        },
      );
      await leases.finish(
        first.id,
        {
          status: 'pending',
          statusCode: 503,
          error: 'endpoint answered 503',
          countsAsAttempt: true,
          nextAttemptAt: retryAt,
        },
        {
          startedAt: started[2],
          durationMs: 40,
          statusCode: 503,
          error: null,
          responseExcerpt: 'busy',
        },
      );
      await leases.finish(second.id, {
        status: 'failed',
        statusCode: 500,
        error: 'endpoint answered 500',
        countsAsAttempt: true,
      });
      const created = await t.rows<{ id: string; createdAt: Date }>(
        'SELECT id, created_at AS "createdAt" FROM webhook_deliveries WHERE endpoint_id = $1',
        [endpoint],
      );
      const createdAt = (id: string) =>
        created.find((row) => row.id === id)?.createdAt.toISOString();

      expect(await s.webhooks.listDeliveries(acme, groupId, endpoint)).toEqual([
        {
          id: second.id,
          eventId: second.eventId,
          eventType: 'user.deleted',
          status: 'failed',
          attempts: 1,
          nextAttemptAt: null,
          createdAt: createdAt(second.id),
          attemptLog: [],
        },
        {
          id: first.id,
          eventId: first.eventId,
          eventType: 'user.created',
          status: 'pending',
          attempts: 3,
          nextAttemptAt: retryAt.toISOString(),
          createdAt: createdAt(first.id),
          attemptLog: [
            {
              startedAt: started[0].toISOString(),
              durationMs: 15_000,
              statusCode: null,
              error: 'timeout',
            },
            {
              startedAt: started[1].toISOString(),
              durationMs: 3,
              statusCode: null,
              error: 'connection failed',
            },
            { startedAt: started[2].toISOString(), durationMs: 40, statusCode: 503, error: null },
          ],
        },
      ]);
    });

    it('lists at most the 100 newest', async () => {
      const groupId = await newGroup();
      const endpointId = (await create(groupId)).id;
      const ids = await t.dueDeliveries({ enterpriseId: acme, groupId, endpointId }, 101);
      // Created a millisecond apart, the first oldest.
      await t.rows(
        `UPDATE webhook_deliveries d SET created_at = now() + o.n * interval '1 millisecond'
           FROM unnest($1::uuid[]) WITH ORDINALITY AS o(id, n) WHERE d.id = o.id`,
        [ids],
      );
      const listed = await s.webhooks.listDeliveries(acme, groupId, endpointId);
      expect(listed.map((delivery) => delivery.id)).toEqual(ids.slice(1).reverse());
    });
  });

  describe('redeliver', () => {
    it('makes a finished delivery pending and due now, for the next sweep to take', async () => {
      const groupId = await newGroup();
      const endpoint = (await create(groupId)).id;
      await event(groupId);
      const [delivery] = await deliveriesOf(endpoint);
      await leases.finish(delivery.id, {
        status: 'failed',
        statusCode: 500,
        error: 'endpoint answered 500',
        countsAsAttempt: true,
        nextAttemptAt: new Date(Date.now() + 10 * HOUR_MS),
      });
      await t.rows(
        `UPDATE webhook_deliveries SET queued_at = now(), queue_job_id = 'deliver:1' WHERE id = $1`,
        [delivery.id],
      );
      await s.webhooks.redeliver(acme, groupId, endpoint, delivery.id);
      expect(
        await t.one(
          `SELECT status, attempts, queued_at AS "queuedAt", next_attempt_at <= now() AS due
             FROM webhook_deliveries WHERE id = $1`,
          [delivery.id],
        ),
      ).toEqual({ status: 'pending', attempts: 1, queuedAt: null, due: true });
    });

    it("refuses a malformed, unknown or another endpoint's delivery, changing nothing", async () => {
      const groupId = await newGroup();
      const endpoint = (await create(groupId)).id;
      const sibling = (await create(groupId)).id;
      await event(groupId);
      const [ofSibling] = await deliveriesOf(sibling);
      await leases.finish(ofSibling.id, {
        status: 'failed',
        statusCode: 500,
        error: 'endpoint answered 500',
        countsAsAttempt: true,
      });
      const before = await webhookTables();
      for (const deliveryId of [
        ofSibling.id,
        randomUUID(),
        'not-a-uuid',
        '',
        ofSibling.id.toUpperCase(),
      ]) {
        expect({
          deliveryId,
          answer: await apiErrorOf(s.webhooks.redeliver(acme, groupId, endpoint, deliveryId)),
        }).toEqual({ deliveryId, answer: { status: 400, error: WebhookErrors.DeliveryNotFound } });
      }
      expect(await webhookTables()).toEqual(before);
    });
  });

  describe('replay', () => {
    /** A day a month ago, UTC. */
    const since = new Date(
      `${new Date(Date.now() - 30 * 24 * HOUR_MS).toISOString().slice(0, 10)}T00:00:00.000Z`,
    );
    const until = new Date(since.getTime() + 24 * HOUR_MS);

    /** An event of `type` created at `createdAt` (the outbox's row, backdated). */
    const eventAt = async (
      groupId: number,
      createdAt: Date,
      type: string = EventTypes.SessionResult,
      enterpriseId = acme,
    ) => {
      const id = await t.event(enterpriseId, groupId, { type, payload: { groupID: groupId } });
      await t.rows('UPDATE events SET created_at = $2 WHERE id = $1', [id, createdAt]);
      return id;
    };
    const replay = (groupId: number, endpoint: string, window: { since: string; until?: string }) =>
      s.webhooks.replay(acme, groupId, endpoint, window);

    it('replays the enabled types of [since, until) as new deliveries marked replay, oldest first', async () => {
      const groupId = await newGroup();
      const endpoint = (await create(groupId, ['user.created', 'user.session.result'])).id;
      const ms = (date: Date, offset: number) => new Date(date.getTime() + offset);
      const atSince = await eventAt(groupId, since, EventTypes.UserCreated);
      const justBeforeUntil = await eventAt(groupId, ms(until, -1));
      const inside = await eventAt(groupId, ms(since, HOUR_MS));
      // Outside the window, of a type the endpoint does not enable, a test event, another group's.
      await eventAt(groupId, ms(since, -1));
      await eventAt(groupId, until);
      await eventAt(groupId, ms(since, HOUR_MS), EventTypes.PrivacyUpdated);
      await eventAt(groupId, ms(since, HOUR_MS), EventTypes.Test);
      await eventAt(await newGroup(), ms(since, HOUR_MS));
      // An event of another enterprise filed under this group id is never this endpoint's.
      await eventAt(groupId, ms(since, HOUR_MS), EventTypes.UserCreated, globex);

      expect(
        await replay(groupId, endpoint, { since: since.toISOString(), until: until.toISOString() }),
      ).toEqual({ replayed: 3 });
      expect(
        await t.rows(
          `SELECT d.event_id AS "eventId", d.status, d.attempts, d.replay
             FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
            WHERE d.endpoint_id = $1 ORDER BY e.created_at`,
          [endpoint],
        ),
      ).toEqual(
        [atSince, inside, justBeforeUntil].map((eventId) => ({
          eventId,
          status: 'pending',
          attempts: 0,
          replay: true,
        })),
      );
      // Again: more replays of the same events (originals are unique per endpoint, replays not).
      expect(
        await replay(groupId, endpoint, { since: since.toISOString(), until: until.toISOString() }),
      ).toEqual({ replayed: 3 });
      expect(await deliveriesOf(endpoint)).toHaveLength(6);
    });

    it('takes the types the endpoint enables now, and until defaults to now', async () => {
      const groupId = await newGroup();
      const endpoint = (await create(groupId)).id;
      const privacy = await event(groupId, EventTypes.PrivacyUpdated);
      const created = await event(groupId, EventTypes.UserCreated);
      await eventAt(groupId, new Date(Date.now() + HOUR_MS), EventTypes.UserCreated);
      const window = { since: new Date(Date.now() - HOUR_MS).toISOString() };
      expect(await replay(groupId, endpoint, window)).toEqual({ replayed: 1 });
      await s.webhooks.update(acme, groupId, endpoint, {
        enabledEvents: ['user.privacy.updated'],
      });
      expect(await replay(groupId, endpoint, window)).toEqual({ replayed: 1 });
      expect(
        (await deliveriesOf(endpoint)).map(({ eventId, replay }) => ({ eventId, replay })),
      ).toEqual(
        expect.arrayContaining([
          { eventId: created, replay: false },
          { eventId: created, replay: true },
          { eventId: privacy, replay: true },
        ]) as unknown,
      );
      expect(await deliveriesOf(endpoint)).toHaveLength(3);
    });

    it('refuses a window in the future or empty, before looking at the group', async () => {
      const groupId = await newGroup();
      const endpoint = (await create(groupId)).id;
      const future = new Date(Date.now() + 60_000).toISOString();
      for (const group of [groupId, 987_654_321]) {
        expect(await apiErrorOf(replay(group, endpoint, { since: future }))).toEqual({
          status: 400,
          error: WebhookErrors.SinceInFuture,
        });
        for (const end of [since, new Date(since.getTime() - 1)]) {
          expect(
            await apiErrorOf(
              replay(group, endpoint, { since: since.toISOString(), until: end.toISOString() }),
            ),
          ).toEqual({ status: 400, error: WebhookErrors.UntilNotAfterSince });
        }
      }
    });

    it('refuses a disabled endpoint with 409, creating nothing', async () => {
      const groupId = await newGroup();
      const endpoint = (await create(groupId)).id;
      await eventAt(groupId, since, EventTypes.UserCreated);
      await s.webhooks.update(acme, groupId, endpoint, { status: 'disabled' });
      expect(
        await apiErrorOf(
          replay(groupId, endpoint, { since: since.toISOString(), until: until.toISOString() }),
        ),
      ).toEqual({ status: 409, error: WebhookErrors.ReplayDisabledEndpoint });
      expect(await deliveriesOf(endpoint)).toEqual([]);
    });

    it(`replays at most ${REPLAY_MAX_EVENTS} events; a window holding more is refused whole`, async () => {
      const groupId = await newGroup();
      const endpoint = (await create(groupId)).id;
      const ids = Array.from({ length: REPLAY_MAX_EVENTS + 1 }, () => newEventId());
      await t.rows(
        `INSERT INTO events (id, enterprise_id, group_id, type, payload, created_at)
         SELECT id, $2, $3, 'user.created', '{}', $4::timestamptz + n * interval '1 millisecond'
           FROM unnest($1::text[]) WITH ORDINALITY AS e(id, n)`,
        [ids, acme, groupId, since],
      );
      const lastAt = new Date(since.getTime() + (REPLAY_MAX_EVENTS + 1));
      expect(
        await apiErrorOf(
          replay(groupId, endpoint, {
            since: since.toISOString(),
            until: new Date(lastAt.getTime() + 1).toISOString(),
          }),
        ),
      ).toEqual({ status: 400, error: WebhookErrors.ReplayTooLarge });
      expect(await deliveriesOf(endpoint)).toEqual([]);
      // Without the last one, the window holds exactly the bound.
      expect(
        await replay(groupId, endpoint, {
          since: since.toISOString(),
          until: lastAt.toISOString(),
        }),
      ).toEqual({ replayed: REPLAY_MAX_EVENTS });
    });
  });
});
