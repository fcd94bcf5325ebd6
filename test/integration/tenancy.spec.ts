/**
 * Reads that take an enterprise id answer only that enterprise's data: webhook deliveries
 * (list, redeliver) and metrics (count, mhci, word clouds) against real PostgreSQL, asked by the
 * owner (exact data) and by another enterprise (nothing).
 */
import { randomBytes } from 'node:crypto';
import { PiiCipher } from '../../src/common/crypto/pii-cipher';
import { sealJson } from '../../src/sessions/transcript-codec';
import { CohortCellsRepository } from '../../src/metrics/cohorts/cohort-cells.repository';
import { binOf, participantScore, SCORE_MECHANISM } from '../../src/metrics/releases/score-release';
import { MetricRange, MetricScope, MetricsRepository } from '../../src/metrics/metrics.repository';
import { DeliveryLeaseRepository } from '../../src/webhooks/delivery/delivery-lease.repository';
import { WebhooksRepository } from '../../src/webhooks/webhooks.repository';
import { match } from '../support/matchers';
import { TestDatabase, WebhookWorld } from './support';

/**
 * What ingestion leaves for stored completed sessions: each pending in both series of cohort
 * cells, and the per-day session counts of group `count`.
 */
const PENDING_AND_DAY_COUNTS = [
  `INSERT INTO cohort_pending (session_id, series, group_id)
   SELECT s.session_id, series.name, s.group_id
     FROM sessions s CROSS JOIN (VALUES ('scores'), ('words')) AS series(name)
    WHERE s.completed_at IS NOT NULL`,
  `INSERT INTO group_day_counts (group_id, day, sessions)
   SELECT group_id, (completed_at AT TIME ZONE 'UTC')::date, count(*)
     FROM sessions
    WHERE completed_at IS NOT NULL
    GROUP BY 1, 2`,
];

const ALL: MetricRange = { from: null, to: null, groupBy: null };
const BY_DAY: MetricRange = { from: null, to: null, groupBy: 'day' };
/** MHCI statistics of nothing, or of a period without a sealed cohort cell. */
const SCORE_MECHANISM_BINS = Array.from({ length: SCORE_MECHANISM.bins }, (_, bin) => bin);

const NO_STATS = {
  minMhci: null,
  maxMhci: null,
  avgMhci: null,
  percentile25Mhci: null,
  percentile50Mhci: null,
  percentile75Mhci: null,
};

