import { Injectable } from '@nestjs/common';
import { Sql } from '../../database/database';

export interface LockedSession {
  sessionId: string;
  enterpriseId: string;
  participantId: string;
  externalId: string;
  groupId: number;
  status: 'created' | 'completed';
  resultHash: string | null;
}

/** The SQL of result ingestion; every method runs inside the ingestion transaction. */
@Injectable()
export class IngestionRepository {
  /** Locks the session row for the rest of the transaction (one completion at a time). */
  async lockSession(sql: Sql, sessionId: string): Promise<LockedSession | null> {
    const rows = await sql.rows<{
      session_id: string;
      enterprise_id: string;
      participant_id: string;
      external_id: string;
      group_id: string;
      status: 'created' | 'completed';
      result_hash: string | null;
    }>(
      `SELECT s.session_id, s.enterprise_id, s.participant_id, p.external_id, s.group_id, s.status,
              s.result_hash
         FROM sessions s JOIN participants p ON p.id = s.participant_id
        WHERE s.session_id = $1
        FOR UPDATE OF s`,
      [sessionId],
    );
    if (!rows.length) return null;
    const row = rows[0];
    return {
      sessionId: row.session_id,
      enterpriseId: row.enterprise_id,
      participantId: row.participant_id,
      externalId: row.external_id,
      groupId: Number(row.group_id),
      status: row.status,
      resultHash: row.result_hash,
    };
  }

  async insertFeatures(
    sql: Sql,
    session: LockedSession,
    features: Record<string, number>,
  ): Promise<void> {
    const names = Object.keys(features);
    if (names.length === 0) return;
    await sql.rows(
      `INSERT INTO session_features (session_id, group_id, participant_id, name, value)
       SELECT $1, $2, $3, name, value FROM unnest($4::text[], $5::float8[]) AS f(name, value)`,
      [
        session.sessionId,
        session.groupId,
        session.participantId,
        names,
        names.map((name) => features[name]),
      ],
    );
  }

  /**
   * Mid-rank percentile of each of this session's features among the completed sessions of the
   * group (or of the participant): (below + ½·equal) / all, in [0, 1]; the session counts itself.
   */
  async percentiles(
    sql: Sql,
    sessionId: string,
    scope: 'group' | 'participant',
  ): Promise<Record<string, number>> {
    const column = scope === 'group' ? 'group_id' : 'participant_id';
    const rows = await sql.rows<{ name: string; percentile: number }>(
      `SELECT f.name,
              (count(*) FILTER (WHERE o.value < f.value)
                + 0.5 * count(*) FILTER (WHERE o.value = f.value))::float8 / count(*) AS percentile
         FROM session_features f
         JOIN session_features o ON o.${column} = f.${column} AND o.name = f.name
        WHERE f.session_id = $1
        GROUP BY f.name
        ORDER BY f.name`,
      [sessionId],
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.percentile]));
  }

  async complete(
    sql: Sql,
    sessionId: string,
    values: {
      completedAt: Date;
      version: string;
      mhci: number;
      subscores: object;
      transcript: object;
      features: object;
      groupPercentiles: object;
      userPercentiles: object;
      resultHash: string;
      synthetic: boolean;
    },
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
        JSON.stringify(values.transcript),
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
    sql: Sql,
    session: LockedSession,
    completedAt: Date,
    counts: Map<string, number>,
  ): Promise<void> {
    if (counts.size === 0) return;
    const words = [...counts.keys()];
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

  /** One credit per completed check-in; balances may go negative (never blocks a check-in). */
  async deductCredit(sql: Sql, groupId: number): Promise<void> {
    await sql.rows('UPDATE groups SET credits = credits - 1 WHERE group_id = $1', [groupId]);
  }
}
