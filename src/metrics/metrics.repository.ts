import { Injectable } from '@nestjs/common';
import { SHOWN_LEVEL } from '../sessions/sessions.repository';
import { PiiCipher } from '../common/crypto/pii-cipher';
import { Database } from '../database/database';
import { openSessionJson } from '../sessions/transcript-codec';
import type { MhciStatsDto } from './dto/metric-answers.dto';
import type { CohortSeries } from './cohorts/cohort-cell.entity';
import type { GroupBy } from './metrics.errors';
import { scoreStatistics } from './releases/score-release';

/** A period's MHCI statistics; `shown` false (stats null) when no sealed cell answers it. */
export type MhciRow = { key: string; sessions: number; shown: boolean } & {
  [K in keyof MhciStatsDto]: number | null;
};

/** One word of a period's cloud; a period no sealed cell answers has one row, without words. */
export type WordcloudRow =
  | { key: string; shown: true; word: string; share: number }
  | { key: string; shown: boolean; word: null; share: null };

const NO_MHCI_STATS = {
  minMhci: null,
  maxMhci: null,
  avgMhci: null,
  percentile25Mhci: null,
  percentile50Mhci: null,
  percentile75Mhci: null,
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
  constructor(
    private readonly db: Database,
    private readonly cipher: PiiCipher,
  ) {}

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
   * A group's MHCI statistics (docs/metrics.md, "Differentially private releases"): per period of
   * `count`, the union of the released score cells whose last day falls in it. Releases are made
   * in order and never change, so the union of the cells between two days is the difference of
   * two rows of running totals (cells, participants, noisy sum, noisy bins): the statistics are
   * computed from that (score-release.ts), whatever the group's size. A period with sessions but
   * no released cell has `shown` false.
   */
  private async groupMhci(
    scope: MetricScope & { kind: 'group' },
    range: MetricRange,
  ): Promise<MhciRow[]> {
    const periods = await this.db.rows<{
      key: string;
      participants: number | null;
      noisySum: number | null;
      binNoiseVariance: number | null;
      hiBins: number[] | null;
      loBins: number[] | null;
    }>(
      `WITH periods AS (
         SELECT DISTINCT ${periodOf(range.groupBy, 'd.day::timestamp')} AS key ${this.groupDays(scope)}),
       cells AS (
         SELECT ${periodOf(range.groupBy, 'c.last_day::timestamp')} AS key,
                min(c.last_day) AS first, max(c.last_day) AS last
           ${this.groupCells(scope, 'scores')}
          GROUP BY 1)
       SELECT p.key, (hi.participants - coalesce(lo.participants, 0))::int AS participants,
              (hi.noisy_sum - coalesce(lo.noisy_sum, 0))::float8 AS "noisySum",
              hi.bin_noise_variance - coalesce(lo.bin_noise_variance, 0) AS "binNoiseVariance",
              hi.noisy_bins AS "hiBins", lo.noisy_bins AS "loBins"
         FROM periods p
         LEFT JOIN cells c ON c.key = p.key
         LEFT JOIN cohort_score_prefixes hi ON hi.group_id = $1 AND hi.last_day = c.last
         LEFT JOIN LATERAL (
           SELECT participants, noisy_sum, noisy_bins, bin_noise_variance
             FROM cohort_score_prefixes
            WHERE group_id = $1 AND last_day < c.first
            ORDER BY last_day DESC LIMIT 1) lo ON c.first IS NOT NULL
        ORDER BY p.key`,
      this.params(scope, range),
    );
    return periods.map((period) => {
      const stats =
        period.hiBins && period.participants
          ? scoreStatistics({
              participants: period.participants,
              noisySum: period.noisySum!,
              noisyBins: period.hiBins.map((count, bin) => count - (period.loBins?.[bin] ?? 0)),
              binNoiseVariance: period.binNoiseVariance!,
            })
          : null;
      return stats
        ? { key: period.key, sessions: period.participants!, shown: true, ...stats }
        : { key: period.key, sessions: 0, shown: false, ...NO_MHCI_STATS };
    });
  }

  /**
   * The `top` words of each period with their share of all counted words of that period. A
   * group reads the words of the sealed word cells whose last day falls in the period, as the
   * difference of two days' running counts (cohort-word-prefix.entity.ts); a participant, the
   * per-session counts. A group's periods are those of `count`; one without a
   * sealed cell has `shown` false and no words.
   */
  async wordcloud(scope: MetricScope, range: MetricRange, top: number): Promise<WordcloudRow[]> {
    if (scope.kind === 'participant') return this.participantWordcloud(scope, range, top);
    const ranked = `counts AS (
              WITH cells AS (
                SELECT ${periodOf(range.groupBy, 'c.last_day::timestamp')} AS key,
                       min(c.last_day) AS first, max(c.last_day) AS last
                  ${this.groupCells(scope, 'words')}
                 GROUP BY 1)
              SELECT c.key, h.word, (h.count - coalesce(l.count, 0))::float8 AS n
                FROM cells c
               CROSS JOIN LATERAL (
                     SELECT max(last_day) AS day FROM cohort_cells
                      WHERE group_id = $1 AND series = 'words' AND last_day < c.first) previous
                JOIN cohort_word_prefixes h ON h.group_id = $1 AND h.last_day = c.last
                LEFT JOIN cohort_word_prefixes l
                       ON l.group_id = $1 AND l.last_day = previous.day AND l.word = h.word
               WHERE h.count > coalesce(l.count, 0)),
            ranked AS (
              SELECT key, word, n / sum(n) OVER (PARTITION BY key) AS share,
                     row_number() OVER (PARTITION BY key ORDER BY n DESC, word) AS rank
                FROM counts)`;
    return this.db.rows(
      `WITH ${ranked},
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
        ORDER BY p.key, r.rank`,
      [...this.params(scope, range), top],
    );
  }

  /**
   * A participant's own cloud: the word counts of their sessions the level lets it see, stored
   * only encrypted (docs/data-at-rest.md), so opened and merged here — a participant has few
   * sessions. Periods with words only; ranked by count, then word.
   */
  private async participantWordcloud(
    scope: MetricScope & { kind: 'participant' },
    range: MetricRange,
    top: number,
  ): Promise<WordcloudRow[]> {
    const sessions = await this.db.rows<{ key: string; wordCounts: string }>(
      `SELECT ${periodOf(range.groupBy, "s.completed_at AT TIME ZONE 'UTC'")} AS key,
              s.word_counts AS "wordCounts"
         ${this.sessions(scope)} AND s.word_counts IS NOT NULL`,
      this.params(scope, range),
    );
    const periods = new Map<string, Map<string, number>>();
    for (const { key, wordCounts } of sessions) {
      const counts = periods.get(key) ?? new Map<string, number>();
      // Counts the keys cannot open read as removed by retention (docs/data-at-rest.md).
      for (const [word, n] of Object.entries(
        openSessionJson<Record<string, number>>(this.cipher, 'word_counts', wordCounts) ?? {},
      )) {
        counts.set(word, (counts.get(word) ?? 0) + n);
      }
      periods.set(key, counts);
    }
    return [...periods.keys()].sort().flatMap((key) => {
      const counts = [...periods.get(key)!];
      const total = counts.reduce((sum, [, n]) => sum + n, 0);
      return counts
        .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0))
        .slice(0, top)
        .map(([word, n]) => ({ key, shown: true as const, word, share: n / total }));
    });
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
