import { Injectable } from '@nestjs/common';
import { levelRevealing, type PrivacyFloor } from '../../common/privacy-model';
import { Database, Sql } from '../../database/database';
import { SHOWN_LEVEL } from '../../sessions/sessions.repository';
import type { CohortSeries } from './cohort-cell.entity';
import { SCORE_BIN_SQL, SCORE_BINS } from './cohort-score-prefix.entity';
import type { PendingSession, SealableRun } from './sealing-runs';

/** Per series: the level that shows what it aggregates, and whether a session gives it anything. */
const SERIES: Record<CohortSeries, { shows: number; contributes: string }> = {
  scores: { shows: levelRevealing('mhci'), contributes: 's.mhci IS NOT NULL' },
  words: {
    shows: levelRevealing('transcript'),
    contributes: 'coalesce(s.counted_words, 0) > 0',
  },
};

/**
 * The owner of the sealed cohort cells and what feeds them (docs/metrics.md, "Sealed cohort
 * cells"): `cohort_cells` with their scores and words, `cohort_pending`, `cohort_checks` and the
 * per-day counts of group `count`. Ingestion adds a completed session ({@link addCompleted});
 * the sealer ({@link CohortSealer}) seals runs; erasure takes a participant out of the live day
 * counts ({@link forgetParticipant}) while sealed cells stay as they are.
 */
@Injectable()
export class CohortCellsRepository {
  constructor(private readonly db: Database) {}

  /** A completed session: pending in both series, and one more in its day's count. */
  async addCompleted(
    session: { sessionId: string; groupId: number },
    completedAt: Date,
    sql: Sql = this.db,
  ): Promise<void> {
    await sql.rows(
      `WITH pending AS (
         INSERT INTO cohort_pending (session_id, series, group_id)
         VALUES ($1, 'scores', $2), ($1, 'words', $2))
       INSERT INTO group_day_counts AS c (group_id, day, sessions)
       VALUES ($2, ($3::timestamptz AT TIME ZONE 'UTC')::date, 1)
       ON CONFLICT (group_id, day) DO UPDATE SET sessions = c.sessions + 1`,
      [session.sessionId, session.groupId, completedAt],
    );
  }

  /**
   * Takes an erased participant's completed sessions out of the live per-day counts (emptied days
   * go). Their pending rows go with their sessions (ON DELETE CASCADE); sealed cells stay.
   */
  async forgetParticipant(participantId: string, sql: Sql): Promise<void> {
    await sql.rows(
      `WITH mine AS (
         SELECT group_id, (completed_at AT TIME ZONE 'UTC')::date AS day, count(*) AS sessions
           FROM sessions
          WHERE participant_id = $1 AND completed_at IS NOT NULL
          GROUP BY 1, 2),
       emptied AS (
         DELETE FROM group_day_counts c USING mine
          WHERE c.group_id = mine.group_id AND c.day = mine.day AND c.sessions <= mine.sessions)
       UPDATE group_day_counts c SET sessions = c.sessions - mine.sessions
         FROM mine
        WHERE c.group_id = mine.group_id AND c.day = mine.day AND c.sessions > mine.sessions`,
      [participantId],
    );
  }

  /**
   * Holds the group's series for the rest of the transaction: two processes sealing the same
   * group never seal the same run twice (the second sees what the first sealed).
   */
  async lock(groupId: number, series: CohortSeries, sql: Sql): Promise<void> {
    await sql.rows(`SELECT pg_advisory_xact_lock(hashtextextended($1, $2))`, [
      `cohort-cells:${series}`,
      groupId,
    ]);
  }

  /** The group's enterprise's floor. */
  async floorOf(groupId: number, sql: Sql = this.db): Promise<PrivacyFloor | null> {
    const [floor] = await sql.rows<PrivacyFloor>(
      `SELECT e.min_cohort_scores AS "minCohortScores", e.min_cohort_words AS "minCohortWords",
              e.min_word_speakers AS "minWordSpeakers"
         FROM groups g JOIN enterprises e ON e.id = g.enterprise_id
        WHERE g.group_id = $1`,
      [groupId],
    );
    return floor ?? null;
  }

