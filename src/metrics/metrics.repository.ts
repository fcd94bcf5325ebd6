import { Injectable } from '@nestjs/common';
import { SHOWN_LEVEL } from '../sessions/sessions.repository';
import { FLOORED_GROUP_METRICS } from '../common/privacy-model';
import { Database } from '../database/database';
import type { MhciStatsDto } from './dto/metric-answers.dto';
import type { GroupBy } from './metrics.errors';

/** A period's MHCI statistics; `shown` false (stats null) when under the privacy floor. */
export type MhciRow = { key: string; sessions: number; shown: boolean } & {
  [K in keyof MhciStatsDto]: number | null;
};

/** One word of a period's cloud; a period under the privacy floor has one row, without words. */
export type WordcloudRow =
  | { key: string; shown: true; word: string; share: number }
  | { key: string; shown: boolean; word: null; share: null };

const MHCI_STATS = [
  'minMhci',
  'maxMhci',
  'avgMhci',
  'percentile25Mhci',
  'percentile50Mhci',
  'percentile75Mhci',
] as const satisfies readonly (keyof MhciStatsDto)[];

type FlooredMetric = keyof typeof FLOORED_GROUP_METRICS;

/** Per floored metric: its per-day count, its floor's column, and who counts in the exact pass. */
const COHORT: Record<FlooredMetric, { perDay: string; floor: string; contributes: string }> = {
  mhci: { perDay: 'participants', floor: 'min_cohort_scores', contributes: '' },
  wordcloud: {
    perDay: 'word_participants',
    floor: 'min_cohort_words',
    contributes: 'AND p.word_sessions > 0',
  },
};

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

  async count(scope: MetricScope, range: MetricRange): Promise<{ key: string; value: number }[]> {
    const key = periodOf(range.groupBy, "s.completed_at AT TIME ZONE 'UTC'");
    return this.db.rows(
      `SELECT ${key} AS key, count(*)::int AS value ${this.sessions(scope)}
       ${range.groupBy ? 'GROUP BY 1 ORDER BY 1' : ''}`,
      this.params(scope, range),
    );
  }

  async mhci(scope: MetricScope, range: MetricRange): Promise<MhciRow[]> {
    const key = periodOf(range.groupBy, "s.completed_at AT TIME ZONE 'UTC'");
    const stats = `SELECT ${key} AS key, count(*)::int AS sessions,
              min(s.mhci) AS "minMhci", max(s.mhci) AS "maxMhci", avg(s.mhci) AS "avgMhci",
              percentile_cont(0.25) WITHIN GROUP (ORDER BY s.mhci) AS "percentile25Mhci",
              percentile_cont(0.5) WITHIN GROUP (ORDER BY s.mhci) AS "percentile50Mhci",
              percentile_cont(0.75) WITHIN GROUP (ORDER BY s.mhci) AS "percentile75Mhci"
       ${this.sessions(scope)}
       ${range.groupBy ? 'GROUP BY 1' : ''}`;
    const sql =
      scope.kind === 'group'
        ? `WITH stats AS (${stats}), ${this.cohort(scope, range, 'mhci')}
           SELECT st.key, st.sessions, coalesce(c.shown, false) AS shown,
                  ${MHCI_STATS.map((stat) => `CASE WHEN c.shown THEN st."${stat}" END AS "${stat}"`).join(', ')}
             FROM stats st LEFT JOIN cohort c ON c.key = st.key
            ORDER BY st.key`
        : `SELECT *, true AS shown FROM (${stats}) st ORDER BY key`;
    return this.db.rows(sql, this.params(scope, range));
  }

  /**
   * The `top` words of each period with their share of all counted words of that period. A
   * group reads the per-day rollup; a participant, the per-session counts. A group's periods are
   * those with completed sessions (as `count`); one under the floor has `shown` false and no words.
   */
  async wordcloud(scope: MetricScope, range: MetricRange, top: number): Promise<WordcloudRow[]> {
    const source =
      scope.kind === 'group'
        ? `SELECT ${periodOf(range.groupBy, 'w.day::timestamp')} AS key, w.word, sum(w.count)::float8 AS n
             FROM group_word_counts w
            WHERE w.group_id = ${ownerIn(scope)}
              AND ($3::date IS NULL OR w.day >= $3::date)
              AND ($4::date IS NULL OR w.day <= $4::date)
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
        ? `WITH ${ranked}, ${this.cohort(scope, range, 'wordcloud')}
           SELECT c.key, c.shown, r.word, r.share
             FROM cohort c LEFT JOIN ranked r ON r.key = c.key AND c.shown AND r.rank <= $5
            ORDER BY c.key, r.rank`
        : `WITH ${ranked}
           SELECT key, true AS shown, word, share FROM ranked WHERE rank <= $5 ORDER BY key, rank`;
    return this.db.rows(sql, [...this.params(scope, range), top]);
  }

  /**
   * CTEs ending in `cohort(key, shown)`: each period of the group's range that has completed
   * sessions, and whether its distinct participants (for words: those whose words are counted)
   * reach the enterprise's floor (docs/metrics.md). From the per-day rollup: a period whose busiest day
   * reaches the floor passes at once (a year is 365 rows, whatever the group's size); otherwise
   * its days hold fewer participants than the floor each (at most 100), and the exact distinct
   * count over them is read from `group_day_participants`.
   */
  private cohort(scope: MetricScope, range: MetricRange, metric: FlooredMetric): string {
    const { perDay, floor, contributes } = COHORT[metric];
    return `days AS (
              SELECT ${periodOf(range.groupBy, 'd.day::timestamp')} AS key, d.day, d.${perDay} AS n
                FROM group_day_cohorts d
               WHERE d.group_id = ${ownerIn(scope)}
                 AND ($3::date IS NULL OR d.day >= $3::date)
                 AND ($4::date IS NULL OR d.day <= $4::date)),
            buckets AS (SELECT key, max(n) AS busiest, array_agg(day) AS days FROM days GROUP BY key),
            cohort AS (
              SELECT b.key,
                     CASE WHEN b.busiest >= f.floor THEN true
                          ELSE (SELECT count(DISTINCT p.participant_id)
                                  FROM group_day_participants p
                                 WHERE p.group_id = ${ownerIn(scope)} AND p.day = ANY (b.days)
                                   ${contributes}) >= f.floor
                     END AS shown
                FROM buckets b
               CROSS JOIN (SELECT ${floor} AS floor FROM enterprises WHERE id = $2) f)`;
  }
}
