import { Injectable } from '@nestjs/common';
import { Sql } from '../database/database';

/** The participant an erasure is about, locked for its transaction. */
export interface ErasedParticipant {
  id: string;
  enterpriseId: string;
  externalId: string;
  groupIds: number[];
}

/**
 * The SQL of an erasure (DESIGN §14). Every method runs inside the erasure's one transaction,
 * after `lock`; the order matters: the rollups are reduced by the participant's share while the
 * rows that say what that share is still exist, then the participant row goes and takes
 * memberships, sessions, their results and word counts, features, mails, the ledger and the
 * cohort rows with it (foreign keys ON DELETE CASCADE).
 */
@Injectable()
export class ErasureRepository {
  /** The participant (within the enterprise when one is given), locked; null when not found. */
  async lock(
    externalId: string,
    enterpriseId: string | null,
    sql: Sql,
  ): Promise<ErasedParticipant | null> {
    const [participant] = await sql.rows<ErasedParticipant>(
      `SELECT p.id, p.enterprise_id AS "enterpriseId", p.external_id AS "externalId",
              coalesce((SELECT array_agg(m.group_id::int ORDER BY m.group_id)
                          FROM memberships m WHERE m.participant_id = p.id), '{}') AS "groupIds"
         FROM participants p
        WHERE p.external_id = $1 AND ($2::uuid IS NULL OR p.enterprise_id = $2)
        FOR UPDATE OF p`,
      [externalId, enterpriseId],
    );
    return participant ?? null;
  }

  /**
   * Takes the participant's words out of their groups' per-day word rollups: a row that held
   * only their words goes, the others are reduced (two disjoint sets of rows, one statement).
   */
  async subtractWordCounts(participantId: string, sql: Sql): Promise<void> {
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

  /** The participant's stored feature values, to take them out of the histograms. */
  async featureValues(
    participantId: string,
    sql: Sql,
  ): Promise<{ groupId: number; name: string; value: number }[]> {
    return sql.rows(
      `SELECT group_id AS "groupId", name, value FROM session_features WHERE participant_id = $1`,
      [participantId],
    );
  }

  /** Takes counts out of the groups' feature histograms (emptied buckets go). */
  async subtractHistograms(
    counts: readonly { groupId: number; name: string; bucket: number; count: number }[],
    sql: Sql,
  ): Promise<void> {
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

  /** Takes the participant out of their groups' per-day cohort counts (privacy floor). */
  async subtractCohorts(participantId: string, sql: Sql): Promise<void> {
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

  /**
   * Deletes the enterprise's events that name the participant (their `user.created`,
   * `user.session.result` and `user.privacy.updated`, with any pending deliveries and the
   * delivery log), so no payload keeps their external ID or email.
   */
  async deleteEventsNaming(enterpriseId: string, externalId: string, sql: Sql): Promise<void> {
    await sql.rows(
      `DELETE FROM events
        WHERE enterprise_id = $1
          AND (payload->>'userIdentifier' = $2 OR payload->>'externalUserID' = $2)`,
      [enterpriseId, externalId],
    );
  }

  /** Deletes stored idempotent answers that name the participant. */
  async deleteIdempotencyRecordsNaming(
    enterpriseId: string,
    externalId: string,
    sql: Sql,
  ): Promise<void> {
    await sql.rows(
      `DELETE FROM idempotency_keys
        WHERE enterprise_id = $1 AND response->>'userIdentifier' = $2`,
      [enterpriseId, externalId],
    );
  }

  /** Deletes the participant row; everything that hangs off it goes with it (cascade). */
  async deleteParticipant(participantId: string, sql: Sql): Promise<void> {
    await sql.rows('DELETE FROM participants WHERE id = $1', [participantId]);
  }
}
