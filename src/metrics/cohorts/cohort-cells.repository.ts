import { Injectable } from '@nestjs/common';
import { levelRevealing, type PrivacyFloor } from '../../common/privacy-model';
import { Database, Sql } from '../../database/database';
import { SHOWN_LEVEL } from '../../sessions/sessions.repository';
import type { CohortSeries } from './cohort-cell.entity';
import type { ScoreRelease } from '../releases/score-release';
import type { ReleasedWord } from '../releases/word-release';
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

  /**
   * A completed session: pending in both series, and one more in its day's count. A result for a
   * day sealing has already looked at makes that check stale: its run is looked at again at the
   * next sweep or read (docs/metrics.md).
   */
  async addCompleted(
    session: { sessionId: string; groupId: number },
    completedAt: Date,
    sql: Sql = this.db,
  ): Promise<void> {
    await sql.rows(
      `WITH pending AS (
         INSERT INTO cohort_pending (session_id, series, group_id)
         VALUES ($1, 'scores', $2), ($1, 'words', $2)),
       stale AS (
         UPDATE cohort_checks SET stale = true
          WHERE group_id = $2 AND NOT stale
            AND checked_through >= ($3::timestamptz AT TIME ZONE 'UTC')::date)
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

  /** The group's enterprise's floor and ε. */
  async floorOf(groupId: number, sql: Sql = this.db): Promise<PrivacyFloor | null> {
    const [floor] = await sql.rows<PrivacyFloor>(
      `SELECT e.min_cohort_scores AS "minCohortScores", e.min_cohort_words AS "minCohortWords",
              e.min_word_speakers AS "minWordSpeakers", e.epsilon::float8 AS epsilon
         FROM groups g JOIN enterprises e ON e.id = g.enterprise_id
        WHERE g.group_id = $1`,
      [groupId],
    );
    return floor ?? null;
  }

  /**
   * A new floor or ε (the operator's CLI): every group of the enterprise is looked at again at
   * its next sweep or read, under the new settings (cells released before keep theirs).
   */
  async settingsChanged(enterpriseId: string): Promise<void> {
    await this.db.rows(
      `UPDATE cohort_checks c SET stale = true FROM groups g
        WHERE g.group_id = c.group_id AND g.enterprise_id = $1 AND NOT c.stale`,
      [enterpriseId],
    );
  }

  /**
   * Whether the group's series may have something to seal or release through `closedDay`:
   * pending sessions, and no sealing has looked at it since that day closed or since its check
   * went stale.
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
                               WHERE group_id = $1 AND series = $2 AND checked_through >= $3::date
                                 AND NOT stale)
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
                             AND c.checked_through >= $1::date AND NOT c.stale)
        ORDER BY 1`,
      [closedDay],
    );
    return rows.map((row) => row.groupId);
  }

  /**
   * The group's pending sessions of a series (not of a cell awaiting release) whose effective day
   * (completion day, or the day after the last sealed cell for a result that came late) is closed
   * by `closedDay`, with whether the participant's applicable level hides them there.
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
   * What each participant gives a cell of scores: the mean MHCI of their sessions among
   * `sessionIds` (score-release.ts clips and rounds it).
   */
  async meanScoresOf(sessionIds: readonly string[], sql: Sql): Promise<number[]> {
    const rows = await sql.rows<{ mean: number }>(
      `SELECT avg(mhci)::float8 AS mean FROM sessions
        WHERE session_id = ANY ($1::text[]) AND mhci IS NOT NULL
        GROUP BY participant_id ORDER BY participant_id`,
      [sessionIds],
    );
    return rows.map((row) => row.mean);
  }

  /**
   * A run's sessions' word counts, sealed (transcript-codec.ts), with whose they are: the sealer
   * opens them to choose each participant's words (docs/metrics.md).
   */
  async sealedWordsOf(
    sessionIds: readonly string[],
    sql: Sql,
  ): Promise<{ participantId: string; wordCounts: string }[]> {
    return sql.rows(
      `SELECT participant_id AS "participantId", word_counts AS "wordCounts" FROM sessions
        WHERE session_id = ANY ($1::text[]) AND word_counts IS NOT NULL
        ORDER BY participant_id, session_id`,
      [sessionIds],
    );
  }

  /**
   * Seals a run as a new cell of `series` with its release; its sessions are no longer pending.
   * Answers the cell's id.
   */
  async sealRun(
    groupId: number,
    series: CohortSeries,
    run: SealableRun,
    floor: number,
    release: CellRelease,
    sql: Sql,
  ): Promise<number> {
    const [cell] = await sql.rows<{ id: number }>(
      `WITH cell AS (
         INSERT INTO cohort_cells
                (group_id, series, first_day, last_day, sessions, hidden_participants, floor,
                 participants, epsilon, noisy_sum, noisy_bins, bin_noise_variance)
         VALUES ($1, $2, $3, $4, cardinality($7::text[]), $5, $6, $8, $9::numeric / 100, $10, $11, $12)
         RETURNING id),
       done AS (
         DELETE FROM cohort_pending WHERE series = $2 AND session_id = ANY ($7::text[]))
       SELECT id FROM cell`,
      [
        groupId,
        series,
        run.firstDay,
        run.lastDay,
        run.hiddenParticipants,
        floor,
        run.sessionIds,
        ...releaseParams(release),
      ],
    );
    return cell.id;
  }

  /**
   * The group's running score releases through its scores cell `cellId` of `lastDay`: the
   * previous cell's totals plus this release (cohort-score-prefix.entity.ts); bins add one by one.
   */
  async addScorePrefix(
    groupId: number,
    cellId: number,
    lastDay: string,
    release: ScoreRelease,
    sql: Sql,
  ): Promise<void> {
    await sql.rows(
      `WITH previous AS (
         SELECT cells, participants, noisy_sum, noisy_bins, bin_noise_variance
           FROM cohort_score_prefixes
          WHERE group_id = $1 AND last_day < $2 ORDER BY last_day DESC LIMIT 1)
       INSERT INTO cohort_score_prefixes
              (cell_id, group_id, last_day, cells, participants, noisy_sum, noisy_bins,
               bin_noise_variance)
       SELECT $3, $1, $2, coalesce(p.cells, 0) + 1, coalesce(p.participants, 0) + $4,
              coalesce(p.noisy_sum, 0) + $5,
              (SELECT array_agg(coalesce(x.before, 0) + x.here ORDER BY x.i)
                 FROM unnest(p.noisy_bins, $6::int[]) WITH ORDINALITY AS x(before, here, i)),
              coalesce(p.bin_noise_variance, 0) + $7
         FROM (SELECT 1) one LEFT JOIN previous p ON true`,
      [
        groupId,
        lastDay,
        cellId,
        release.participants,
        release.noisySum,
        release.noisyBins,
        release.binNoiseVariance,
      ],
    );
  }

  /** The words a cell released, with their noisy counts (word-release.ts). */
  async addWords(cellId: number, words: readonly ReleasedWord[], sql: Sql): Promise<void> {
    if (words.length === 0) return;
    await sql.rows(
      `INSERT INTO cohort_cell_words (cell_id, word, count)
       SELECT $1, w.word, w.count FROM unnest($2::text[], $3::bigint[]) AS w(word, count)`,
      [cellId, words.map((w) => w.word), words.map((w) => w.count)],
    );
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

  /** Records that the group's series was sealed through `closedDay`, under the settings now. */
  async checked(groupId: number, series: CohortSeries, closedDay: string, sql: Sql): Promise<void> {
    await sql.rows(
      `INSERT INTO cohort_checks (group_id, series, checked_through) VALUES ($1, $2, $3)
       ON CONFLICT (group_id, series) DO UPDATE
          SET checked_through = greatest(cohort_checks.checked_through, excluded.checked_through),
              stale = false`,
      [groupId, series, closedDay],
    );
  }
}

/** What a cell stores of its release: the count and ε, and for scores the noisy sum and bins. */
export interface CellRelease {
  participants: number;
  /** Hundredths. */
  epsilon: number;
  scores: ScoreRelease | null;
}

const releaseParams = (release: CellRelease): unknown[] => [
  release.participants,
  release.epsilon,
  release.scores?.noisySum ?? null,
  release.scores?.noisyBins ?? null,
  release.scores?.binNoiseVariance ?? null,
];
