/**
 * Reads that take an enterprise id answer only that enterprise's data: webhook deliveries
 * (list, redeliver), metrics (count, a participant's mhci and word cloud) and group releases
 * (release windows, what a release holds, group mhci and word clouds) against real PostgreSQL,
 * asked by the owner (exact data) and by another enterprise (nothing).
 */
import { randomBytes } from 'node:crypto';
import { PiiCipher } from '../../src/common/crypto/pii-cipher';
import { sealJson } from '../../src/sessions/transcript-codec';
import { MetricRange, MetricScope, MetricsRepository } from '../../src/metrics/metrics.repository';
import { GroupReleasesReader } from '../../src/metrics/windows/group-releases.reader';
import { MetricWindowsRepository } from '../../src/metrics/windows/metric-windows.repository';
import type { WindowReleaser } from '../../src/metrics/windows/window-releaser';
import { DeliveryLeaseRepository } from '../../src/webhooks/delivery/delivery-lease.repository';
import { WebhooksRepository } from '../../src/webhooks/webhooks.repository';
import { windowReleaserOn } from './service-fixtures';
import { TestDatabase, WebhookWorld } from './support';

const ALL: MetricRange = { from: null, to: null, groupBy: null };
const BY_DAY: MetricRange = { from: null, to: null, groupBy: 'day' };
/** MHCI statistics of nothing. */
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
  let globexGroup: number;
  const cipher = new PiiCipher(randomBytes(32));
  let releaser: WindowReleaser;

  /** A completed session, ingested as ingestion does (its window, pending, its day's count). */
  const completed = async (
    enterpriseId: string,
    participantId: string,
    groupId: number,
    completedAt: string,
    mhci: number,
  ): Promise<string> => {
    const sessionId = await t.session(enterpriseId, participantId, groupId, { completedAt, mhci });
    await t.db.transaction((sql) =>
      releaser.addCompleted({ sessionId, groupId }, new Date(completedAt), sql),
    );
    return sessionId;
  };

  beforeAll(async () => {
    t = await TestDatabase.create();
    releaser = windowReleaserOn(t.db, cipher);
    acme = await t.webhookWorld();
    globexId = await t.enterprise('Globex');
    // Globex has data of its own, so "nothing" is not just an empty database: a result of the
    // same month as Acme's, in a window of its own.
    globexGroup = await t.group(globexId);
    const globexParticipant = await t.participant(globexId);
    await t.membership(globexParticipant, globexGroup, 5);
    await completed(globexId, globexParticipant, globexGroup, '2025-03-01T12:00:00Z', 99);
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

  describe('metrics and group releases', () => {
    let repo: MetricsRepository;
    let windows: MetricWindowsRepository;
    let reader: GroupReleasesReader;
    let member: string;
    let group: Extract<MetricScope, { kind: 'group' }>;
    let participant: Extract<MetricScope, { kind: 'participant' }>;

    const foreign = <S extends MetricScope>(scope: S): S => ({ ...scope, enterpriseId: globexId });
    const windowsOf = (enterpriseId: string) =>
      t.rows(
        `SELECT first_day::text AS "firstDay", last_day::text AS "lastDay",
                released_at IS NOT NULL AS released
           FROM metric_windows WHERE enterprise_id = $1 ORDER BY first_day`,
        [enterpriseId],
      );
    const releasesOf = (groupId: number) =>
      t.rows<{ enterpriseId: string; series: string; participants: number }>(
        `SELECT w.enterprise_id AS "enterpriseId", r.series, r.participants
           FROM metric_releases r JOIN metric_windows w ON w.id = r.window_id
          WHERE r.group_id = $1 ORDER BY r.series`,
        [groupId],
      );

    beforeAll(async () => {
      repo = new MetricsRepository(t.db, cipher);
      windows = new MetricWindowsRepository(t.db);
      reader = new GroupReleasesReader(t.db);
      const { enterpriseId, groupId } = acme;
      // Floors of 1 and the highest budget and margin: two participants make an answer.
      await t.rows(
        `UPDATE enterprises SET min_cohort_scores = 1, min_cohort_words = 1, min_word_speakers = 1,
                epsilon_year = 100, max_margin = 100 WHERE id = $1`,
        [enterpriseId],
      );
      member = await t.participant(enterpriseId);
      const colleague = await t.participant(enterpriseId);
      await t.membership(member, groupId, 3);
      await t.membership(colleague, groupId, 1);
      const sessions: string[] = [];
      for (const [who, completedAt, mhci] of [
        [member, '2025-03-01T10:00:00Z', 40],
        [member, '2025-03-01T20:00:00Z', 60],
        [member, '2025-03-02T09:00:00Z', 80],
        [colleague, '2025-03-02T12:00:00Z', 20],
      ] as const) {
        const sessionId = await t.session(enterpriseId, who, groupId, { completedAt, mhci });
        sessions.push(sessionId);
      }
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
      // Then ingested: their window (Acme's March), pending, their days' counts.
      for (const sessionId of sessions) {
        const { completedAt } = await t.one<{ completedAt: Date }>(
          'SELECT completed_at AS "completedAt" FROM sessions WHERE session_id = $1',
          [sessionId],
        );
        await t.db.transaction((sql) =>
          releaser.addCompleted({ sessionId, groupId }, completedAt, sql),
        );
      }
      group = { enterpriseId, kind: 'group', groupId };
      participant = { enterpriseId, kind: 'participant', participantId: member, minimumLevel: 3 };
    });

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

    it("a participant's mhci: their statistics; nothing for another enterprise", async () => {
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
      expect(await repo.mhci(foreign(participant), ALL)).toEqual([
        { key: 'all', sessions: 0, shown: true, ...NO_STATS },
      ]);
      expect(await repo.mhci(foreign(participant), BY_DAY)).toEqual([]);
    });

    it("a participant's wordcloud: their own words and shares; nothing for another enterprise", async () => {
      // The participant's own sessions only: calm 3, happy 3, tired 1 (of 7); not the colleague's.
      expect(await repo.wordcloud(participant, ALL, 5)).toEqual([
        { key: 'all', shown: true, word: 'calm', share: 3 / 7 },
        { key: 'all', shown: true, word: 'happy', share: 3 / 7 },
        { key: 'all', shown: true, word: 'tired', share: 1 / 7 },
      ]);
      expect(await repo.wordcloud(participant, BY_DAY, 1)).toEqual([
        { key: '2025-03-01', shown: true, word: 'calm', share: 2 / 3 },
        { key: '2025-03-02', shown: true, word: 'happy', share: 3 / 4 },
      ]);
      expect(await repo.wordcloud(foreign(participant), ALL, 5)).toEqual([]);
      expect(await repo.wordcloud(foreign(participant), BY_DAY, 5)).toEqual([]);
    });

    it("windows are the enterprise's own: a result goes into its enterprise's window, and releasing one enterprise releases nothing of another's", async () => {
      // The same month, a window each.
      const march = { firstDay: '2025-03-01', lastDay: '2025-03-31', released: false };
      expect(await windowsOf(acme.enterpriseId)).toEqual([march]);
      expect(await windowsOf(globexId)).toEqual([march]);
      const acmePending = await t.rows('SELECT * FROM cohort_pending WHERE group_id = $1', [
        acme.groupId,
      ]);
      expect(acmePending).toHaveLength(8);

      const now = new Date('2025-04-05T00:00:00Z');
      expect(await releaser.releaseEnterprise(globexId, now)).toBe(1);
      expect(await windowsOf(globexId)).toEqual([{ ...march, released: true }]);
      expect(await windowsOf(acme.enterpriseId)).toEqual([march]);
      expect(
        await t.rows('SELECT * FROM cohort_pending WHERE group_id = $1', [acme.groupId]),
      ).toEqual(acmePending);
      expect(await releasesOf(acme.groupId)).toEqual([]);

      // Acme's release holds Acme's participants only; Globex's its own.
      expect(await releaser.releaseEnterprise(acme.enterpriseId, now)).toBe(1);
      expect(await releasesOf(acme.groupId)).toEqual([
        { enterpriseId: acme.enterpriseId, series: 'scores', participants: 2 },
        { enterpriseId: acme.enterpriseId, series: 'words', participants: 2 },
      ]);
      expect(await releasesOf(globexGroup)).toEqual([
        { enterpriseId: globexId, series: 'scores', participants: 1 },
        { enterpriseId: globexId, series: 'words', participants: 1 },
      ]);
      // A late result of Acme's counts in Acme's release, never in Globex's.
      await completed(acme.enterpriseId, member, acme.groupId, '2025-03-20T09:00:00Z', 50);
      expect(
        await t.rows(
          `SELECT w.enterprise_id AS "enterpriseId", r.group_id AS "groupId",
                  sum(r.late_results)::int AS late
             FROM metric_releases r JOIN metric_windows w ON w.id = r.window_id
            WHERE r.late_results > 0 GROUP BY 1, 2`,
        ),
      ).toEqual([{ enterpriseId: acme.enterpriseId, groupId: acme.groupId, late: 2 }]);
    });

    it("group mhci and wordcloud: the owner's releases; another enterprise's read of the group holds none of them", async () => {
      const settings = (await windows.settingsOf(acme.enterpriseId))!;
      const [mhci] = await reader.mhci(acme.enterpriseId, acme.groupId, ALL, settings);
      expect(mhci).toMatchObject({
        key: 'all',
        accuracy: { participants: 2, windows: 1, lateResults: 1, reason: null },
      });
      expect(mhci.value).not.toBeNull();
      const [cloud] = await reader.wordcloud(acme.enterpriseId, acme.groupId, ALL, settings, 5);
      expect(cloud).toMatchObject({ key: 'all', accuracy: { participants: 2, windows: 1 } });

      // Asked with Globex's id: none of Acme's releases, values or late results.
      const globexSettings = (await windows.settingsOf(globexId))!;
      for (const answers of [
        await reader.mhci(globexId, acme.groupId, ALL, globexSettings),
        await reader.mhci(globexId, acme.groupId, BY_DAY, globexSettings),
        await reader.wordcloud(globexId, acme.groupId, ALL, globexSettings, 5),
      ]) {
        for (const answer of answers) {
          expect(answer.value).toBeNull();
          expect(answer.accuracy).toMatchObject({ participants: 0, lateResults: 0, rho: 0 });
        }
      }
      // And Acme's read of Globex's group: nothing of Globex's release either.
      for (const answer of await reader.mhci(acme.enterpriseId, globexGroup, ALL, settings)) {
        expect(answer.value).toBeNull();
        expect(answer.accuracy).toMatchObject({ participants: 0, rho: 0 });
      }
    });

    // The reader checks the group's enterprise itself (not only MetricsService's
    // existsForEnterprise): its days, releases and second-version cells, under another
    // enterprise's id, are no group at all.
    it("group mhci and wordcloud asked with another enterprise's id: not a period, not a legacy cell of the group", async () => {
      const groupId = await t.group(acme.enterpriseId);
      await t.rows(
        `INSERT INTO group_day_counts (group_id, day, sessions) VALUES ($1, '2025-02-03', 10)`,
        [groupId],
      );
      await t.rows(
        `INSERT INTO cohort_cells (group_id, series, first_day, last_day, sessions,
                                   hidden_participants, floor, participants, epsilon, noisy_sum,
                                   noisy_bins, bin_noise_variance)
         VALUES ($1, 'scores', '2025-02-01', '2025-02-05', 10, 10, 5, 10, 1, 80123,
                 '{0,0,0,0,0,0,0,1,9,0}', 50)`,
        [groupId],
      );
      const settings = { ...(await windows.settingsOf(globexId))!, maxMargin: 100 };
      // The owner's read merges the cell (the fixture holds what the foreign read must not).
      const [own] = await reader.mhci(acme.enterpriseId, groupId, ALL, settings);
      expect(own.accuracy).toMatchObject({ legacyCells: 1, participants: 10 });
      for (const range of [ALL, BY_DAY]) {
        expect(await reader.mhci(globexId, groupId, range, settings)).toEqual([]);
        expect(await reader.wordcloud(globexId, groupId, range, settings, 5)).toEqual([]);
      }
    });
  });
});