describe('tenancy of enterprise-scoped reads (PostgreSQL)', () => {
  let t: TestDatabase;
  /** The owner's group, participants and endpoints. */
  let acme: WebhookWorld;
  let globexId: string;

  beforeAll(async () => {
    t = await TestDatabase.create();
    acme = await t.webhookWorld();
    globexId = await t.enterprise('Globex');
    // Globex has data of its own, so "nothing" is not just an empty database.
    const globexGroup = await t.group(globexId);
    const globexParticipant = await t.participant(globexId);
    await t.membership(globexParticipant, globexGroup, 5);
    await t.session(globexId, globexParticipant, globexGroup, {
      completedAt: '2025-03-01T12:00:00Z',
      mhci: 99,
    });
    await t.endpoint(globexId, globexGroup);
  });
  afterAll(() => t.close());

  describe('WebhooksRepository', () => {
    let repo: WebhooksRepository;
    let older: string;
    let newer: string;
    let otherEndpointId: string;
    let otherEndpointsDelivery: string;

    const attempt = (deliveryId: string, startedAt: string, statusCode: number | null) =>
      t.rows(
        `INSERT INTO delivery_attempts (delivery_id, started_at, duration_ms, status_code, error)
         VALUES ($1, $2, 120, $3, $4)`,
        [deliveryId, startedAt, statusCode, statusCode === null ? 'timeout' : null],
      );

    beforeAll(async () => {
      repo = new WebhooksRepository(t.db);
      older = await t.delivery(acme, { status: 'failed', attempts: 2, createdInMs: -60_000 });
      newer = await t.delivery(acme, { status: 'delivered', attempts: 1, createdInMs: -10_000 });
      await attempt(older, '2025-03-01T10:00:05.250Z', 500);
      await attempt(older, '2025-03-01T10:00:01.000Z', null);
      await attempt(newer, '2025-03-01T11:00:00.000Z', 204);
      otherEndpointId = await t.endpoint(acme.enterpriseId, acme.groupId);
      otherEndpointsDelivery = await t.delivery(acme, {}, otherEndpointId);
    });

    it("listDeliveries answers the owner's deliveries, newest first, with their attempts", async () => {
      const deliveries = await repo.listDeliveries(acme.enterpriseId, acme.endpointId, 10);
      expect(deliveries.map((delivery) => delivery.id)).toEqual([newer, older]);
      const [newest, oldest] = deliveries;
      const olderRow = await t.deliveryRow(older);
      expect(oldest).toMatchObject({
        id: older,
        eventId: olderRow.eventId,
        eventType: 'session.completed',
        status: 'failed',
        attempts: 2,
        nextAttemptAt: olderRow.nextAttemptAt,
      });
      expect(
        oldest.attemptLog.map((entry) => ({ ...entry, startedAt: Date.parse(entry.startedAt) })),
      ).toEqual([
        {
          startedAt: Date.parse('2025-03-01T10:00:01.000Z'),
          durationMs: 120,
          statusCode: null,
          error: 'timeout',
        },
        {
          startedAt: Date.parse('2025-03-01T10:00:05.250Z'),
          durationMs: 120,
          statusCode: 500,
          error: null,
        },
      ]);
      expect(newest).toMatchObject({ id: newer, status: 'delivered', attempts: 1 });
      expect(newest.attemptLog).toHaveLength(1);
      expect(await repo.listDeliveries(acme.enterpriseId, acme.endpointId, 1)).toHaveLength(1);
      expect(
        (await repo.listDeliveries(acme.enterpriseId, otherEndpointId, 10)).map((d) => d.id),
      ).toEqual([otherEndpointsDelivery]);
    });

    it("listDeliveries answers nothing for another enterprise's endpoint", async () => {
      expect(await repo.listDeliveries(globexId, acme.endpointId, 10)).toEqual([]);
    });

    it('redeliver makes nothing due for another enterprise, or through another endpoint', async () => {
      const before = await t.deliveryRow(older);
      expect(await repo.redeliver(globexId, acme.endpointId, older)).toBe(false);
      expect(await repo.redeliver(acme.enterpriseId, otherEndpointId, older)).toBe(false);
      expect(await t.deliveryRow(older)).toEqual(before);
    });

    it("redeliver makes the owner's delivery pending and due now", async () => {
      const id = await t.delivery(acme, {
        status: 'failed',
        attempts: 6,
        dueInMs: -86_400_000,
        lockedForMs: -30_000,
        queuedAgoMs: 1_000,
      });
      expect(await repo.redeliver(acme.enterpriseId, acme.endpointId, id)).toBe(true);
      expect(await t.deliveryRow(id)).toMatchObject({
        status: 'pending',
        attempts: 6,
        leased: false,
        // Taken by the very next sweep, not after the sweepers' re-check delay.
        queuedAt: null,
      });
      const { dueAgoMs } = await t.one<{ dueAgoMs: number }>(
        `SELECT (extract(epoch FROM now() - next_attempt_at) * 1000)::float8 AS "dueAgoMs"
           FROM webhook_deliveries WHERE id = $1`,
        [id],
      );
      expect(dueAgoMs).toBeGreaterThanOrEqual(0);
      expect(dueAgoMs).toBeLessThan(5_000);
    });

    it('redeliver keeps the lease of a delivery a worker is sending: no second worker takes it', async () => {
      const id = await t.delivery(acme, { status: 'pending', attempts: 1, lockedForMs: 30_000 });
      expect(await repo.redeliver(acme.enterpriseId, acme.endpointId, id)).toBe(true);
      expect(await t.deliveryRow(id)).toMatchObject({ status: 'pending', leased: true });
      const leased = await new DeliveryLeaseRepository(t.db).claimDue(1_000, 10_000);
      expect(leased.map((delivery) => delivery.id)).not.toContain(id);
    });
  });

  describe('MetricsRepository', () => {
    const cipher = new PiiCipher(randomBytes(32));
    let repo: MetricsRepository;
    let member: string;
    let group: MetricScope;
    let participant: Extract<MetricScope, { kind: 'participant' }>;

    const foreign = (scope: MetricScope): MetricScope => ({ ...scope, enterpriseId: globexId });

    beforeAll(async () => {
      repo = new MetricsRepository(t.db, cipher);
      const { enterpriseId, groupId } = acme;
      member = await t.participant(enterpriseId);
      const colleague = await t.participant(enterpriseId);
      await t.membership(member, groupId, 3);
      await t.membership(colleague, groupId, 1);
      const sessions = [
        await t.session(enterpriseId, member, groupId, {
          completedAt: '2025-03-01T10:00:00Z',
          mhci: 40,
        }),
        await t.session(enterpriseId, member, groupId, {
          completedAt: '2025-03-01T20:00:00Z',
          mhci: 60,
        }),
        await t.session(enterpriseId, member, groupId, {
          completedAt: '2025-03-02T09:00:00Z',
          mhci: 80,
        }),
        await t.session(enterpriseId, colleague, groupId, {
          completedAt: '2025-03-02T12:00:00Z',
          mhci: 20,
        }),
      ];
      await t.session(enterpriseId, member, groupId); // not completed: never counted
      const words: [number, string, number][] = [
        [0, 'calm', 2],
        [0, 'tired', 1],
        [2, 'calm', 1],
        [2, 'happy', 3],
        [3, 'angry', 5],
      ];
      // Each session's word counts, sealed as ingestion stores them.
      const perSession = new Map<number, Record<string, number>>();
      for (const [session, word, count] of words) {
        perSession.set(session, { ...perSession.get(session), [word]: count });
      }
      for (const [session, counts] of perSession) {
        await t.rows(
          'UPDATE sessions SET word_counts = $2, counted_words = 1 WHERE session_id = $1',
          [sessions[session], sealJson(cipher, counts)],
        );
      }
      // The day counts ingestion would have written, and one sealed cell per day and series, as
      // sealing would have made them at a floor of 1 (sealing itself: sealed-cells.e2e-spec.ts).
      for (const statement of PENDING_AND_DAY_COUNTS) await t.rows(statement);
      await sealedCell(groupId, 'scores', '2025-03-01', [
        [40, 1],
        [60, 1],
      ]);
      await sealedCell(groupId, 'scores', '2025-03-02', [
        [80, 1],
        [20, 1],
      ]);
      await sealedCell(groupId, 'words', '2025-03-01', [
        ['calm', 2],
        ['tired', 1],
      ]);
      await sealedCell(groupId, 'words', '2025-03-02', [
        ['calm', 1],
        ['happy', 3],
        ['angry', 5],
      ]);
      group = { enterpriseId, kind: 'group', groupId };
      participant = { enterpriseId, kind: 'participant', participantId: member, minimumLevel: 3 };
    });

    /**
     * A released one-day cell of the group, without noise (a fixture: the noise is
     * score-release.spec.ts's and word-release.spec.ts's): scores (value, participants) or words
     * (word, count).
     */
    async function sealedCell(
      groupId: number,
      series: 'scores' | 'words',
      day: string,
      rows: [number | string, number][],
    ): Promise<void> {
      const values = rows.flatMap(([value, n]) =>
        Array.from({ length: n }, () => participantScore(value as number)),
      );
      const release = {
        participants: values.length,
        noisySum: values.reduce((sum, value) => sum + value, 0),
        noisyBins: SCORE_MECHANISM_BINS.map(
          (bin) => values.filter((value) => binOf(value, SCORE_MECHANISM.bins) === bin).length,
        ),
        binNoiseVariance: 0,
      };
      const [cell] = await t.rows<{ id: number }>(
        `INSERT INTO cohort_cells
                (group_id, series, first_day, last_day, sessions, hidden_participants, floor,
                 participants, epsilon, noisy_sum, noisy_bins, bin_noise_variance)
         VALUES ($1, $2, $3, $3, 2, 1, 1, 2, 1, $4, $5, $6) RETURNING id`,
        series === 'words'
          ? [groupId, series, day, null, null, null]
          : [groupId, series, day, release.noisySum, release.noisyBins, 0],
      );
      const cells = new CohortCellsRepository(t.db);
      if (series === 'words') {
        await t.rows(
          `INSERT INTO cohort_cell_words (cell_id, word, count)
           SELECT $1, word, n FROM unnest($2::text[], $3::int[]) AS r(word, n)`,
          [cell.id, rows.map((row) => row[0]), rows.map((row) => row[1])],
        );
        await cells.addWordPrefix(groupId, day);
        return;
      }
      await cells.addScorePrefix(groupId, cell.id, day, release, t.db);
    }

    it("count: the owner's completed sessions; nothing for another enterprise", async () => {
      expect(await repo.count(group, ALL)).toEqual([{ key: 'all', value: 4 }]);
      expect(await repo.count(group, BY_DAY)).toEqual([
        { key: '2025-03-01', value: 2 },
        { key: '2025-03-02', value: 2 },
      ]);
      expect(await repo.count(group, { ...ALL, from: '2025-03-02' })).toEqual([
        { key: 'all', value: 2 },
      ]);
      expect(await repo.count(participant, ALL)).toEqual([{ key: 'all', value: 3 }]);
      expect(await repo.count(participant, BY_DAY)).toEqual([
        { key: '2025-03-01', value: 2 },
        { key: '2025-03-02', value: 1 },
      ]);
      // Below the privacy level the metric needs: nothing either.
      expect(await repo.count({ ...participant, minimumLevel: 4 }, ALL)).toEqual([
        { key: 'all', value: 0 },
      ]);

      for (const scope of [foreign(group), foreign(participant)]) {
        expect(await repo.count(scope, ALL)).toEqual([{ key: 'all', value: 0 }]);
        expect(await repo.count(scope, BY_DAY)).toEqual([]);
      }
    });

    it("mhci: the owner's statistics; nothing for another enterprise", async () => {
      // From the cells' releases (here without noise): values 20, 40, 60, 80 in bins 10 wide.
      expect(await repo.mhci(group, ALL)).toEqual([
        {
          key: 'all',
          sessions: 4,
          shown: true,
          minMhci: 20,
          maxMhci: 90,
          avgMhci: 50,
          percentile25Mhci: 30,
          percentile50Mhci: 50,
          percentile75Mhci: 70,
        },
      ]);
      expect(await repo.mhci(participant, BY_DAY)).toEqual([
        {
          key: '2025-03-01',
          sessions: 2,
          shown: true,
          minMhci: 40,
          maxMhci: 60,
          avgMhci: 50,
          percentile25Mhci: 45,
          percentile50Mhci: 50,
          percentile75Mhci: 55,
        },
        {
          key: '2025-03-02',
          sessions: 1,
          shown: true,
          minMhci: 80,
          maxMhci: 80,
          avgMhci: 80,
          percentile25Mhci: 80,
          percentile50Mhci: 80,
          percentile75Mhci: 80,
        },
      ]);

      const none = { key: 'all', sessions: 0, ...NO_STATS };
      // Another enterprise: no statistics; for a group not even a period.
      expect(await repo.mhci(foreign(group), ALL)).toEqual([]);
      expect(await repo.mhci(foreign(participant), ALL)).toEqual([{ ...none, shown: true }]);
      for (const scope of [foreign(group), foreign(participant)]) {
        expect(await repo.mhci(scope, BY_DAY)).toEqual([]);
      }
    });

    it("wordcloud: the owner's words and shares; nothing for another enterprise", async () => {
      // The group's rollup: calm 3, happy 3, angry 5, tired 1 (of 12).
      expect(await repo.wordcloud(group, ALL, 2)).toEqual([
        { key: 'all', shown: true, word: 'angry', share: 5 / 12 },
        { key: 'all', shown: true, word: 'calm', share: 3 / 12 },
      ]);
      expect(await repo.wordcloud(group, BY_DAY, 1)).toEqual([
        { key: '2025-03-01', shown: true, word: 'calm', share: 2 / 3 },
        { key: '2025-03-02', shown: true, word: 'angry', share: 5 / 9 },
      ]);
      // The participant's own sessions only: calm 3, happy 3, tired 1 (of 7); not the colleague's.
      expect(await repo.wordcloud(participant, ALL, 5)).toEqual([
        { key: 'all', shown: true, word: 'calm', share: 3 / 7 },
        { key: 'all', shown: true, word: 'happy', share: 3 / 7 },
        { key: 'all', shown: true, word: 'tired', share: 1 / 7 },
      ]);

      for (const scope of [foreign(group), foreign(participant)]) {
        expect(await repo.wordcloud(scope, ALL, 5)).toEqual([]);
        expect(await repo.wordcloud(scope, BY_DAY, 5)).toEqual([]);
      }
    });

    it('a period with sessions but no sealed cell is not shown; its key stays', async () => {
      // A session of 3 March still waiting for its cell: counted, not in any cell yet.
      await t.session(acme.enterpriseId, member, acme.groupId, {
        completedAt: '2025-03-03T10:00:00Z',
        mhci: 99,
      });
      await t.rows(
        `INSERT INTO group_day_counts (group_id, day, sessions) VALUES ($1, '2025-03-03', 1)`,
        [acme.groupId],
      );
      const withheld = { shown: false, ...NO_STATS };
      expect(await repo.mhci(group, BY_DAY)).toEqual([
        match.objectContaining({ key: '2025-03-01', sessions: 2, shown: true, minMhci: 40 }),
        match.objectContaining({ key: '2025-03-02', sessions: 2, shown: true, minMhci: 20 }),
        { key: '2025-03-03', sessions: 0, ...withheld },
      ]);
      expect(await repo.mhci(group, { ...ALL, from: '2025-03-02' })).toEqual([
        match.objectContaining({ key: 'all', sessions: 2, shown: true, avgMhci: 50 }),
      ]);
      expect(await repo.mhci(group, { ...ALL, from: '2025-03-03' })).toEqual([
        { key: 'all', sessions: 0, ...withheld },
      ]);
      expect(await repo.wordcloud(group, BY_DAY, 1)).toEqual([
        { key: '2025-03-01', shown: true, word: 'calm', share: 2 / 3 },
        { key: '2025-03-02', shown: true, word: 'angry', share: 5 / 9 },
        { key: '2025-03-03', shown: false, word: null, share: null },
      ]);
      // A participant's own metrics read their sessions (their level gates them).
      expect(await repo.mhci(participant, ALL)).toEqual([
        match.objectContaining({ shown: true, sessions: 4 }),
      ]);
    });
  });
});
