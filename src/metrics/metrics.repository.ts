import { Injectable } from '@nestjs/common';
import { SHOWN_LEVEL } from '../sessions/sessions.repository';
import { Database } from '../database/database';
import type { MhciStatsDto } from './dto/metric-answers.dto';
import type { CohortSeries } from './cohorts/cohort-cell.entity';
import type { GroupBy } from './metrics.errors';

/** A period's MHCI statistics; `shown` false (stats null) when no sealed cell answers it. */
export type MhciRow = { key: string; sessions: number; shown: boolean } & {
  [K in keyof MhciStatsDto]: number | null;
};

/** One word of a period's cloud; a period no sealed cell answers has one row, without words. */
export type WordcloudRow =
  | { key: string; shown: true; word: string; share: number }
  | { key: string; shown: boolean; word: null; share: null };

/**
 * Whose sessions: a group's, or a participant's (with the privacy level a metric needs), always
 * within the calling enterprise.
 */
export type MetricScope = { enterpriseId: string } & (
  | { kind: 'group'; groupId: number }
  | { kind: 'participant'; participantId: string; minimumLevel: number }
);

export interface MetricRange {
  from: string | null;
  to: string | null;
  groupBy: GroupBy | null;
}

/** Period keys (docs/metrics.md): day YYYY-MM-DD, ISO week's Monday YYYY-MM-DD, month YYYY-MM. */
const PERIOD: Record<GroupBy, { unit: string; format: string }> = {
  day: { unit: 'day', format: 'YYYY-MM-DD' },
  week: { unit: 'week', format: 'YYYY-MM-DD' },
  month: { unit: 'month', format: 'YYYY-MM' },
};

const periodOf = (groupBy: GroupBy | null, timestamp: string): string =>
  groupBy
    ? `to_char(date_trunc('${PERIOD[groupBy].unit}', ${timestamp}), '${PERIOD[groupBy].format}')`
    : `'all'`;

/**
 * The scope's own id, but only within the enterprise ($1 = group or participant id, $2 =
 * enterprise id): a scalar sub-select PostgreSQL evaluates once, so the covering indexes still
 * serve the range as index-only scans.
 */
const ownerIn = (scope: MetricScope): string =>
  scope.kind === 'group'
    ? '(SELECT group_id FROM groups WHERE group_id = $1 AND enterprise_id = $2)'
    : '(SELECT id FROM participants WHERE id = $1 AND enterprise_id = $2)';

/**
 * Every metric is one SQL statement; nothing is loaded into Node but the answer. Sessions count
 * by completion time in UTC; `from`/`to` are inclusive days. Parameters: $1 the scope's id, $2 the
 * enterprise, $3 from, $4 to (and $5 top for word clouds).
 */
@Injectable()
export class MetricsRepository {
  constructor(private readonly db: Database) {}

  /** FROM/WHERE over the scope's completed sessions in the range. */
  private sessions(scope: MetricScope): string {
    const membership =
      scope.kind === 'participant'
        ? `JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
             AND ${SHOWN_LEVEL} >= ${scope.minimumLevel}`
        : '';
    const owner = scope.kind === 'group' ? 's.group_id' : 's.participant_id';
    return `FROM sessions s ${membership}
           WHERE ${owner} = ${ownerIn(scope)} AND s.completed_at IS NOT NULL
             AND ($3::date IS NULL OR s.completed_at >= $3::date::timestamp AT TIME ZONE 'UTC')
             AND ($4::date IS NULL OR s.completed_at < ($4::date + 1)::timestamp AT TIME ZONE 'UTC')`;
  }

  private params(scope: MetricScope, range: MetricRange): unknown[] {
    return [
      scope.kind === 'group' ? scope.groupId : scope.participantId,
      scope.enterpriseId,
      range.from,
      range.to,
    ];
  }

