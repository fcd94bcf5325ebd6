import { Injectable } from '@nestjs/common';
import { Database, Sql } from '../../database/database';
import { bucketFloor, featureBucket } from './feature-buckets';

/**
 * A bucket holding at most this share of the group is not counted inside: its sessions count
 * half below, an error of at most half this share (docs/performance.md: percentiles within 0.01).
 */
export const APPROXIMATE_BUCKET_SHARE = 0.02;

/** A result's features, sorted by name (lock order), each with its histogram bucket. */
export type FeatureValues = readonly { name: string; value: number; bucket: number }[];

export function featureValues(features: Record<string, number>): FeatureValues {
  return Object.keys(features)
    .sort()
    .map((name) => ({ name, value: features[name], bucket: featureBucket(features[name]) }));
}

/** How many of one participant's feature values fall in one (group, feature, bucket). */
type HistogramCount = { groupId: number; name: string; bucket: number; count: number };

/**
 * The metric rollups' SQL: the per-day word counts, the feature histograms and the per-day cohort
 * counts of the privacy floor (docs/metrics.md). They are the only writer of these four tables:
 * ingestion adds a completed session's share, erasure takes a participant's share out
 * ({@link forgetParticipant}). Rows are always touched in one order (group, then word or feature
 * name, then bucket), so concurrent ingestions and erasures cannot deadlock on them.
 */
@Injectable()
export class MetricRollupsRepository {
  constructor(private readonly db: Database) {}

  /** Adds a session's features to its group's histograms (docs/checkin-flow.md). */
  async addFeatures(groupId: number, features: FeatureValues, sql: Sql = this.db): Promise<void> {
    if (features.length === 0) return;
    await sql.rows(
      `INSERT INTO group_feature_histograms AS h (group_id, name, bucket, count)
       SELECT $1, name, bucket, 1 FROM unnest($2::text[], $3::int[]) AS f(name, bucket)
       ON CONFLICT (group_id, name, bucket) DO UPDATE SET count = h.count + 1`,
      [groupId, features.map((f) => f.name), features.map((f) => f.bucket)],
    );
  }