  /**
   * Whether the group's series may have something to seal through `closedDay`: pending sessions,
   * and no sealing has looked at it since that day closed.
   */
  async dueForSealing(
    groupId: number,
    series: CohortSeries,
    closedDay: string,
    sql: Sql = this.db,
  ): Promise<boolean> {
    const [row] = await sql.rows<{ due: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM cohort_pending WHERE group_id = $1 AND series = $2)
              AND NOT EXISTS (SELECT 1 FROM cohort_checks
                               WHERE group_id = $1 AND series = $2 AND checked_through >= $3::date)
              AS due`,
      [groupId, series, closedDay],
    );
    return row.due;
  }

  /**
   * How far behind sealing is (docs/operations.md, "Metrics"), in seconds: over the groups and
   * series with pending sessions, the longest time since the first day sealing has not looked at
   * closed (the day after `cohort_checks.checked_through`, or the group's first day with results
   * when it was never checked); 0 when every such day is still open. A day closes
   * `sealDelayMinutes` after it ends, and the workers' sweep checks it within five minutes, so
   * this stays under that while sealing keeps up. The groups with pending sessions are found by
   * a skip scan of `cohort_pending_group_series_idx` (one probe per group and series, however
   * many sessions wait), each checked day by primary key.
   */
  async sealingLagSeconds(sealDelayMinutes: number): Promise<number> {
    const [row] = await this.db.rows<{ lag: number }>(
      `WITH RECURSIVE waiting AS (
         (SELECT group_id, series FROM cohort_pending ORDER BY group_id, series LIMIT 1)
         UNION ALL
         SELECT next.group_id, next.series
           FROM waiting w
          CROSS JOIN LATERAL (
                SELECT p.group_id, p.series FROM cohort_pending p
                 WHERE (p.group_id, p.series) > (w.group_id, w.series)
                 ORDER BY p.group_id, p.series LIMIT 1) next)
       SELECT coalesce(greatest(0, max(extract(epoch FROM now() - (
                (coalesce(c.checked_through + 1, first.day) + 1)::timestamp AT TIME ZONE 'UTC'
                + $1 * interval '1 minute')))), 0)::float8 AS lag
         FROM waiting w
         LEFT JOIN cohort_checks c ON c.group_id = w.group_id AND c.series = w.series
         LEFT JOIN LATERAL (
               SELECT min(d.day) AS day FROM group_day_counts d WHERE d.group_id = w.group_id
              ) first ON true`,
      [sealDelayMinutes],
    );
    return row.lag;
  }

  /** The groups whose series may have something to seal through `closedDay` (the sweep's list). */
  async groupsDueForSealing(closedDay: string, sql: Sql = this.db): Promise<number[]> {
    const rows = await sql.rows<{ groupId: number }>(
      `SELECT DISTINCT p.group_id AS "groupId"
         FROM cohort_pending p
        WHERE NOT EXISTS (SELECT 1 FROM cohort_checks c
                           WHERE c.group_id = p.group_id AND c.series = p.series
                             AND c.checked_through >= $1::date)
        ORDER BY 1`,
      [closedDay],
    );
    return rows.map((row) => row.groupId);
  }

  /**
   * The group's pending sessions of a series whose effective day (completion day, or the day after
   * the last sealed cell for a result that came late) is closed by `closedDay`, with whether the
   * participant's applicable level hides them there.
   */
  async pending(
    groupId: number,
    series: CohortSeries,
    closedDay: string,
    sql: Sql,
  ): Promise<PendingSession[]> {
    const { shows, contributes } = SERIES[series];
    return sql.rows<PendingSession>(
      `WITH sealed AS (
         SELECT max(last_day) AS through FROM cohort_cells WHERE group_id = $1 AND series = $2),
       due AS (
         SELECT s.session_id, s.participant_id,
                greatest((s.completed_at AT TIME ZONE 'UTC')::date, sealed.through + 1) AS day,
                ${SHOWN_LEVEL} < $4 AS hidden, ${contributes} AS contributes
           FROM cohort_pending p
           JOIN sessions s ON s.session_id = p.session_id
           JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
          CROSS JOIN sealed
          WHERE p.group_id = $1 AND p.series = $2)
       SELECT session_id AS "sessionId", participant_id AS "participantId", day::text AS day,
              hidden, contributes
         FROM due WHERE day <= $3::date`,
      [groupId, series, closedDay, shows],
    );
  }

  /**
   * Seals a run of scores: the cell with its exact MHCI histogram, then the group's running
   * totals through it (the previous cell's plus this one's; cells seal in order, under the
   * group's lock); its sessions are no longer pending.
   */
  async sealScores(groupId: number, run: SealableRun, floor: number, sql: Sql): Promise<void> {
    await sql.rows(
      `WITH cell AS (${this.insertCell('scores')}),
       histogram AS (
         INSERT INTO cohort_cell_scores (cell_id, mhci, count, group_id, last_day, bin)
         SELECT cell.id, s.mhci, count(*), $1, $3, ${SCORE_BIN_SQL('s.mhci')}
           FROM cell, sessions s
          WHERE s.session_id = ANY ($6::text[]) AND s.mhci IS NOT NULL
          GROUP BY cell.id, s.mhci)
       DELETE FROM cohort_pending WHERE series = 'scores' AND session_id = ANY ($6::text[])`,
      this.cellParams(groupId, run, floor),
    );
    await this.addScorePrefix(groupId, run.lastDay, sql);
  }

  /**
   * The group's running score totals through its scores cell of `lastDay`: the previous cell's
   * totals plus this cell's histogram (cohort-score-prefix.entity.ts).
   */
  async addScorePrefix(groupId: number, lastDay: string, sql: Sql = this.db): Promise<void> {
    await sql.rows(
      `WITH cell AS (
         SELECT id FROM cohort_cells WHERE group_id = $1 AND series = 'scores' AND last_day = $2),
       previous AS (
         SELECT sessions, sum, bins FROM cohort_score_prefixes
          WHERE group_id = $1 AND last_day < $2 ORDER BY last_day DESC LIMIT 1),
       here AS (
         SELECT bin, sum(count) AS n, sum(mhci::numeric * count) AS total
           FROM cohort_cell_scores WHERE cell_id = (SELECT id FROM cell) GROUP BY bin)
       INSERT INTO cohort_score_prefixes (cell_id, group_id, last_day, sessions, sum, bins)
       SELECT (SELECT id FROM cell), $1, $2,
              coalesce((SELECT sessions FROM previous), 0) + (SELECT sum(n) FROM here),
              coalesce((SELECT sum FROM previous), 0) + (SELECT sum(total) FROM here),
              (SELECT array_agg(coalesce((SELECT bins[b + 1] FROM previous), 0)
                                + coalesce(here.n, 0)::int ORDER BY b)
                 FROM generate_series(0, ${SCORE_BINS - 1}) b
                 LEFT JOIN here ON here.bin = b)`,
      [groupId, lastDay],
    );
  }

  /**
   * A run's sessions' word counts, sealed (transcript-codec.ts), with whose they are: the sealer
   * opens them to count words and speakers (docs/metrics.md).
   */
  async sealedWordsOf(
    sessionIds: readonly string[],
    sql: Sql,
  ): Promise<{ participantId: string; wordCounts: string }[]> {
    return sql.rows(
      `SELECT participant_id AS "participantId", word_counts AS "wordCounts" FROM sessions
        WHERE session_id = ANY ($1::text[]) AND word_counts IS NOT NULL`,
      [sessionIds],
    );
  }

  /**
   * Seals a run of words: the cell with the counts of the words enough of its participants said
   * (chosen by the sealer; rarer ones are never stored); its sessions are no longer pending.
   */
  async sealWords(
    groupId: number,
    run: SealableRun,
    floor: number,
    words: readonly { word: string; count: number }[],
    sql: Sql,
  ): Promise<void> {
    await sql.rows(
      `WITH cell AS (${this.insertCell('words')}),
       words AS (
         INSERT INTO cohort_cell_words (cell_id, word, count)
         SELECT cell.id, w.word, w.count FROM cell, unnest($7::text[], $8::bigint[]) AS w(word, count))
       DELETE FROM cohort_pending WHERE series = 'words' AND session_id = ANY ($6::text[])`,
      [
        ...this.cellParams(groupId, run, floor),
        words.map((w) => w.word),
        words.map((w) => w.count),
      ],
    );
    await this.addWordPrefix(groupId, run.lastDay, sql);
  }

  /**
   * The running word counts of the group's word cells through its cell of `lastDay`: the previous
   * cell's plus this cell's words (cohort-word-prefix.entity.ts).
   */
  async addWordPrefix(groupId: number, lastDay: string, sql: Sql = this.db): Promise<void> {
    await sql.rows(
      `WITH previous AS (
         SELECT p.word, p.count FROM cohort_word_prefixes p
          WHERE p.group_id = $1
            AND p.last_day = (SELECT max(last_day) FROM cohort_cells
                               WHERE group_id = $1 AND series = 'words' AND last_day < $2)),
       here AS (
         SELECT w.word, w.count FROM cohort_cell_words w
          WHERE w.cell_id = (SELECT id FROM cohort_cells
                              WHERE group_id = $1 AND series = 'words' AND last_day = $2))
       INSERT INTO cohort_word_prefixes (group_id, last_day, word, count)
       SELECT $1, $2, coalesce(previous.word, here.word),
              coalesce(previous.count, 0) + coalesce(here.count, 0)
         FROM previous FULL JOIN here ON here.word = previous.word`,
      [groupId, lastDay],
    );
  }

  /** Records that the group's series was sealed through `closedDay`. */
  async checked(groupId: number, series: CohortSeries, closedDay: string, sql: Sql): Promise<void> {
    await sql.rows(
      `INSERT INTO cohort_checks (group_id, series, checked_through) VALUES ($1, $2, $3)
       ON CONFLICT (group_id, series) DO UPDATE
          SET checked_through = greatest(cohort_checks.checked_through, excluded.checked_through)`,
      [groupId, series, closedDay],
    );
  }

  private insertCell(series: CohortSeries): string {
    return `INSERT INTO cohort_cells
              (group_id, series, first_day, last_day, sessions, hidden_participants, floor)
            VALUES ($1, '${series}', $2, $3, cardinality($6::text[]), $4, $5)
            RETURNING id`;
  }

  private cellParams(groupId: number, run: SealableRun, floor: number): unknown[] {
    return [groupId, run.firstDay, run.lastDay, run.hiddenParticipants, floor, run.sessionIds];
  }
}
