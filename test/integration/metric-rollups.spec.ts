/**
 * The rank maths of the per-session comparisons, on real PostgreSQL (docs/checkin-flow.md,
 * "Result ingestion"): each feature's mid-rank `(below + ½·(equal + 1)) / (n + 1)` among the n
 * values compared with. `groupPercentiles` (MetricRollupsRepository, SQL over the histograms):
 * exact for ties, bucket edges, zero, negatives and the float extremes; `{}` and features left
 * out when nothing compares; within 0.01 (half a bucket counted below) once the value's bucket
 * holds at most 2 % of the group, and exact above that; values taken out again leave no trace.
 * At ingestion (IngestionService with its real repositories): the group's other sessions count
 * only when shown at level 5 (the lower of the session's own level and the member's now), and
 * `userPercentiles` compare with the participant's own other level-5 sessions in every group.
 * Every expected value is worked out by hand beside its case.
 */
import { randomBytes } from 'node:crypto';
import { PiiCipher } from '../../src/common/crypto/pii-cipher';
import { GroupAccess } from '../../src/groups/group-access';
import { GroupsRepository } from '../../src/groups/groups.repository';
import { IngestionRepository } from '../../src/ingestion/ingestion.repository';
import { IngestionService } from '../../src/ingestion/ingestion.service';
import type { SessionResultDto } from '../../src/ingestion/session-result.dto';
import { bucketFloor, featureBucket } from '../../src/metrics/rollups/feature-buckets';
import {
  APPROXIMATE_BUCKET_SHARE,
  featureValues,
  MetricRollupsRepository,
} from '../../src/metrics/rollups/metric-rollups.repository';
import { SharedFeatures } from '../../src/metrics/rollups/shared-features';
import { SessionAccess } from '../../src/sessions/session-access';
import { SessionsRepository } from '../../src/sessions/sessions.repository';
import { EventsRepository } from '../../src/webhooks/events/events.repository';
import { TestDatabase } from './support';
import { handedOffAndConfirmed, windowReleaserOn } from './service-fixtures';

