import { Injectable } from '@nestjs/common';
import { Database, Sql } from '../../database/database';
import { columnsOf, RowOf } from '../../database/entity-columns';
import type { Subscores } from '../../sessions/session.entity';
import { SessionEntity } from '../../sessions/session.entity';
import { bucketFloor, featureBucket } from './feature-buckets';

/**
 * A bucket holding at most this share of the group is not counted inside: its sessions count
 * half below, an error of at most half this share (DESIGN §12: percentiles within 0.01).
 */
export const APPROXIMATE_BUCKET_SHARE = 0.02;

/** A result's features, sorted by name (lock order), each with its histogram bucket. */
export type FeatureValues = readonly { name: string; value: number; bucket: number }[];

export function featureValues(features: Record<string, number>): FeatureValues {
  return Object.keys(features)
    .sort()
    .map((name) => ({ name, value: features[name], bucket: featureBucket(features[name]) }));
}

const LOCKED_SESSION = columnsOf(SessionEntity, [
  'sessionId',
  'enterpriseId',
  'participantId',
  'groupId',
  'status',
  'resultHash',
]);

/**
 * The session being completed, with its participant's external ID and whether its group asks
 * for consent that the member has not given (DESIGN §14).
 */
export type LockedSession = RowOf<typeof LOCKED_SESSION> & {
  externalId: string;
  consentMissing: boolean;
  /** The session's enterprise is a sandbox (DESIGN §17). */
  sandbox: boolean;
};

/** The SQL of result ingestion; the service runs every method inside one transaction. */
@Injectable()
export class IngestionRepository {
  constructor(private readonly db: Database) {}

  /** Locks the session row for the rest of the transaction (one completion at a time). */
  async lockSession(sessionId: string, sql: Sql = this.db): Promise<LockedSession | null> {
    const [session] = await sql.rows<LockedSession>(
      `SELECT ${LOCKED_SESSION.select('s')}, p.external_id AS "externalId",
              g.consent_required AND m.consented_at IS NULL AS "consentMissing",
              e.sandbox
         FROM sessions s
         JOIN participants p ON p.id = s.participant_id
         JOIN enterprises e ON e.id = p.enterprise_id
         JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
         JOIN groups g ON g.group_id = s.group_id
        WHERE s.session_id = $1
        FOR UPDATE OF s`,
      [sessionId],
    );
    return session ?? null;
  }

  /**
   * Stores this session's features and adds them to its group's histograms (DESIGN §12), in one
   * statement. Features come sorted by name, so concurrent ingestions into one group lock the
   * histogram rows in the same order and cannot deadlock.
   */
  async addFeatures(
    session: LockedSession,
    features: FeatureValues,
    sql: Sql = this.db,
  ): Promise<void> {
    if (features.length === 0) return;
    await sql.rows(
      `WITH f AS (
         SELECT * FROM unnest($4::text[], $5::float8[], $6::int[]) AS f(name, value, bucket)),
       stored AS (
         INSERT INTO session_features (session_id, group_id, participant_id, name, value)
         SELECT $1, $2, $3, name, value FROM f)
       INSERT INTO group_feature_histograms AS h (group_id, name, bucket, count)
       SELECT $2, name, bucket, 1 FROM f
       ON CONFLICT (group_id, name, bucket) DO UPDATE SET count = h.count + 1`,
      [
        session.sessionId,
        session.groupId,
        session.participantId,
        features.map((f) => f.name),
        features.map((f) => f.value),
        features.map((f) => f.bucket),
      ],
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

  /**
   * The same mid-rank percentile among the participant's own completed sessions, counted directly
   * (a participant has few sessions; the (participant_id, name, value) index serves it).
   */
  async participantPercentiles(
    sessionId: string,
    sql: Sql = this.db,
  ): Promise<Record<string, number>> {
    const rows = await sql.rows<{ name: string; percentile: number }>(
      `SELECT f.name,
              (count(*) FILTER (WHERE o.value < f.value)
                + 0.5 * count(*) FILTER (WHERE o.value = f.value))::float8 / count(*) AS percentile
         FROM session_features f
         JOIN session_features o ON o.participant_id = f.participant_id AND o.name = f.name
        WHERE f.session_id = $1
        GROUP BY f.name
        ORDER BY f.name`,
      [sessionId],
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.percentile]));
  }

  async complete(
    sessionId: string,
    values: {
      completedAt: Date;
      version: string;
      mhci: number;
      subscores: Subscores;
      /** Sealed (sessions/transcript-codec.ts): never the plaintext. */
      sealedTranscript: string;
      features: Record<string, number>;
      groupPercentiles: Record<string, number>;
      userPercentiles: Record<string, number>;
      resultHash: string;
      synthetic: boolean;
    },
    sql: Sql = this.db,
  ): Promise<void> {
    await sql.rows(
      `UPDATE sessions
          SET status = 'completed', completed_at = $2, version = $3, mhci = $4, subscores = $5,
              transcript = $6, features = $7, group_percentiles = $8, user_percentiles = $9,
              result_hash = $10, synthetic = $11
        WHERE session_id = $1`,
      [
        sessionId,
        values.completedAt,
        values.version,
        values.mhci,
        JSON.stringify(values.subscores),
        values.sealedTranscript,
        JSON.stringify(values.features),
        JSON.stringify(values.groupPercentiles),
        JSON.stringify(values.userPercentiles),
        values.resultHash,
        values.synthetic,
      ],
    );
  }

  /** Per-session word counts and the group's per-day rollup (the day of completion, UTC). */
  async addWordCounts(
    session: LockedSession,
    completedAt: Date,
    counts: Map<string, number>,
    sql: Sql = this.db,
  ): Promise<void> {
    if (counts.size === 0) return;
    // Sorted: concurrent ingestions into one group then lock rollup rows in the same order and
    // cannot deadlock (two transcripts with shared words in different orders used to).
    const words = [...counts.keys()].sort();
    const numbers = words.map((word) => counts.get(word)!);
    await sql.rows(
      `INSERT INTO session_word_counts (session_id, word, count)
       SELECT $1, word, count FROM unnest($2::text[], $3::int[]) AS w(word, count)`,
      [session.sessionId, words, numbers],
    );
    await sql.rows(
      `INSERT INTO group_word_counts (group_id, day, word, count)
       SELECT $1, ($2::timestamptz AT TIME ZONE 'UTC')::date, word, count
         FROM unnest($3::text[], $4::int[]) AS w(word, count)
       ON CONFLICT (group_id, day, word)
       DO UPDATE SET count = group_word_counts.count + excluded.count`,
      [session.groupId, completedAt, words, numbers],
    );
  }

  /**
   * Counts the session's participant in the group's cohort of its completion day (privacy floor,
   * DESIGN §13): their row in `group_day_participants` (sessions, and sessions that gave words)
   * and, when this is their first session, or first word-giving one, of that day, one more in
   * `group_day_cohorts`. ON CONFLICT locks and re-reads the participant's row, so two of their
   * sessions completing at once still count them once. (The day's row is proposed as one
   * participant, the only value a new row can hold: PostgreSQL checks a proposed row's CHECK
   * constraints before it looks for the conflict, so an increment of 0 cannot be proposed.)
   */
  async addToCohort(
    session: LockedSession,
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

  /** One credit per completed check-in; balances may go negative (never blocks a check-in). */
  async deductCredit(groupId: number, sql: Sql = this.db): Promise<void> {
    await sql.rows('UPDATE groups SET credits = credits - 1 WHERE group_id = $1', [groupId]);
  }
}