  /**
   * Completed sessions per period. A group's, exact and live, from its per-day counts (a year is
   * 365 rows, whatever the group's size); a participant's, from their sessions.
   */
  async count(scope: MetricScope, range: MetricRange): Promise<{ key: string; value: number }[]> {
    if (scope.kind === 'group') {
      return this.db.rows(
        `SELECT ${periodOf(range.groupBy, 'd.day::timestamp')} AS key,
                coalesce(sum(d.sessions), 0)::int AS value
           ${this.groupDays(scope)}
         ${range.groupBy ? 'GROUP BY 1 ORDER BY 1' : ''}`,
        this.params(scope, range),
      );
    }
    const key = periodOf(range.groupBy, "s.completed_at AT TIME ZONE 'UTC'");
    return this.db.rows(
      `SELECT ${key} AS key, count(*)::int AS value ${this.sessions(scope)}
       ${range.groupBy ? 'GROUP BY 1 ORDER BY 1' : ''}`,
      this.params(scope, range),
    );
  }

  async mhci(scope: MetricScope, range: MetricRange): Promise<MhciRow[]> {
    if (scope.kind === 'group') return this.groupMhci(scope, range);
    const key = periodOf(range.groupBy, "s.completed_at AT TIME ZONE 'UTC'");
    return this.db.rows(
      `SELECT ${key} AS key, count(*)::int AS sessions, true AS shown,
              min(s.mhci) AS "minMhci", max(s.mhci) AS "maxMhci", avg(s.mhci) AS "avgMhci",
              percentile_cont(0.25) WITHIN GROUP (ORDER BY s.mhci) AS "percentile25Mhci",
              percentile_cont(0.5) WITHIN GROUP (ORDER BY s.mhci) AS "percentile50Mhci",
              percentile_cont(0.75) WITHIN GROUP (ORDER BY s.mhci) AS "percentile75Mhci"
       ${this.sessions(scope)}
       ${range.groupBy ? 'GROUP BY 1 ORDER BY 1' : ''}`,
      this.params(scope, range),
    );
  }

  /**
   * A group's MHCI statistics (docs/metrics.md, "Sealed cohort cells"): per period of `count`, the
   * union of the sealed score cells whose last day falls in it, merged from their exact
   * histograms. Continuous percentiles as PostgreSQL's `percentile_cont` computes them (the two
   * neighbouring ranks of p·(n − 1), interpolated), so they are exact over any union; the mean
   * from an exact numeric sum. A period with sessions but no cell has `shown` false.
   */
  private groupMhci(
    scope: MetricScope & { kind: 'group' },
    range: MetricRange,
  ): Promise<MhciRow[]> {
    const percentile = (p: number, name: string) =>
      `CASE WHEN h.sessions IS NULL THEN NULL
            ELSE h.lo${name} + (${p}::float8 * (h.sessions - 1) - floor(${p}::float8 * (h.sessions - 1)))
                 * (h.hi${name} - h.lo${name}) END AS "percentile${name}Mhci"`;
    const ranks = (p: number, name: string) =>
      `min(mhci) FILTER (WHERE below + n > floor(${p}::float8 * (total - 1))) AS lo${name},
       min(mhci) FILTER (WHERE below + n > ceil(${p}::float8 * (total - 1))) AS hi${name}`;
    return this.db.rows(
      `WITH periods AS (
         SELECT DISTINCT ${periodOf(range.groupBy, 'd.day::timestamp')} AS key ${this.groupDays(scope)}),
       values AS (
         SELECT ${periodOf(range.groupBy, 'c.last_day::timestamp')} AS key, v.mhci, sum(v.count) AS n
           ${this.groupCells(scope, 'scores')}
           JOIN cohort_cell_scores v ON v.cell_id = c.id
          GROUP BY 1, 2),
       ranked AS (
         SELECT key, mhci, n, sum(n) OVER (PARTITION BY key ORDER BY mhci) - n AS below,
                sum(n) OVER (PARTITION BY key) AS total
           FROM values),
       histograms AS (
         SELECT key, total::int AS sessions, min(mhci) AS "minMhci", max(mhci) AS "maxMhci",
                (sum(mhci::numeric * n) / total)::float8 AS "avgMhci",
                ${ranks(0.25, '25')}, ${ranks(0.5, '50')}, ${ranks(0.75, '75')}
           FROM ranked GROUP BY key, total)
       SELECT p.key, coalesce(h.sessions, 0) AS sessions, h.sessions IS NOT NULL AS shown,
              h."minMhci", h."maxMhci", h."avgMhci",
              ${percentile(0.25, '25')}, ${percentile(0.5, '50')}, ${percentile(0.75, '75')}
         FROM periods p LEFT JOIN histograms h ON h.key = p.key
        ORDER BY p.key`,
      this.params(scope, range),
    );
  }

