import { Injectable } from '@nestjs/common';
import { Database, Sql } from '../database/database';

/**
 * The per-session detail of a result that other rows are computed from: a session's feature
 * values (`session_features`, for percentiles) and the words of its participant's turns
 * (`session_word_counts`, for their own word cloud). Written once, at ingestion; removed by
 * retention with the transcript (SessionsRepository.removeExpiredTranscripts) and with the
 * participant on erasure (ON DELETE CASCADE).
 */
@Injectable()
export class SessionResultsRepository {
  constructor(private readonly db: Database) {}

  async addFeatures(
    session: { sessionId: string; groupId: number; participantId: string },
    features: readonly { name: string; value: number }[],
    sql: Sql = this.db,
  ): Promise<void> {
    if (features.length === 0) return;
    await sql.rows(
      `INSERT INTO session_features (session_id, group_id, participant_id, name, value)
       SELECT $1, $2, $3, name, value FROM unnest($4::text[], $5::float8[]) AS f(name, value)`,
      [
        session.sessionId,
        session.groupId,
        session.participantId,
        features.map((f) => f.name),
        features.map((f) => f.value),
      ],
    );
  }

  /**
   * Mid-rank percentile of each of the session's features among the participant's own completed
   * sessions, counted directly (a participant has few sessions; the (participant_id, name, value)
   * index serves it).
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

  async addWordCounts(
    sessionId: string,
    counts: ReadonlyMap<string, number>,
    sql: Sql = this.db,
  ): Promise<void> {
    if (counts.size === 0) return;
    const words = [...counts.keys()].sort();
    await sql.rows(
      `INSERT INTO session_word_counts (session_id, word, count)
       SELECT $1, word, count FROM unnest($2::text[], $3::int[]) AS w(word, count)`,
      [sessionId, words, words.map((word) => counts.get(word)!)],
    );
  }
}