describe('per-session comparisons (PostgreSQL)', () => {
  let t: TestDatabase;
  let rollups: MetricRollupsRepository;
  let enterprise: string;

  beforeAll(async () => {
    t = await TestDatabase.create();
    rollups = new MetricRollupsRepository(t.db);
    enterprise = await t.enterprise();
  });
  afterAll(() => t.close());

  describe('MetricRollupsRepository.groupPercentiles', () => {
    /** Counts sessions' features in the group's comparisons, as SharedFeatures does. */
    const share = (groupId: number, ...sessions: Record<string, number>[]) =>
      t.db.transaction(async (sql) => {
        await rollups.lockGroups([groupId], sql);
        for (const features of sessions) {
          await rollups.addFeatures(groupId, featureValues(features), sql);
        }
      });
    /** Each of `values` as one session's feature `x`. */
    const shareX = (groupId: number, values: readonly number[]) =>
      share(groupId, ...values.map((x) => ({ x })));
    const percentiles = (groupId: number, features: Record<string, number>) =>
      rollups.groupPercentiles(groupId, featureValues(features));
    const groupOf = (...values: number[]) =>
      t.group(enterprise).then(async (groupId) => {
        await shareX(groupId, values);
        return groupId;
      });

    it('nothing to compare: {} for a group without values and for a result without features; a feature no session has is left out', async () => {
      const empty = await t.group(enterprise);
      expect(await percentiles(empty, { x: 1, y: 2 })).toEqual({});
      const group = await groupOf(5);
      expect(await percentiles(group, {})).toEqual({});
      // Only x is compared: one other value 5, mine 7 → (1 + ½) / 2.
      expect(await percentiles(group, { x: 7, y: 2 })).toEqual({ x: 0.75 });
    });

    it('one other session: a quarter below it, a half equal to it, three quarters above it', async () => {
      const group = await groupOf(50);
      expect(await percentiles(group, { x: 49.99 })).toEqual({ x: 0.25 }); // (0 + ½) / 2
      expect(await percentiles(group, { x: 50 })).toEqual({ x: 0.5 }); // (0 + ½·2) / 2
      expect(await percentiles(group, { x: 50.01 })).toEqual({ x: 0.75 }); // (1 + ½) / 2
    });

    it('ties count half, the session itself one half more', async () => {
      const group = await groupOf(10, 20, 20, 20, 30);
      expect(await percentiles(group, { x: 20 })).toEqual({ x: 3 / 6 }); // (1 + ½·4) / 6
      expect(await percentiles(group, { x: 10 })).toEqual({ x: 1 / 6 }); // (0 + ½·2) / 6
      expect(await percentiles(group, { x: 30 })).toEqual({ x: 5 / 6 }); // (4 + ½·2) / 6
      expect(await percentiles(group, { x: 25 })).toEqual({ x: 4.5 / 6 }); // (4 + ½) / 6
    });

    it('the extremes of the doubles, negatives and zero: −0 is 0, and 0 and the smallest double share a bucket', async () => {
      const tiny = 5e-324;
      expect(featureBucket(tiny)).toBe(featureBucket(0));
      const group = await groupOf(-Number.MAX_VALUE, -1e-300, 0, tiny, Number.MAX_VALUE);
      expect(await percentiles(group, { x: -Number.MAX_VALUE })).toEqual({ x: 1 / 6 }); // (0 + 1) / 6
      expect(await percentiles(group, { x: Number.MAX_VALUE })).toEqual({ x: 5 / 6 }); // (4 + 1) / 6
      // −0: two below (−MAX, −1e-300), 0 equal, 5e-324 in its bucket but above: (2 + 1) / 6.
      expect(await percentiles(group, { x: -0 })).toEqual({ x: 3 / 6 });
      // 5e-324: three below, one of them (0) in its own bucket: (3 + 1) / 6.
      expect(await percentiles(group, { x: tiny })).toEqual({ x: 4 / 6 });
      expect(await percentiles(group, { x: -1 })).toEqual({ x: 1.5 / 6 }); // (1 + ½) / 6
    });

    it('bucket edges: a value at its bucket’s floor counts as equal, the double just under it as below, one above it in the same bucket not at all', async () => {
      // 100 is the floor of its bucket [100, 100.5); 100.25 and 100.4 are inside it.
      const bucket = featureBucket(100);
      expect(bucketFloor(bucket)).toBe(100);
      expect(bucketFloor(bucket + 1)).toBe(100.5);
      const under = nextDown(100);
      expect(featureBucket(under)).toBe(bucket - 1);
      const group = await groupOf(under, 100, 100.25, 100.4, 100.5);
      expect(await percentiles(group, { x: 100 })).toEqual({ x: 2 / 6 }); // (1 + ½·2) / 6
      expect(await percentiles(group, { x: under })).toEqual({ x: 1 / 6 }); // (0 + ½·2) / 6
      expect(await percentiles(group, { x: 100.1 })).toEqual({ x: 2.5 / 6 }); // (2 + ½) / 6
      expect(await percentiles(group, { x: 100.25 })).toEqual({ x: 3 / 6 }); // (2 + ½·2) / 6
      expect(await percentiles(group, { x: 100.49 })).toEqual({ x: 4.5 / 6 }); // (4 + ½) / 6
      expect(await percentiles(group, { x: 100.5 })).toEqual({ x: 5 / 6 }); // (4 + ½·2) / 6
    });

    it('counted exactly while the value’s bucket holds more than 2 % of the group; at 2 % or less, half of it counts below (within 0.01)', async () => {
      expect(APPROXIMATE_BUCKET_SHARE).toBe(0.02);
      // 1 … 48 in buckets of their own and one value 100.25 in the bucket of 100.1, above it.
      const group = await groupOf(...Array.from({ length: 48 }, (_, i) => i + 1), 100.25);
      // 49 values: the bucket's 1 is over 2 % of them (0.98), counted exactly: (48 + ½) / 50.
      expect(await percentiles(group, { x: 100.1 })).toEqual({ x: 48.5 / 50 });
      // 50 values: 1 is 2 % of them, so half of it counts below: (49 + ½ + ½) / 51, where the
      // exact mid-rank is (49 + ½) / 51 — off by ½ / 51 < 0.01.
      await shareX(group, [49]);
      expect(await percentiles(group, { x: 100.1 })).toEqual({ x: 50 / 51 });
      // A value alone in its bucket is unaffected: (49 + ½·2) / 51.
      expect(await percentiles(group, { x: 100.25 })).toEqual({ x: 50 / 51 });
      // A bucket with two of 50 (4 %) is counted exactly again: 100.3 joins 100.25, 51 values.
      await shareX(group, [100.3]);
      expect(await percentiles(group, { x: 100.1 })).toEqual({ x: 49.5 / 52 }); // (49 + ½) / 52
    });

    it('features are compared each on its own values, and groups on their own', async () => {
      const group = await t.group(enterprise);
      const other = await groupOf(1, 2, 3);
      await share(group, { pitch: 1, tempo: 10 }, { pitch: 2 }, { tempo: 30 });
      expect(await percentiles(group, { tempo: 20, pitch: 2 })).toEqual({
        pitch: 2 / 3, // (1 + ½·2) / 3
        tempo: 1.5 / 3, // (1 + ½) / 3
      });
      expect(await percentiles(other, { x: 2.5 })).toEqual({ x: 2.5 / 4 }); // (2 + ½) / 4
    });

    it('values taken out (erasure, a lowered level) leave the comparisons as if never counted, with no empty rows', async () => {
      const group = await groupOf(10, 20, 20, 30);
      await t.db.transaction(async (sql) => {
        await rollups.lockGroups([group], sql);
        await rollups.forgetFeatureValues(
          [
            { groupId: group, name: 'x', value: 20 },
            { groupId: group, name: 'x', value: 30 },
          ],
          sql,
        );
      });
      expect(await percentiles(group, { x: 20 })).toEqual({ x: 2 / 3 }); // (1 + ½·2) / 3
      expect(
        await t.rows(
          `SELECT value, count FROM group_feature_values WHERE group_id = $1 ORDER BY value`,
          [group],
        ),
      ).toEqual([
        { value: 10, count: 1 },
        { value: 20, count: 1 },
      ]);
      expect(
        await t.rows(
          `SELECT bucket, count FROM group_feature_histograms WHERE group_id = $1 ORDER BY bucket`,
          [group],
        ),
      ).toEqual([
        { bucket: featureBucket(10), count: 1 },
        { bucket: featureBucket(20), count: 1 },
      ]);
    });
  });

  describe('at ingestion (IngestionService): who is compared', () => {
    const cipher = new PiiCipher(randomBytes(32));
    let ingestion: IngestionService;

    beforeAll(() => {
      const sessions = new SessionsRepository(t.db);
      ingestion = new IngestionService(
        t.db,
        new IngestionRepository(t.db),
        sessions,
        rollups,
        new SharedFeatures(t.db, new SessionAccess(sessions), rollups, cipher),
        windowReleaserOn(t.db, cipher),
        new GroupAccess(new GroupsRepository(t.db)),
        new EventsRepository(t.db, cipher),
        cipher,
      );
    });

    const member = async (groupId: number, level: number, participantId?: string) => {
      const participant = participantId ?? (await t.participant(enterprise));
      await t.membership(participant, groupId, level);
      return participant;
    };

    /**
     * A check-in of `participant` in `groupId` with these features; `ownLevel` is the level the
     * check-in itself was shared at (default: the member's). Answers the stored percentiles.
     */
    const checkIn = async (
      participant: string,
      groupId: number,
      features: Record<string, number>,
      ownLevel?: number,
    ) => {
      const sessionId = await t.session(enterprise, participant, groupId);
      // Handed off from its page (at the member's level unless `ownLevel`) and confirmed by the
      // browser that did it (docs/checkin-flow.md, "Hand-off").
      await handedOffAndConfirmed(t, sessionId, ownLevel ?? null);
      const result = {
        version: 'v1.0.0',
        mhci: 50,
        subscores: { vision: 50, audio: 50, transcript: 50, assessment: 50 },
        transcript: [{ role: 'user', content: 'fine' }],
        features,
        completedAt: '2026-03-02T09:00:00Z',
      } as SessionResultDto;
      expect(await ingestion.ingest(sessionId, result)).toBe('completed');
      return t.one<{ group: Record<string, number>; user: Record<string, number> }>(
        `SELECT group_percentiles AS group, user_percentiles AS user FROM sessions
          WHERE session_id = $1`,
        [sessionId],
      );
    };

    it('groupPercentiles: only the group’s other sessions shown at level 5 — not hidden ones, not a level-5 member’s check-in shared lower, not another group’s', async () => {
      const group = await t.group(enterprise);
      const elsewhere = await t.group(enterprise);
      expect((await checkIn(await member(group, 5), group, { x: 10 })).group).toEqual({});
      await checkIn(await member(group, 4), group, { x: 20 });
      await checkIn(await member(group, 0), group, { x: 30 });
      await checkIn(await member(group, 5), group, { x: 22 }, 3);
      await checkIn(await member(elsewhere, 5), elsewhere, { x: 24 });
      // Compared with 10 alone: (1 + ½) / 2. (Every session of the group: (3 + ½) / 5.)
      const probe = await member(group, 5);
      expect((await checkIn(probe, group, { x: 25 })).group).toEqual({ x: 0.75 });
      // A hidden member's check-in is compared too, with 10 and the probe's 25: (1 + ½·2) / 3.
      expect((await checkIn(await member(group, 0), group, { x: 25 })).group).toEqual({
        x: 2 / 3,
      });
    });

    it('userPercentiles: the participant’s own other level-5 sessions in every group, none hidden; {} with none', async () => {
      const shown = await t.group(enterprise);
      const alsoShown = await t.group(enterprise);
      const hidden = await t.group(enterprise);
      const z = await member(shown, 5);
      await member(alsoShown, 5, z);
      await member(hidden, 0, z);
      // Nothing of hers to compare with yet.
      expect((await checkIn(z, shown, { x: 10, y: 1 })).user).toEqual({});
      // Her 10 (another group) and x = 10: (0 + ½·2) / 2; y she has not measured here.
      expect((await checkIn(z, alsoShown, { x: 10 })).user).toEqual({ x: 0.5 });
      // Her 10 and 10, and 30: (2 + ½) / 3.
      expect((await checkIn(z, hidden, { x: 30 })).user).toEqual({ x: 2.5 / 3 });
      // The hidden 30 is not compared: x (0 + ½·3) / 3 (with it: 1.5 / 4); y 1 and 2: (1 + ½) / 2.
      expect((await checkIn(z, shown, { x: 10, y: 2 })).user).toEqual({ x: 0.5, y: 0.75 });
      // Another participant's sessions never enter: a colleague's first check-in compares with none.
      expect((await checkIn(await member(shown, 5), shown, { x: 10 })).user).toEqual({});
    });
  });
});

/** The largest double below `value` (positive `value`). */
function nextDown(value: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  view.setBigInt64(0, view.getBigInt64(0) - 1n);
  return view.getFloat64(0);
}
