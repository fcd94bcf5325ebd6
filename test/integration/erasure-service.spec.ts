/**
 * ErasureService below HTTP, on real PostgreSQL (docs/privacy.md, "I can be forgotten"; docs/design.md,
 * "Table ownership"). The participant's data is made as production makes it (session creation,
 * ingestion, their choices, email requests, the outbox and its delivery log, link bindings, a
 * released metrics window and the accountant's ledger), then erased. Pinned down:
 * - afterwards no row of any table holds their external ID, internal id, email, email look-up
 *   hash, session ids or a word only their transcript held;
 * - every table holds exactly what the docs say stays: the others' rows untouched, the group
 *   comparisons and day counts less exactly their share, the metric windows and their releases
 *   (and the second version's cells) as they were, her results off the pending list, her spend
 *   off the accountant's ledger, one anonymous consent-ledger row, and a `user.deleted` per group
 *   (external ID only encrypted), delivered only to endpoints that enable it; a table nobody
 *   classified fails the test;
 * - who may erase whom: another enterprise, another participant, an unknown or malformed ID erase
 *   nothing and answer false; the participant themselves and the operator may;
 * - one transaction: a failure midway leaves the database as it was; a deadlock is retried (three
 *   attempts in all), any other error is not;
 * - the same email afterwards is a new participant with a new external ID.
 */
import { featureBucket } from '../../src/metrics/rollups/feature-buckets';
import { ErasureService } from '../../src/erasure/erasure.service';
import { EmailSendingRepository } from '../../src/interact/sending/email-sending.repository';
import { ConsentLedgerRepository } from '../../src/participants/consent-ledger.repository';
import { DeliveryLeaseRepository } from '../../src/webhooks/delivery/delivery-lease.repository';
import { EventsRepository } from '../../src/webhooks/events/events.repository';
import { SUBSCRIBABLE_EVENTS } from '../../src/webhooks/events/events';
import { conversation } from '../support/engine';
import { newExternalId, TestDatabase } from './support';
import {
  atFrozenTime,
  type Group,
  type Person,
  rowsContaining,
  type Services,
  servicesOn,
  snapshot,
  Tenants,
} from './tenant-fixtures';

const DAY_MS = 86_400_000;
/** A UTC day `daysAgo` days back, and a time on it. */
const dayAgo = (daysAgo: number): string =>
  new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);
const at = (day: string): string => `${day}T10:00:00.000Z`;
/** The `day`th of the month two months back: its window is long due (ended, grace passed). */
const twoMonthsBack = (day: number): string => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, day))
    .toISOString()
    .slice(0, 10);
};

/** The fixed instant of the erasure (the clock of the `user.deleted` timestamp). */
const ERASED_AT = new Date('2031-05-06T07:08:09.010Z');
/** PostgreSQL's deadlock_detected, as the driver reports it. */
const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

