/**
 * The outbox (src/webhooks/events/, docs/webhooks.md "Event types and enabledEvents"), written by
 * the real services on PostgreSQL. Pinned down:
 * - which change writes which event, with which payload: a new participant's first session
 *   `user.created` {groupID, userIdentifier} (the normalised email only encrypted), and none for
 *   their later sessions; an ingested result `user.session.result` {groupID, sessionID,
 *   externalUserID, timestamp = completedAt}, once however often it is posted; a level change —
 *   raise, lowering, consent withdrawal — `user.privacy.updated` {groupID, userIdentifier,
 *   privacyLevel, previousPrivacyLevel, timestamp}, and none when the level stays;
 * - each event gets one delivery per endpoint of its group that is enabled and enables its type:
 *   none for a disabled endpoint, another group's, or one that does not take the type;
 * - the workers are woken (NOTIFY) when the change commits, not before, and never for a change
 *   rolled back (then no event and no delivery remain either).
 */
import { Client, type Notification } from 'pg';
import { EventTypes, SUBSCRIBABLE_EVENTS } from '../../src/webhooks/events/events';
import { DELIVERIES_CHANNEL } from '../../src/webhooks/events/events';
import { databaseUrl } from '../support/databases';
import { TestDatabase } from './support';
import {
  atFrozenTime,
  type Group,
  type Person,
  type Services,
  servicesOn,
  Tenants,
} from './tenant-fixtures';

const CHANGED_AT = new Date('2026-10-11T12:13:14.015Z');