  /**
   * Mid-rank percentile of each of this session's features among the group's completed sessions:
   * (below + ½·equal) / all, in [0, 1]; the session counts itself. From the histogram: the
   * buckets under the value's bucket count as below. Inside the value's own bucket (about 0.8 %
   * of the value wide) the sessions are counted exactly while that bucket holds more than
   * {@link APPROXIMATE_BUCKET_SHARE} of the group (small groups, concentrated values); otherwise
   * half of them count as below, which is off by at most half the bucket's share: ≤ 0.01. So a
   * large group is never scanned: the cost is the feature's number of buckets.
   */
  async groupPercentiles(
    groupId: number,
    features: FeatureValues,
    sql: Sql = this.db,
  ): Promise<Record<string, number>> {
    if (features.length === 0) return {};
    const rows = await sql.rows<{ name: string; percentile: number }>(
      `SELECT m.name,
              CASE WHEN h.here <= $6::numeric * h.total
                   THEN (h.below + 0.5 * h.here)::float8 / h.total
                   ELSE (h.below + (
                          SELECT count(*) FILTER (WHERE value < m.value)
                                 + 0.5 * count(*) FILTER (WHERE value = m.value)
                            FROM session_features
                           WHERE group_id = $1 AND name = m.name
                             AND value >= m.floor AND value <= m.value))::float8 / h.total
              END AS percentile
         FROM unnest($2::text[], $3::float8[], $4::int[], $5::float8[])
                AS m(name, value, bucket, floor)
        CROSS JOIN LATERAL (
              SELECT coalesce(sum(count) FILTER (WHERE bucket < m.bucket), 0) AS below,
                     coalesce(sum(count) FILTER (WHERE bucket = m.bucket), 0) AS here,
                     sum(count) AS total
                FROM group_feature_histograms
               WHERE group_id = $1 AND name = m.name) AS h
        ORDER BY m.name`,
      [
        groupId,
        features.map((f) => f.name),
        features.map((f) => f.value),
        features.map((f) => f.bucket),
        features.map((f) => bucketFloor(f.bucket)),
        APPROXIMATE_BUCKET_SHARE,
      ],
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.percentile]));
  }

  /** Adds a session's word counts to its group's rollup of the completion day (UTC). */
  async addWordCounts(
    groupId: number,
    completedAt: Date,
    counts: ReadonlyMap<string, number>,
    sql: Sql = this.db,
  ): Promise<void> {
    if (counts.size === 0) return;
    // Sorted: concurrent ingestions into one group then lock rollup rows in the same order and
    // cannot deadlock (two transcripts with shared words in different orders used to).
    const words = [...counts.keys()].sort();
    await sql.rows(
      `INSERT INTO group_word_counts (group_id, day, word, count)
       SELECT $1, ($2::timestamptz AT TIME ZONE 'UTC')::date, word, count
         FROM unnest($3::text[], $4::int[]) AS w(word, count)
       ON CONFLICT (group_id, day, word)
       DO UPDATE SET count = group_word_counts.count + excluded.count`,
      [groupId, completedAt, words, words.map((word) => counts.get(word)!)],
    );
  }

  /**
   * Counts the session's participant in the group's cohort of its completion day (privacy floor,
   * docs/metrics.md): their row in `group_day_participants` (sessions, and sessions that gave
   * words) and, when this is their first session, or first word-giving one, of that day, one more
   * in `group_day_cohorts`. ON CONFLICT locks and re-reads the participant's row, so two of their
   * sessions completing at once still count them once. (The day's row is proposed as one
   * participant, the only value a new row can hold: PostgreSQL checks a proposed row's CHECK
   * constraints before it looks for the conflict, so an increment of 0 cannot be proposed.)
   */
  async addToCohort(
    session: { groupId: number; participantId: string },
    completedAt: Date,
    gaveWords: boolean,
    sql: Sql = this.db,
  ): Promise<void> {
    await sql.rows(
      `WITH day AS (SELECT ($2::timestamptz AT TIME ZONE 'UTC')::date AS day),
       member AS (
         INSERT INTO group_day_participants AS p
                (group_id, day, participant_id, sessions, word_sessions)
         SELECT $1, day, $3, 1, $4::int FROM day
         ON CONFLICT (group_id, day, participant_id) DO UPDATE
            SET sessions = p.sessions + 1, word_sessions = p.word_sessions + excluded.word_sessions
         RETURNING (sessions = 1)::int AS new_participant,
                   ($4::int = 1 AND word_sessions = 1)::int AS new_word_participant)
       INSERT INTO group_day_cohorts AS c (group_id, day, participants, word_participants)
       SELECT $1, day.day, 1, member.new_word_participant
         FROM member, day
        WHERE member.new_participant = 1 OR member.new_word_participant = 1
       ON CONFLICT (group_id, day) DO UPDATE
          SET participants = c.participants + (SELECT new_participant FROM member),
              word_participants = c.word_participants + excluded.word_participants`,
      [session.groupId, completedAt, session.participantId, gaveWords ? 1 : 0],
    );
  }

  /**
   * Takes an erased participant's share out of every rollup (docs/privacy.md, "Erasure"): their
   * words out of the per-day word counts, their feature values out of the histograms, and them
   * out of the per-day cohort counts. Runs in the erasure's transaction while their sessions,
   * word counts and features still exist (they say what the share is); emptied rows go. Their
   * own `group_day_participants` rows go with the participant (ON DELETE CASCADE).
   */
  async forgetParticipant(participantId: string, sql: Sql): Promise<void> {
    await this.subtractWordCounts(participantId, sql);
    await this.subtractHistograms(await this.histogramCountsOf(participantId, sql), sql);
    await this.subtractCohorts(participantId, sql);
  }

  /** A row that held only their words goes, the others are reduced (one statement). */
  private async subtractWordCounts(participantId: string, sql: Sql): Promise<void> {
    await sql.rows(
      `WITH mine AS (
         SELECT s.group_id, (s.completed_at AT TIME ZONE 'UTC')::date AS day, w.word,
                sum(w.count) AS count
           FROM sessions s JOIN session_word_counts w ON w.session_id = s.session_id
          WHERE s.participant_id = $1 AND s.completed_at IS NOT NULL
          GROUP BY 1, 2, 3),
       emptied AS (
         DELETE FROM group_word_counts g USING mine
          WHERE g.group_id = mine.group_id AND g.day = mine.day AND g.word = mine.word
            AND g.count <= mine.count)
       UPDATE group_word_counts g SET count = g.count - mine.count
         FROM mine
        WHERE g.group_id = mine.group_id AND g.day = mine.day AND g.word = mine.word
          AND g.count > mine.count`,
      [participantId],
    );
  }

  /** The participant's feature values as histogram counts, sorted (the lock order). */
  private async histogramCountsOf(participantId: string, sql: Sql): Promise<HistogramCount[]> {
    const values = await sql.rows<{ groupId: number; name: string; value: number }>(
      `SELECT group_id AS "groupId", name, value FROM session_features WHERE participant_id = $1`,
      [participantId],
    );
    const counts = new Map<string, HistogramCount>();
    for (const { groupId, name, value } of values) {
      const bucket = featureBucket(value);
      const key = `${groupId}\u0000${name}\u0000${bucket}`;
      const entry = counts.get(key) ?? { groupId, name, bucket, count: 0 };
      entry.count++;
      counts.set(key, entry);
    }
    return [...counts.values()].sort(
      (a, b) =>
        a.groupId - b.groupId || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.bucket - b.bucket),
    );
  }

  /** Takes counts out of the feature histograms (emptied buckets go). */
  private async subtractHistograms(counts: readonly HistogramCount[], sql: Sql): Promise<void> {
    if (counts.length === 0) return;
    await sql.rows(
      `WITH mine AS (
         SELECT * FROM unnest($1::bigint[], $2::text[], $3::int[], $4::bigint[])
                  AS m(group_id, name, bucket, count)),
       emptied AS (
         DELETE FROM group_feature_histograms h USING mine
          WHERE h.group_id = mine.group_id AND h.name = mine.name AND h.bucket = mine.bucket
            AND h.count <= mine.count)
       UPDATE group_feature_histograms h SET count = h.count - mine.count
         FROM mine
        WHERE h.group_id = mine.group_id AND h.name = mine.name AND h.bucket = mine.bucket
          AND h.count > mine.count`,
      [
        counts.map((c) => c.groupId),
        counts.map((c) => c.name),
        counts.map((c) => c.bucket),
        counts.map((c) => c.count),
      ],
    );
  }

  /** Takes the participant out of their groups' per-day cohort counts. */
  private async subtractCohorts(participantId: string, sql: Sql): Promise<void> {
    await sql.rows(
      `WITH mine AS (
         SELECT group_id, day, (word_sessions > 0)::int AS gave_words
           FROM group_day_participants WHERE participant_id = $1),
       emptied AS (
         DELETE FROM group_day_cohorts c USING mine
          WHERE c.group_id = mine.group_id AND c.day = mine.day AND c.participants <= 1)
       UPDATE group_day_cohorts c
          SET participants = c.participants - 1,
              word_participants = c.word_participants - mine.gave_words
         FROM mine
        WHERE c.group_id = mine.group_id AND c.day = mine.day AND c.participants > 1`,
      [participantId],
    );
  }
}