describe('ErasureService (PostgreSQL)', () => {
  let t: TestDatabase;
  let s: Services;
  let tenants: Tenants;
  let n = 0;

  beforeAll(async () => {
    t = await TestDatabase.create();
    s = servicesOn(t);
    tenants = new Tenants(t, s);
  });
  afterAll(() => t.close());

  /** A fresh enterprise (floors of 1: a release of one participant) with `groups` groups. */
  const enterpriseWith = async (name: string, groups: number): Promise<Group[]> => {
    const enterpriseId = await t.enterprise(name);
    await t.rows(
      `UPDATE enterprises SET min_cohort_scores = 1, min_cohort_words = 1, min_word_speakers = 1
        WHERE id = $1`,
      [enterpriseId],
    );
    return Promise.all(
      Array.from({ length: groups }, (_, index) => tenants.group(enterpriseId, `Team ${index}`)),
    );
  };

  /** Someone in `group` with one completed check-in (and an idempotent creation). */
  const someoneIn = async (group: Group): Promise<Person> => {
    n += 1;
    const { person, sessionId } = await tenants.join(group, `someone${n}@example.com`, `key-${n}`);
    await tenants.complete(sessionId, { completedAt: at(dayAgo(1)), features: { pitch: n } });
    return person;
  };

  const erasureRowsOf = (enterpriseId: string) =>
    t.rows(
      `SELECT participant_id AS "participantId", group_id AS "groupId", change, via,
              from_value AS "from", to_value AS "to", session_id AS "sessionId"
         FROM consent_ledger WHERE enterprise_id = $1 AND change = 'erasure'`,
      [enterpriseId],
    );

  describe('an erasure of a participant with data of every kind', () => {
    let teamA: Group;
    let teamB: Group;
    let victim: Person;
    let colleague: Person;
    let quietParticipant: string;
    let victimSessions: string[];
    let colleagueSessions: string[];
    let allEventsEndpoint: string;
    let defaultEndpoint: string;
    let before: Record<string, string[]>;
    /** Per table, the rows that are not the victim's, read before the erasure. */
    let othersRows: Record<string, string[]>;
    let erased: boolean;
    let foundBefore: Record<string, string[]>;
    /** What names the victim, and a word only their transcripts held. */
    const needles = () => [
      victim.externalId,
      victim.participantId,
      victim.email,
      victim.emailHash,
      'zanzibarite',
      ...victimSessions,
    ];
    const today = new Date(Date.now() - 60_000).toISOString();
    const [d1, d2, dToday] = [twoMonthsBack(10), twoMonthsBack(11), today.slice(0, 10)];

    /**
     * The victim's rows, table by table, named by what identifies them ($1: participant id,
     * $2: external ID), independently of how erasure finds them.
     */
    const VICTIM_ROWS: Record<string, string> = {
      participants: 'x.id = $1',
      memberships: 'x.participant_id = $1',
      membership_raise_answers: 'x.participant_id = $1',
      membership_browser_levels: 'x.participant_id = $1',
      sessions: 'x.participant_id = $1',
      idempotency_keys: 'x.external_id = $2',
      link_bindings: 'x.participant_id = $1',
      email_messages: 'x.participant_id = $1',
      sandbox_emails:
        'x.email_message_id IN (SELECT id FROM email_messages WHERE participant_id = $1)',
      consent_ledger: 'x.participant_id = $1',
      cohort_pending: 'x.session_id IN (SELECT session_id FROM sessions WHERE participant_id = $1)',
      // The accountant's ledger: what she spent goes with her (docs/metrics.md, "The budget").
      metric_budget_spend: 'x.participant_id = $1',
      events: `x.payload->>'userIdentifier' = $2 OR x.payload->>'externalUserID' = $2`,
      webhook_deliveries: `x.event_id IN (SELECT id FROM events
                             WHERE payload->>'userIdentifier' = $2 OR payload->>'externalUserID' = $2)`,
      delivery_attempts: `x.delivery_id IN (SELECT d.id FROM webhook_deliveries d
                            JOIN events e ON e.id = d.event_id
                           WHERE e.payload->>'userIdentifier' = $2 OR e.payload->>'externalUserID' = $2)`,
    };
    /** Nothing of these tables is a participant's: erasure leaves them exactly as they were. */
    const UNTOUCHED = [
      'enterprises',
      'api_keys',
      // The enterprise's declarations: the operator's and the enterprise's, nobody else's.
      'programme_declarations',
      'groups',
      'webhook_endpoints',
      // Browser identities name nobody (a hash of a cookie value); the victim's bindings go.
      'browsers',
      // Releases stay as they are (docs/metrics.md): changing them would let a reader subtract
      // the erased person. So do the second version's cells.
      'metric_windows',
      'metric_releases',
      'metric_release_words',
      'cohort_cells',
      'cohort_cell_words',
      'cohort_score_prefixes',
      'cohort_word_prefixes',
      'cohort_checks',
    ];
    /** Changed by exactly the victim's share (asserted value by value below). */
    const ROLLUPS = ['group_day_counts', 'group_feature_histograms', 'group_feature_values'];

    beforeAll(async () => {
      [teamA, teamB] = await enterpriseWith('Acme', 2);
      const acme = teamA.enterpriseId;
      allEventsEndpoint = (
        await s.webhooks.create(acme, teamA.groupId, {
          url: 'https://hooks.example.com/all',
          description: 'every type',
          enabledEvents: [...SUBSCRIBABLE_EVENTS],
        })
      ).id;
      defaultEndpoint = (
        await s.webhooks.create(acme, teamB.groupId, {
          url: 'https://hooks.example.com/default',
          description: 'the default types',
        })
      ).id;
      const browserOfVictim = 'a'.repeat(64);
      const browserOfColleague = 'c'.repeat(64);
      const anotherBrowser = 'f'.repeat(64);

      // The colleague: level 5 in A, two check-ins there.
      const joined = await tenants.join(teamA, 'colleague@example.com', 'colleague-key');
      colleague = joined.person;
      await tenants.setLevel(colleague, teamA, 5, {
        sessionId: joined.sessionId,
        madeIn: browserOfColleague,
      });
      await tenants.complete(joined.sessionId, {
        completedAt: at(d1),
        transcript: conversation('How are you?', 'sleep badly'),
        features: { pitch: 20, tempo: 10 },
      });
      const later = await tenants.createSession(teamA, colleague.externalId);
      colleagueSessions = [joined.sessionId, later.sessionID];

      // Someone at level 0 in A, in the same window.
      const quiet = await tenants.join(teamA, 'quiet@example.com');
      quietParticipant = quiet.person.participantId;
      await tenants.complete(quiet.sessionId, { completedAt: at(d1), features: { pitch: 99 } });

      // The victim: level 5 in A (raised on the page of their first check-in), 0 in B.
      const first = await tenants.join(teamA, 'victim@example.com', 'victim-key');
      victim = first.person;
      await tenants.setLevel(victim, teamA, 5, {
        sessionId: first.sessionId,
        madeIn: browserOfVictim,
      });
      const inB = await tenants.createSession(teamB, victim.email);
      const second = await tenants.createSession(teamA, victim.externalId);
      victimSessions = [first.sessionId, inB.sessionID, second.sessionID];
      await tenants.complete(first.sessionId, {
        completedAt: at(d1),
        transcript: conversation('How are you?', 'sleep zanzibarite'),
        features: { pitch: 10, tempo: 5 },
      });
      await tenants.complete(inB.sessionID, {
        completedAt: at(d2),
        transcript: conversation('And now?', 'zanzibarite again'),
        features: { pitch: 50 },
      });
      await tenants.complete(second.sessionID, {
        completedAt: at(d2),
        features: { pitch: 30, tempo: 15 },
      });
      // Their month is released (both groups at once); today's results stay pending. The victim
      // enters A's release (two of her three check-ins there) and spends budget on it.
      expect(await s.releaser.releaseEnterprise(acme)).toBe(1);
      // A second-version cell of A, as the upgrade left it: it never changes either.
      await t.rows(
        `WITH cell AS (
           INSERT INTO cohort_cells (group_id, series, first_day, last_day, sessions,
                                     hidden_participants, floor, participants, epsilon)
           VALUES ($1, 'words', '2025-01-01', '2025-01-02', 3, 3, 3, 3, 1) RETURNING id)
         INSERT INTO cohort_cell_words (cell_id, word, count) SELECT id, 'sleep', 3 FROM cell`,
        [teamA.groupId],
      );
      const third = await tenants.createSession(teamA, victim.externalId);
      victimSessions.push(third.sessionID);
      await tenants.complete(third.sessionID, { completedAt: today, features: { pitch: 40 } });
      await tenants.complete(later.sessionID, { completedAt: today, features: { pitch: 60 } });

      // Mails, preferences, browsers, the delivery log.
      expect(await s.interact.emailGroup(acme, teamA.groupId, 'checkinReminder')).toBe(3);
      await s.choices.setEmailPreferences(
        {
          enterpriseId: acme,
          participantId: victim.participantId,
          groupId: teamA.groupId,
          externalId: victim.externalId,
        },
        { checkinReminder: false, privacyRequest: true },
        'settings',
      );
      for (const [person, sessionId, browser] of [
        [victim, first.sessionId, browserOfVictim],
        [colleague, joined.sessionId, browserOfColleague],
      ] as const) {
        await s.browsers.mint(browser, `device-${browser}`);
        expect(
          await s.linkBindings.bind(`checkin:${sessionId}`, browser, person.participantId),
        ).toBe(browser);
        await s.memberships.keepRaise(person.participantId, teamA.groupId, anotherBrowser, 0);
      }
      const leases = new DeliveryLeaseRepository(t.db);
      const claimed = await leases.claimDue(100, 60_000);
      await leases.finishMany(
        claimed.map((delivery) => ({
          deliveryId: delivery.id,
          status: 'delivered',
          statusCode: 200,
          error: null,
          countsAsAttempt: true,
          attempt: {
            startedAt: new Date(),
            durationMs: 12,
            statusCode: 200,
            error: null,
            responseExcerpt: 'ok',
          },
        })),
      );

      before = await snapshot(t);
      foundBefore = await rowsContaining(t, needles());
      othersRows = {};
      for (const [table, clause] of Object.entries(VICTIM_ROWS)) {
        const rows = await t.rows<{ row: string }>(
          `WITH victim AS (SELECT $1::uuid AS id, $2::text AS ext)
           SELECT x::text AS row FROM "${table}" x
            WHERE NOT coalesce((${clause.replace(/\$1/g, '(SELECT id FROM victim)').replace(/\$2/g, '(SELECT ext FROM victim)')}), false)`,
          [victim.participantId, victim.externalId],
        );
        othersRows[table] = rows.map((row) => row.row).sort();
        // Every classified table held something of the victim's (or the test proves nothing).
        if (table !== 'sandbox_emails') {
          expect({ table, victims: before[table].length - othersRows[table].length }).not.toEqual({
            table,
            victims: 0,
          });
        }
      }

      erased = await atFrozenTime(ERASED_AT, () =>
        s.erasure.erase(victim.externalId, { by: 'enterprise', enterpriseId: acme }),
      );
    });

    it('answers true', () => {
      expect(erased).toBe(true);
    });

    it('leaves no row anywhere holding their external ID, id, email, look-up hash, sessions or words', async () => {
      expect(await rowsContaining(t, needles())).toEqual({});
      // Before, the identifiers were there (the email and the words only ever encrypted).
      expect(Object.keys(foundBefore).sort()).toEqual(
        [victim.externalId, victim.participantId, victim.emailHash, ...victimSessions].sort(),
      );
    });

    it('every table is classified: a new table must say what erasure does with it', async () => {
      const after = await snapshot(t);
      expect(Object.keys(after).sort()).toEqual(
        [...UNTOUCHED, ...ROLLUPS, ...Object.keys(VICTIM_ROWS)].sort(),
      );
    });

    it("leaves what is nobody's as it was: tenants, endpoints, browsers, metric windows and releases", async () => {
      const after = await snapshot(t);
      for (const table of UNTOUCHED) {
        expect({ table, rows: after[table] }).toEqual({ table, rows: before[table] });
      }
      expect(before.cohort_cells.length).toBeGreaterThan(0);
      // A's release counted the victim, and still does: nothing is re-drawn or subtracted.
      expect(
        await t.rows(
          `SELECT group_id AS "groupId", series, participants, released, left_out AS "leftOut"
             FROM metric_releases ORDER BY group_id, series`,
        ),
      ).toEqual([
        { groupId: teamA.groupId, series: 'scores', participants: 3, released: true, leftOut: 0 },
        { groupId: teamA.groupId, series: 'words', participants: 3, released: true, leftOut: 0 },
        // Her check-in in B went to A's release (contribution bounding): B counts it left out.
        { groupId: teamB.groupId, series: 'scores', participants: 0, released: false, leftOut: 1 },
        { groupId: teamB.groupId, series: 'words', participants: 0, released: false, leftOut: 1 },
      ]);
    });

    it("takes her results off the pending list and her spend off the accountant's ledger; the others' stay", async () => {
      expect(
        await t.rows(
          `SELECT s.participant_id AS "participantId", count(*)::int AS rows
             FROM cohort_pending p JOIN sessions s ON s.session_id = p.session_id
            GROUP BY 1`,
        ),
      ).toEqual([{ participantId: colleague.participantId, rows: 2 }]);
      expect(
        (
          await t.rows<{ participantId: string }>(
            'SELECT participant_id AS "participantId" FROM metric_budget_spend',
          )
        )
          .map((row) => row.participantId)
          .sort(),
      ).toEqual([colleague.participantId, quietParticipant].sort());
      expect(before.metric_budget_spend).toHaveLength(3);
    });

    it("keeps everyone else's rows exactly, and adds only the user.deleted events, their delivery and the ledger's erasure row", async () => {
      const after = await snapshot(t);
      const added = {
        events: await t.rows<{ row: string }>(
          `SELECT x::text AS row FROM events x WHERE type = 'user.deleted'`,
        ),
        webhook_deliveries: await t.rows<{ row: string }>(
          `SELECT x::text AS row FROM webhook_deliveries x
            WHERE event_id IN (SELECT id FROM events WHERE type = 'user.deleted')`,
        ),
        consent_ledger: await t.rows<{ row: string }>(
          `SELECT x::text AS row FROM consent_ledger x WHERE change = 'erasure'`,
        ),
      } as Record<string, { row: string }[]>;
      expect(
        Object.fromEntries(Object.entries(added).map(([k, rows]) => [k, rows.length])),
      ).toEqual({ events: 2, webhook_deliveries: 1, consent_ledger: 1 });
      for (const table of Object.keys(VICTIM_ROWS)) {
        const addedRows = new Set((added[table] ?? []).map((row) => row.row));
        expect({ table, rows: after[table].filter((row) => !addedRows.has(row)) }).toEqual({
          table,
          rows: othersRows[table],
        });
      }
      // What stays of the colleague, concretely: their sessions (with the percentiles computed
      // when the victim still counted), mails, idempotent answer and the log of their events.
      expect(
        await t.rows(
          `SELECT session_id AS "sessionId" FROM sessions WHERE participant_id = $1
            ORDER BY created_at`,
          [colleague.participantId],
        ),
      ).toEqual(colleagueSessions.map((sessionId) => ({ sessionId })));
      expect(
        await t.rows(`SELECT type FROM email_messages WHERE participant_id = $1 ORDER BY type`, [
          colleague.participantId,
        ]),
      ).toEqual([{ type: 'checkinReminder' }, { type: 'privacyNotice' }]);
      expect(await t.rows(`SELECT key FROM idempotency_keys`)).toEqual([{ key: 'colleague-key' }]);
      // Delivered before: the colleague's 4 events and the level-0 member's 2, one attempt each.
      expect(await t.rows(`SELECT count(*)::int AS n FROM delivery_attempts`)).toEqual([{ n: 6 }]);
    });

    it('takes exactly their share out of the day counts and the group comparisons', async () => {
      const days = (rows: string) =>
        t.rows(
          `SELECT group_id AS "groupId", day::text, sessions FROM group_day_counts ${rows}
            ORDER BY 1, 2`,
        );
      // Before: A had 3 on d1, 1 on d2 (the victim's), 2 today; B 1 on d2 (the victim's).
      expect(before.group_day_counts).toHaveLength(4);
      expect(await days('')).toEqual([
        { groupId: teamA.groupId, day: d1, sessions: 2 },
        { groupId: teamA.groupId, day: dToday, sessions: 1 },
      ]);
      // Only sessions shown at level 5 count: the colleague's in A (the victim's B check-in never did).
      expect(
        await t.rows(
          `SELECT group_id AS "groupId", name, value, count FROM group_feature_values
            ORDER BY 1, 2, 3`,
        ),
      ).toEqual([
        { groupId: teamA.groupId, name: 'pitch', value: 20, count: 1 },
        { groupId: teamA.groupId, name: 'pitch', value: 60, count: 1 },
        { groupId: teamA.groupId, name: 'tempo', value: 10, count: 1 },
      ]);
      expect(before.group_feature_values).toHaveLength(8); // and the victim's 5
      const buckets = (name: string, values: number[]) =>
        [...new Set(values.map(featureBucket))].map((bucket) => ({
          groupId: teamA.groupId,
          name,
          bucket,
          count: values.filter((value) => featureBucket(value) === bucket).length,
        }));
      expect(
        await t.rows(
          `SELECT group_id AS "groupId", name, bucket, count FROM group_feature_histograms
            ORDER BY 1, 2, 3`,
        ),
      ).toEqual(
        [...buckets('pitch', [20, 60]), ...buckets('tempo', [10])].sort(
          (a, b) => a.name.localeCompare(b.name) || a.bucket - b.bucket,
        ),
      );
    });

    it('writes user.deleted for each of their groups (external ID only encrypted), delivered only where enabled', async () => {
      const events = await t.rows<{
        id: string;
        groupId: number;
        payload: unknown;
        encryptedPii: string;
        createdAt: Date;
      }>(
        `SELECT id, group_id AS "groupId", payload, encrypted_pii AS "encryptedPii"
           FROM events WHERE type = 'user.deleted' ORDER BY group_id`,
      );
      expect(events.map(({ groupId, payload }) => ({ groupId, payload }))).toEqual([
        {
          groupId: teamA.groupId,
          payload: { groupID: teamA.groupId, timestamp: ERASED_AT.toISOString() },
        },
        {
          groupId: teamB.groupId,
          payload: { groupID: teamB.groupId, timestamp: ERASED_AT.toISOString() },
        },
      ]);
      for (const event of events) {
        expect(JSON.parse(s.cipher.decrypt(event.encryptedPii))).toEqual({
          userIdentifier: victim.externalId,
        });
      }
      // A's endpoint enables user.deleted; B's takes the default types only.
      expect(
        await t.rows(
          `SELECT event_id AS "eventId", endpoint_id AS "endpointId", status, attempts, replay
             FROM webhook_deliveries WHERE event_id = ANY ($1)`,
          [events.map((event) => event.id)],
        ),
      ).toEqual([
        {
          eventId: events[0].id,
          endpointId: allEventsEndpoint,
          status: 'pending',
          attempts: 0,
          replay: false,
        },
      ]);
      expect(
        await t.rows('SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1', [
          defaultEndpoint,
        ]),
      ).toEqual([{ n: 0 }]);
    });

    it('keeps one anonymous erasure row in the ledger', async () => {
      expect(await erasureRowsOf(teamA.enterpriseId)).toEqual([
        {
          participantId: null,
          groupId: null,
          change: 'erasure',
          via: 'erasure',
          from: null,
          to: null,
          sessionId: null,
        },
      ]);
    });

    it('the external ID is unknown afterwards, and the same email is a new participant', async () => {
      expect(
        await s.erasure.erase(victim.externalId, {
          by: 'enterprise',
          enterpriseId: teamA.enterpriseId,
        }),
      ).toBe(false);
      const again = await tenants.join(teamA, victim.email);
      expect(again.person.externalId).toMatch(/^ok_[0-9a-f]{48}$/);
      expect(again.person.externalId).not.toBe(victim.externalId);
      expect(again.person.participantId).not.toBe(victim.participantId);
      expect(
        await t.rows(`SELECT type, payload FROM events WHERE payload->>'userIdentifier' = $1`, [
          again.person.externalId,
        ]),
      ).toEqual([
        {
          type: 'user.created',
          payload: { groupID: teamA.groupId, userIdentifier: again.person.externalId },
        },
      ]);
    });
  });

  describe('who may erase whom', () => {
    let group: Group;
    let person: Person;
    let other: Person;

    beforeAll(async () => {
      [group] = await enterpriseWith('Umbrella', 1);
      person = await someoneIn(group);
      other = await someoneIn(group);
    });

    it('another enterprise, another participant, an unknown or malformed ID: false, and nothing changes', async () => {
      const globex = await t.enterprise('Globex');
      const picture = await snapshot(t);
      expect(
        await s.erasure.erase(person.externalId, { by: 'enterprise', enterpriseId: globex }),
      ).toBe(false);
      expect(
        await s.erasure.erase(person.externalId, {
          by: 'participant',
          participantId: other.participantId,
        }),
      ).toBe(false);
      for (const id of [
        newExternalId(),
        `ok_${'g'.repeat(48)}`,
        'ok_\u0000',
        `${person.externalId}\u0000`,
        person.externalId.toUpperCase(),
        ` ${person.externalId}`,
        '',
        'x'.repeat(300),
      ]) {
        expect({ id, erased: await s.erasure.erase(id, { by: 'operator' }) }).toEqual({
          id,
          erased: false,
        });
      }
      expect(await snapshot(t)).toEqual(picture);
    });

    it('the participant may erase themselves', async () => {
      const me = await someoneIn(group);
      expect(
        await s.erasure.erase(me.externalId, {
          by: 'participant',
          participantId: me.participantId,
        }),
      ).toBe(true);
      expect(await rowsContaining(t, [me.externalId, me.participantId])).toEqual({});
    });

    it("the operator may erase anyone, in any enterprise; the ledger row is the participant's enterprise's", async () => {
      const [elsewhere] = await enterpriseWith('Initech', 1);
      const someone = await someoneIn(elsewhere);
      expect(await s.erasure.erase(someone.externalId, { by: 'operator' })).toBe(true);
      expect(await rowsContaining(t, [someone.externalId, someone.participantId])).toEqual({});
      expect(await erasureRowsOf(elsewhere.enterpriseId)).toHaveLength(1);
      // The other participant of the first group is still there.
      expect(Object.keys(await rowsContaining(t, [other.externalId]))).toEqual([other.externalId]);
    });
  });

  describe('one transaction', () => {
    let group: Group;
    beforeAll(async () => {
      [group] = await enterpriseWith('Hooli', 2);
    });

    /** ErasureService with `events` and `ledger` replacing their owners. */
    const erasureWith = (
      replace: { events?: EventsRepository; ledger?: ConsentLedgerRepository } = {},
    ) =>
      new ErasureService(
        s.db,
        s.participants,
        s.sharedFeatures,
        s.sessionRecords,
        s.cohorts,
        s.idempotency,
        replace.ledger ?? s.ledger,
        replace.events ?? s.events,
      );

    /** The ledger's owner, whose appendErasure throws `failures` times first. */
    const ledgerFailing = (failures: number, error: () => Error) => {
      const ledger = new ConsentLedgerRepository(s.db);
      const calls = { count: 0 };
      const append = ledger.appendErasure.bind(ledger);
      ledger.appendErasure = (...args) => {
        calls.count += 1;
        if (calls.count <= failures) return Promise.reject(error());
        return append(...args);
      };
      return { ledger, calls };
    };

    it('a failure at the last step (the user.deleted event) leaves everything as it was', async () => {
      const person = await someoneIn(group);
      const events = new EventsRepository(s.db, s.cipher);
      events.insert = () => Promise.reject(new Error('outbox unavailable'));
      const picture = await snapshot(t);
      await expect(
        erasureWith({ events }).erase(person.externalId, { by: 'operator' }),
      ).rejects.toThrow('outbox unavailable');
      expect(await snapshot(t)).toEqual(picture);
    });

    it('a deadlock is retried: the second attempt erases, once', async () => {
      const person = await someoneIn(group);
      const { ledger, calls } = ledgerFailing(1, deadlock);
      expect(await erasureWith({ ledger }).erase(person.externalId, { by: 'operator' })).toBe(true);
      expect(calls.count).toBe(2);
      expect(await rowsContaining(t, [person.externalId, person.participantId])).toEqual({});
      expect(await erasureRowsOf(group.enterpriseId)).toHaveLength(1);
      expect(
        await t.rows(
          `SELECT count(*)::int AS n FROM events WHERE type = 'user.deleted'
                       AND enterprise_id = $1`,
          [group.enterpriseId],
        ),
      ).toEqual([{ n: 1 }]);
    });

    it('three deadlocks in a row give up with the deadlock; nothing changed', async () => {
      const person = await someoneIn(group);
      const { ledger, calls } = ledgerFailing(3, deadlock);
      const picture = await snapshot(t);
      await expect(
        erasureWith({ ledger }).erase(person.externalId, { by: 'operator' }),
      ).rejects.toMatchObject({ code: '40P01' });
      expect(calls.count).toBe(3);
      expect(await snapshot(t)).toEqual(picture);
    });

    it('any other error is not retried', async () => {
      const person = await someoneIn(group);
      const { ledger, calls } = ledgerFailing(1, () =>
        Object.assign(new Error('serialization failure'), { code: '40001' }),
      );
      const picture = await snapshot(t);
      await expect(
        erasureWith({ ledger }).erase(person.externalId, { by: 'operator' }),
      ).rejects.toMatchObject({ code: '40001' });
      expect(calls.count).toBe(1);
      expect(await snapshot(t)).toEqual(picture);
    });
  });

  describe('edge cases', () => {
    it('a participant in no group: erased, no user.deleted, the ledger row still', async () => {
      const enterpriseId = await t.enterprise('Stark');
      const participantId = await t.participant(enterpriseId);
      const { externalId } = await t.one<{ externalId: string }>(
        'SELECT external_id AS "externalId" FROM participants WHERE id = $1',
        [participantId],
      );
      expect(await s.erasure.erase(externalId, { by: 'enterprise', enterpriseId })).toBe(true);
      expect(await rowsContaining(t, [externalId, participantId])).toEqual({});
      expect(
        await t.rows('SELECT type FROM events WHERE enterprise_id = $1', [enterpriseId]),
      ).toEqual([]);
      expect(await erasureRowsOf(enterpriseId)).toHaveLength(1);
    });

    it('a participant whose raises wait in a notice for the window’s end: the notice goes with them', async () => {
      const enterpriseId = await t.enterprise('Wayne');
      const group = await tenants.group(enterpriseId);
      const { person } = await tenants.join(group, 'raised@example.com');
      await tenants.setLevel(person, group, 1);
      await t.rows(
        `UPDATE email_messages SET status = 'sent', sent_at = now() WHERE participant_id = $1`,
        [person.participantId],
      );
      await tenants.setLevel(person, group, 5);
      await tenants.setLevel(person, group, 2);
      await tenants.setLevel(person, group, 4);
      expect(
        await t.rows(
          `SELECT status, jsonb_array_length(details->'raises') AS raises, send_after > now() AS waits
             FROM email_messages WHERE participant_id = $1 ORDER BY created_at`,
          [person.participantId],
        ),
      ).toEqual([
        { status: 'sent', raises: 1, waits: null },
        { status: 'queued', raises: 2, waits: true },
      ]);
      expect(await s.erasure.erase(person.externalId, { by: 'enterprise', enterpriseId })).toBe(
        true,
      );
      expect(await rowsContaining(t, [person.externalId, person.participantId])).toEqual({});
      expect(
        await t.rows('SELECT 1 FROM email_messages WHERE enterprise_id = $1', [enterpriseId]),
      ).toEqual([]);
    });

    it("a sandbox participant's captured mails go with them; the others' stay", async () => {
      const enterpriseId = await t.enterprise('Sandbox Inc', { sandbox: true });
      const group = await tenants.group(enterpriseId);
      const { person } = await tenants.join(group, 'sandboxed@example.com');
      const { person: stays } = await tenants.join(group, 'stays@example.com');
      expect(await s.interact.emailGroup(enterpriseId, group.groupId, 'checkinReminder')).toBe(2);
      const sending = new EmailSendingRepository(t.db);
      const mails = await t.rows<{ id: string; participantId: string }>(
        `SELECT id, participant_id AS "participantId" FROM email_messages WHERE enterprise_id = $1`,
        [enterpriseId],
      );
      for (const mail of mails) {
        await sending.capture(
          { id: mail.id, enterpriseId },
          { subject: 'Hello', textCiphertext: s.cipher.encrypt(`to ${mail.participantId}`) },
        );
      }
      expect(await s.erasure.erase(person.externalId, { by: 'enterprise', enterpriseId })).toBe(
        true,
      );
      expect(
        await t.rows<{ id: string }>(
          'SELECT email_message_id AS id FROM sandbox_emails WHERE enterprise_id = $1',
          [enterpriseId],
        ),
      ).toEqual(
        mails
          .filter((mail) => mail.participantId === stays.participantId)
          .map(({ id }) => ({ id })),
      );
    });
  });
});