describe('The outbox: events and their deliveries (PostgreSQL)', () => {
  let t: TestDatabase;
  let s: Services;
  let tenants: Tenants;
  let acme: string;

  beforeAll(async () => {
    t = await TestDatabase.create();
    s = servicesOn(t);
    tenants = new Tenants(t, s);
    acme = await t.enterprise('Acme');
  });
  afterAll(() => t.close());

  /** A group with an endpoint taking every type, to see each event's delivery. */
  const groupWithEndpoint = async (): Promise<{ group: Group; endpoint: string }> => {
    const group = await tenants.group(acme);
    const { id } = await s.webhooks.create(acme, group.groupId, {
      url: 'https://hooks.example.com/all',
      description: 'everything',
      enabledEvents: [...SUBSCRIBABLE_EVENTS],
    });
    return { group, endpoint: id };
  };

  interface StoredEvent {
    id: string;
    type: string;
    payload: Record<string, unknown>;
    pii: Record<string, unknown> | null;
    endpoints: string[];
  }

  /** The group's events, oldest first, their personal data opened, with their deliveries. */
  const eventsOf = async (groupId: number): Promise<StoredEvent[]> => {
    const rows = await t.rows<{
      id: string;
      type: string;
      payload: Record<string, unknown>;
      encryptedPii: string | null;
      endpoints: string[];
    }>(
      `SELECT e.id, e.type, e.payload, e.encrypted_pii AS "encryptedPii",
              coalesce(array_agg(d.endpoint_id ORDER BY d.endpoint_id)
                         FILTER (WHERE d.id IS NOT NULL), '{}') AS endpoints
         FROM events e LEFT JOIN webhook_deliveries d ON d.event_id = e.id
        WHERE e.group_id = $1 AND e.enterprise_id = $2
        GROUP BY e.id ORDER BY e.created_at, e.id`,
      [groupId, acme],
    );
    return rows.map(({ encryptedPii, ...row }) => ({
      ...row,
      pii: encryptedPii === null ? null : (JSON.parse(s.cipher.decrypt(encryptedPii)) as never),
    }));
  };

  describe('which change writes which event', () => {
    let group: Group;
    let endpoint: string;
    let person: Person;
    let firstSession: string;

    beforeAll(async () => {
      ({ group, endpoint } = await groupWithEndpoint());
      const joined = await tenants.join(group, '  Ana.Example@Example.COM ');
      person = joined.person;
      firstSession = joined.sessionId;
    });

    it("a new participant's first session: user.created, the normalised email only encrypted", async () => {
      expect(await eventsOf(group.groupId)).toEqual([
        {
          id: expect.stringMatching(/^evt_[0-9a-f]{48}$/) as unknown,
          type: 'user.created',
          payload: { groupID: group.groupId, userIdentifier: person.externalId },
          pii: { email: 'ana.example@example.com' },
          endpoints: [endpoint],
        },
      ]);
      expect(await t.rows(`SELECT 1 FROM events WHERE encrypted_pii LIKE '%ana.example%'`)).toEqual(
        [],
      );
    });

    it('their later sessions in the group write none', async () => {
      const before = await eventsOf(group.groupId);
      await tenants.createSession(group, person.externalId);
      await tenants.createSession(group, person.externalId, 'with-a-key');
      expect(await eventsOf(group.groupId)).toEqual(before);
    });

    it('an ingested result: user.session.result at its completion time, once however often it is posted', async () => {
      const completedAt = '2026-09-08T07:06:05.000Z';
      await tenants.complete(firstSession, { completedAt });
      await tenants.complete(firstSession, { completedAt });
      const results = (await eventsOf(group.groupId)).filter(
        (event) => event.type === EventTypes.SessionResult,
      );
      expect(results).toEqual([
        {
          id: expect.any(String) as unknown,
          type: 'user.session.result',
          payload: {
            groupID: group.groupId,
            sessionID: firstSession,
            externalUserID: person.externalId,
            timestamp: completedAt,
          },
          pii: null,
          endpoints: [endpoint],
        },
      ]);
    });

    it('a level change: user.privacy.updated with both levels, for raises, lowerings and a consent withdrawal; none when it stays', async () => {
      const member = {
        enterpriseId: acme,
        participantId: person.participantId,
        groupId: group.groupId,
        externalId: person.externalId,
      };
      await atFrozenTime(CHANGED_AT, async () => {
        await tenants.setLevel(person, group, 3);
        await tenants.setLevel(person, group, 3);
        await tenants.setLevel(person, group, 1, { sessionId: firstSession });
        await s.choices.setConsent(member, true, 'settings');
        await s.choices.setConsent(member, false, 'settings');
        // Consent again: the level stays 0, so no event.
        await s.choices.setConsent(member, true, 'settings');
      });
      const updates = (await eventsOf(group.groupId)).filter(
        (event) => event.type === EventTypes.PrivacyUpdated,
      );
      const update = (privacyLevel: number, previousPrivacyLevel: number) => ({
        id: expect.any(String) as unknown,
        type: 'user.privacy.updated',
        payload: {
          groupID: group.groupId,
          userIdentifier: person.externalId,
          privacyLevel,
          previousPrivacyLevel,
          timestamp: CHANGED_AT.toISOString(),
        },
        pii: null,
        endpoints: [endpoint],
      });
      expect(updates).toEqual([update(3, 0), update(1, 3), update(0, 1)]);
    });
  });

  describe('deliveries: one per enabled endpoint of the group that takes the type', () => {
    it.each(SUBSCRIBABLE_EVENTS.map((type) => [type]))('%s', async (type) => {
      const group = await tenants.group(acme);
      const endpoint = async (enabledEvents?: string[], groupId = group.groupId) =>
        (
          await s.webhooks.create(acme, groupId, {
            url: 'https://hooks.example.com/in',
            description: 'receiver',
            enabledEvents,
          })
        ).id;
      const takesDefault = await endpoint();
      const takesAll = await endpoint([...SUBSCRIBABLE_EVENTS]);
      const takesOnlyThis = await endpoint([type]);
      const takesAllOthers = await endpoint(SUBSCRIBABLE_EVENTS.filter((other) => other !== type));
      const disabled = await endpoint([...SUBSCRIBABLE_EVENTS]);
      await s.webhooks.update(acme, group.groupId, disabled, { status: 'disabled' });
      await endpoint([...SUBSCRIBABLE_EVENTS], (await tenants.group(acme)).groupId);

      const id = await s.events.insert({
        enterpriseId: acme,
        groupId: group.groupId,
        type,
        payload: { groupID: group.groupId, marker: type },
        pii: { secretField: 'kept apart' },
      });
      const expected = [
        ...(type === EventTypes.UserCreated || type === EventTypes.SessionResult
          ? [takesDefault]
          : []),
        takesAll,
        takesOnlyThis,
      ].sort();
      expect(await eventsOf(group.groupId)).toEqual([
        {
          id,
          type,
          payload: { groupID: group.groupId, marker: type },
          pii: { secretField: 'kept apart' },
          endpoints: expected,
        },
      ]);
      expect(expected).not.toContain(takesAllOthers);
      expect(
        await t.rows(
          `SELECT status, attempts, replay, locked_until AS "lockedUntil", queued_at AS "queuedAt"
             FROM webhook_deliveries WHERE event_id = $1 GROUP BY 1, 2, 3, 4, 5`,
          [id],
        ),
      ).toEqual([
        { status: 'pending', attempts: 0, replay: false, lockedUntil: null, queuedAt: null },
      ]);
    });
  });

  describe('waking the workers (NOTIFY at commit)', () => {
    const SENTINEL = 'outbox_test_sentinel';
    let listener: Client;
    const heard: string[] = [];
    const waiters: { channel: string; resolve: () => void }[] = [];

    beforeAll(async () => {
      listener = new Client({ connectionString: databaseUrl(t.name) });
      await listener.connect();
      listener.on('notification', (message: Notification) => {
        heard.push(message.channel);
        for (const waiter of waiters.filter((w) => w.channel === message.channel)) {
          waiter.resolve();
          waiters.splice(waiters.indexOf(waiter), 1);
        }
      });
      await listener.query(`LISTEN ${DELIVERIES_CHANNEL}`);
      await listener.query(`LISTEN ${SENTINEL}`);
    });
    afterAll(() => listener.end());

    /** Resolves at the next notification on `channel` (fails after 5 s). */
    const next = (channel: string) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no NOTIFY on ${channel}`)), 5_000);
        waiters.push({
          channel,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    /**
     * Everything heard up to a NOTIFY committed now on another connection: notifications arrive
     * in commit order, so what was not heard by then was not sent by anything committed before.
     */
    const heardUpToNow = async (): Promise<string[]> => {
      heard.length = 0;
      const sentinel = next(SENTINEL);
      await t.rows(`SELECT pg_notify('${SENTINEL}', '')`);
      await sentinel;
      return heard.filter((channel) => channel !== SENTINEL);
    };

    it('at commit, not before', async () => {
      const { group } = await groupWithEndpoint();
      await heardUpToNow();
      const woken = next(DELIVERIES_CHANNEL);
      await s.db.transaction(async (sql) => {
        await s.events.insert(
          {
            enterpriseId: acme,
            groupId: group.groupId,
            type: EventTypes.UserCreated,
            payload: { groupID: group.groupId },
          },
          sql,
        );
        expect(await heardUpToNow()).toEqual([]);
      });
      await woken;
    });

    it('never for a change rolled back, which leaves no event and no delivery', async () => {
      const { group } = await groupWithEndpoint();
      await heardUpToNow();
      await expect(
        s.db.transaction(async (sql) => {
          await s.events.insert(
            {
              enterpriseId: acme,
              groupId: group.groupId,
              type: EventTypes.Deleted,
              payload: { groupID: group.groupId },
            },
            sql,
          );
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      expect(await heardUpToNow()).toEqual([]);
      expect(await eventsOf(group.groupId)).toEqual([]);
    });
  });
});