  /**
   * The `top` words of each period with their share of all counted words of that period. A
   * group reads the sealed word cells whose last day falls in the period (the words they hold); a
   * participant, the per-session counts. A group's periods are those of `count`; one without a
   * sealed cell has `shown` false and no words.
   */
  async wordcloud(scope: MetricScope, range: MetricRange, top: number): Promise<WordcloudRow[]> {
    const source =
      scope.kind === 'group'
        ? `SELECT ${periodOf(range.groupBy, 'c.last_day::timestamp')} AS key, w.word,
                  sum(w.count)::float8 AS n
             ${this.groupCells(scope, 'words')}
             JOIN cohort_cell_words w ON w.cell_id = c.id
            GROUP BY 1, 2`
        : `SELECT ${periodOf(range.groupBy, "s.completed_at AT TIME ZONE 'UTC'")} AS key, w.word,
                  sum(w.count)::float8 AS n
             ${this.sessions(scope).replace('FROM sessions s', 'FROM session_word_counts w JOIN sessions s ON s.session_id = w.session_id')}
            GROUP BY 1, 2`;
    const ranked = `counts AS (${source}),
            ranked AS (
              SELECT key, word, n / sum(n) OVER (PARTITION BY key) AS share,
                     row_number() OVER (PARTITION BY key ORDER BY n DESC, word) AS rank
                FROM counts)`;
    const sql =
      scope.kind === 'group'
        ? `WITH ${ranked},
              periods AS (
                SELECT DISTINCT ${periodOf(range.groupBy, 'd.day::timestamp')} AS key
                  ${this.groupDays(scope)}),
              sealed AS (
                SELECT DISTINCT ${periodOf(range.groupBy, 'c.last_day::timestamp')} AS key
                  ${this.groupCells(scope, 'words')})
           SELECT p.key, sealed.key IS NOT NULL AS shown, r.word, r.share
             FROM periods p
             LEFT JOIN sealed ON sealed.key = p.key
             LEFT JOIN ranked r ON r.key = p.key AND r.rank <= $5
            ORDER BY p.key, r.rank`
        : `WITH ${ranked}
           SELECT key, true AS shown, word, share FROM ranked WHERE rank <= $5 ORDER BY key, rank`;
    return this.db.rows(sql, [...this.params(scope, range), top]);
  }

  /** FROM/WHERE over the group's per-day counts in the range. */
  private groupDays(scope: MetricScope & { kind: 'group' }): string {
    return `FROM group_day_counts d
           WHERE d.group_id = ${ownerIn(scope)}
             AND ($3::date IS NULL OR d.day >= $3::date)
             AND ($4::date IS NULL OR d.day <= $4::date)`;
  }

  /**
   * FROM the group's sealed cells of a series whose last day is in the range, as `c(id, last_day)`
   * (a sub-select, so that a JOIN may follow).
   */
  private groupCells(scope: MetricScope & { kind: 'group' }, series: CohortSeries): string {
    return `FROM (SELECT id, last_day FROM cohort_cells
                   WHERE group_id = ${ownerIn(scope)} AND series = '${series}'
                     AND ($3::date IS NULL OR last_day >= $3::date)
                     AND ($4::date IS NULL OR last_day <= $4::date)) c`;
  }
}
