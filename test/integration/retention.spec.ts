/**
 * Data at rest against real PostgreSQL: the retention sweeps (exactly which rows go and which
 * stay, at the boundary; bounded batches; two sweepers at once).
 */
import { randomBytes } from 'node:crypto';
import { PiiCipher } from '../../src/common/crypto/pii-cipher';
import { SessionRetention } from '../../src/data-at-rest/session-retention';
import type { Database } from '../../src/database/database';
import { MetricRollupsRepository } from '../../src/metrics/rollups/metric-rollups.repository';
import { SharedFeatures } from '../../src/metrics/rollups/shared-features';
import { IdempotencyRepository } from '../../src/sessions/idempotency.repository';
import { SessionAccess } from '../../src/sessions/session-access';
import { SessionsRepository } from '../../src/sessions/sessions.repository';
import {
  openJson,
  openTranscript,
  sealJson,
  sealTranscript,
} from '../../src/sessions/transcript-codec';
import { CLEAR_DELIVERED_PII, EventsRepository } from '../../src/webhooks/events/events.repository';
import { TestDatabase } from './support';

const TURNS = [
  { role: 'assistant' as const, content: 'How are you?' },
  { role: 'user' as const, content: 'Tired — "really" tired, ça va\nbut ok' },
];

describe('Retention and encryption at rest (PostgreSQL)', () => {
  let t: TestDatabase;
  // Retention's statements, each in its table's owner (docs/design.md, "Table ownership").
  let retention: SessionRetention;
  let idempotency: IdempotencyRepository;
  let events: EventsRepository;
  const cipher = new PiiCipher(randomBytes(32));
  let enterpriseId: string;
  let groupId: number;
  let participantId: string;

  beforeAll(async () => {
    t = await TestDatabase.create();
    retention = retentionOn(t.db);
    idempotency = new IdempotencyRepository(t.db);
    events = new EventsRepository(t.db, cipher);
    enterpriseId = await t.enterprise();
    groupId = await t.group(enterpriseId);
    participantId = await t.participant(enterpriseId);
    await t.membership(participantId, groupId, 5);
  });
  afterAll(() => t.close());

  const retentionOn = (db: Database) => {
    const repository = new SessionsRepository(db);
    const rollups = new MetricRollupsRepository(db);
    const access = new SessionAccess(repository);
    return new SessionRetention(db, access, new SharedFeatures(db, access, rollups, cipher));
  };

  /** A completed session with a result, its features and word counts (sealed), as ingestion writes. */
  async function completedSession(completedAt: Date): Promise<string> {
    const sessionId = await t.session(enterpriseId, participantId, groupId, {
      completedAt: completedAt.toISOString(),
      mhci: 61.5,
    });
    await t.rows(
      `UPDATE sessions SET version = 'v1', subscores = '{"vision":1,"audio":2,"transcript":3,"assessment":4}',
              group_percentiles = '{"pitch":0.5}', user_percentiles = '{"pitch":0.5}',
              transcript = $2, features = $3, word_counts = $4, counted_words = 3
        WHERE session_id = $1`,
      [
        sessionId,
        sealTranscript(cipher, TURNS),
        sealJson(cipher, { pitch: 0.8 }),
        sealJson(cipher, { ok: 1, tired: 2 }),
      ],
    );
    return sessionId;
  }

  const sessionState = (sessionId: string) =>
    t.one<{
      transcript: string | null;
      features: string | null;
      mhci: number | null;
      subscores: unknown;
      groupPercentiles: unknown;
      wordCounts: string | null;
      countedWords: number | null;
    }>(
      `SELECT transcript, features, mhci, subscores, group_percentiles AS "groupPercentiles",
              word_counts AS "wordCounts", counted_words AS "countedWords"
         FROM sessions s WHERE session_id = $1`,
      [sessionId],
    );

  describe('transcripts and features after TRANSCRIPT_RETENTION_DAYS', () => {
    it('removes them (and per-session words and features) before the cutoff only; scores, group rollups and releases stay', async () => {
      const { cutoff } = await t.one<{ cutoff: Date }>(
        `SELECT date_trunc('second', now()) - interval '365 days' AS cutoff`,
      );
      const older = await completedSession(new Date(cutoff.getTime() - 1_000));
      const atCutoff = await completedSession(cutoff);
      const newer = await completedSession(new Date(cutoff.getTime() + 1_000));
      const pending = await t.session(enterpriseId, participantId, groupId);
      // What releases keep of words: a window's released words, and a second-version cell's.
      const releasedWords = `SELECT w.word, w.count FROM metric_release_words w
                               JOIN metric_releases r ON r.id = w.release_id WHERE r.group_id = $1
                             UNION ALL
                             SELECT w.word, w.count FROM cohort_cell_words w
                               JOIN cohort_cells c ON c.id = w.cell_id WHERE c.group_id = $1
                             ORDER BY 1`;
      await t.rows(
        `WITH cell AS (
           INSERT INTO cohort_cells
                  (group_id, series, first_day, last_day, sessions, hidden_participants, floor,
                   participants, epsilon)
           VALUES ($1, 'words', '2025-01-01', '2025-01-01', 3, 3, 3, 3, 1) RETURNING id)
         INSERT INTO cohort_cell_words (cell_id, word, count) SELECT id, 'tired', 3 FROM cell`,
        [groupId],
      );
      await t.rows(
        `WITH w AS (
           INSERT INTO metric_windows (enterprise_id, kind, first_day, last_day, epsilon_year,
                                       released_at)
           VALUES ($1, 'month', '2024-01-01', '2024-01-31', 24, '2024-02-03') RETURNING id),
         r AS (
           INSERT INTO metric_releases (window_id, group_id, series, participants, released, rho,
                                        word_threshold)
           SELECT id, $2, 'words', 60, true, 0.24, 54 FROM w RETURNING id)
         INSERT INTO metric_release_words (release_id, word, count) SELECT id, 'ok', 57 FROM r`,
        [enterpriseId, groupId],
      );

      expect(await retention.removeExpired(cutoff, 1_000)).toBe(1);

      expect(await sessionState(older)).toEqual({
        transcript: null,
        features: null,
        mhci: 61.5,
        subscores: { vision: 1, audio: 2, transcript: 3, assessment: 4 },
        groupPercentiles: { pitch: 0.5 },
        wordCounts: null,
        countedWords: null,
      });
      for (const kept of [atCutoff, newer]) {
        const state = await sessionState(kept);
        expect(openTranscript(cipher, state.transcript as string)).toEqual(TURNS);
        expect(openJson(cipher, state.features!)).toEqual({ pitch: 0.8 });
        expect(openJson(cipher, state.wordCounts!)).toEqual({ ok: 1, tired: 2 });
        expect(state.countedWords).toBe(3);
      }
      expect((await sessionState(pending)).transcript).toBeNull();
      // Releases never change: what they let through of words stays.
      expect(await t.rows(releasedWords, [groupId])).toEqual([
        { word: 'ok', count: 57 },
        { word: 'tired', count: 3 },
      ]);
      // Nothing left to do: a second sweep changes nothing.
      expect(await retention.removeExpired(cutoff, 1_000)).toBe(0);
    });

    it('works in bounded batches, and two sweepers at once take disjoint rows', async () => {
      const { cutoff } = await t.one<{ cutoff: Date }>(
        `SELECT now() - interval '30 days' AS cutoff`,
      );
      const old = [];
      for (let i = 0; i < 7; i += 1) {
        old.push(await completedSession(new Date(cutoff.getTime() - (i + 1) * 60_000)));
      }
      // The first test's sessions kept at its cutoff (a year ago) are due here too.
      const { due } = await t.one<{ due: number }>(
        'SELECT count(*)::int AS due FROM sessions WHERE transcript IS NOT NULL AND completed_at < $1',
        [cutoff],
      );
      expect(due).toBe(9);
      expect(await retention.removeExpired(cutoff, 2)).toBe(2);
      const other = retentionOn(await t.openDatabase(2));
      const [a, b] = await Promise.all([
        retention.removeExpired(cutoff, 3),
        other.removeExpired(cutoff, 3),
      ]);
      expect([a, b]).toEqual([3, 3]);
      expect(await retention.removeExpired(cutoff, 3)).toBe(1);
      for (const sessionId of old) expect((await sessionState(sessionId)).transcript).toBeNull();
    });
  });

  describe('idempotency records after 24 h', () => {
    it('deletes exactly those older than 24 h', async () => {
      for (const [key, age] of [
        ['old', "interval '24 hours 1 second'"],
        ['young', "interval '23 hours 59 minutes'"],
        ['new', "interval '0 seconds'"],
      ]) {
        await t.rows(
          `INSERT INTO idempotency_keys (enterprise_id, key, request_hash, response_ciphertext, created_at)
           VALUES ($1, $2, 'h', 'v2.k0.x', now() - ${age})`,
          [enterpriseId, key],
        );
      }
      expect(await idempotency.deleteExpired(1_000)).toBe(1);
      const left = await t.rows<{ key: string }>('SELECT key FROM idempotency_keys ORDER BY key');
      expect(left.map((row) => row.key)).toEqual(['new', 'young']);
    });
  });

  describe("events' personal data once every delivery is final", () => {
    it('clears it when no delivery is pending (or there is none); keeps it while one is', async () => {
      const world = await t.webhookWorld();
      const second = await t.endpoint(world.enterpriseId, world.groupId);
      const withDeliveries = async (statuses: string[]): Promise<string> => {
        const eventId = await t.event(world.enterpriseId, world.groupId, {
          type: 'user.created',
          encryptedPii: cipher.encrypt('{"email":"ana@example.com"}'),
        });
        for (const [i, status] of statuses.entries()) {
          await t.rows(
            'INSERT INTO webhook_deliveries (event_id, endpoint_id, status) VALUES ($1, $2, $3)',
            [eventId, i === 0 ? world.endpointId : second, status],
          );
        }
        return eventId;
      };
      const delivered = await withDeliveries(['delivered', 'delivered']);
      const finalMix = await withDeliveries(['failed', 'cancelled']);
      const noEndpoint = await withDeliveries([]);
      const oneRetrying = await withDeliveries(['delivered', 'pending']);
      const firstAttempt = await withDeliveries(['pending']);

      expect(await events.clearDeliveredPii(1_000)).toBe(3);
      const pii = await t.rows<{ id: string; held: boolean }>(
        'SELECT id, encrypted_pii IS NOT NULL AS held FROM events WHERE group_id = $1',
        [world.groupId],
      );
      const held = Object.fromEntries(pii.map((row) => [row.id, row.held]));
      expect(
        [delivered, finalMix, noEndpoint, oneRetrying, firstAttempt].map((id) => held[id]),
      ).toEqual([false, false, false, true, true]);

      // Once the last delivery is final, the next sweep clears it.
      await t.rows(`UPDATE webhook_deliveries SET status = 'delivered' WHERE event_id = $1`, [
        oneRetrying,
      ]);
      expect(await events.clearDeliveredPii(1_000)).toBe(1);
      expect(await events.clearDeliveredPii(1_000)).toBe(0);
    });

    it("looks up each event's own deliveries, never every pending one, even with statistics that predate a backlog", async () => {
      // The shape that once went quadratic (docs/performance.md, "Fourth pass"): the
      // statistics were taken with nothing pending, then a backlog built up. 1,000 events whose
      // deliveries are final come first, then 1,000 whose deliveries are pending. An anti-join
      // compared each of the first with all 1,000 pending deliveries (1,000,000 rows removed by
      // its join filter); the statement must stay one index lookup per event.
      const world = await t.webhookWorld();
      await t.rows(
        `WITH e AS (
           INSERT INTO events (id, enterprise_id, group_id, type, payload, encrypted_pii, created_at)
           SELECT 'evt_' || lpad(to_hex(n), 48, '0'), $1, $2, 'user.created', '{}', 'sealed',
                  now() - interval '1 hour' + n * interval '1 millisecond'
             FROM generate_series(1, 2000) AS n
           RETURNING id, created_at)
         INSERT INTO webhook_deliveries (event_id, endpoint_id, status)
         SELECT id, $3, 'delivered' FROM e`,
        [world.enterpriseId, world.groupId, world.endpointId],
      );
      await t.rows('ANALYZE events, webhook_deliveries');
      await t.rows(
        `UPDATE webhook_deliveries SET status = 'pending'
          WHERE endpoint_id = $1
            AND event_id IN (SELECT id FROM events WHERE group_id = $2
                              ORDER BY created_at DESC LIMIT 1000)`,
        [world.endpointId, world.groupId],
      );
      // EXPLAIN ANALYZE runs the UPDATE: in a transaction rolled back.
      const client = await t.pool.connect();
      let plan: PlanNode;
      try {
        await client.query('BEGIN');
        const { rows } = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
          `EXPLAIN (ANALYZE, FORMAT JSON) ${CLEAR_DELIVERED_PII}`,
          [1_000],
        );
        plan = rows[0]['QUERY PLAN'][0].Plan;
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
      expect(rowsRemoved(plan)).toBeLessThan(10_000);
      // And it clears exactly the events whose deliveries are final.
      expect(await events.clearDeliveredPii(1_000)).toBe(1_000);
      expect(await events.clearDeliveredPii(1_000)).toBe(0);
      const [{ held }] = await t.rows<{ held: number }>(
        `SELECT count(*)::int AS held FROM events e
          WHERE group_id = $1 AND encrypted_pii IS NOT NULL
            AND EXISTS (SELECT 1 FROM webhook_deliveries d
                         WHERE d.event_id = e.id AND d.status = 'pending')`,
        [world.groupId],
      );
      expect(held).toBe(1_000);
    });
  });
});

interface PlanNode {
  'Rows Removed by Filter'?: number;
  'Rows Removed by Join Filter'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/** Rows every node of an EXPLAIN ANALYZE plan read and threw away, over all its loops. */
function rowsRemoved(node: PlanNode): number {
  const own =
    ((node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Join Filter'] ?? 0)) *
    (node['Actual Loops'] ?? 1);
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRemoved(child), 0);
}
