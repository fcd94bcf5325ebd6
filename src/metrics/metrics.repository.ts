import { Injectable } from '@nestjs/common';
import { SHOWN_LEVEL } from '../sessions/sessions.repository';
import { PiiCipher } from '../common/crypto/pii-cipher';
import { Database } from '../database/database';
import { openJson } from '../sessions/transcript-codec';
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

const NO_MHCI_STATS = {
  minMhci: null,
  maxMhci: null,
  avgMhci: null,
  percentile25Mhci: null,
  percentile50Mhci: null,
  percentile75Mhci: null,
};

/**
 * The ranks (0-based, in value order) that min, max and the three continuous percentiles of `n`
 * values need, each with its bin and its offset among that bin's values, from running bin counts
 * (the later cell's minus the earlier one's, cohort-score-prefix.entity.ts).
 */
function ranksIn(
  n: number,
  hiBins: readonly number[],
  loBins: readonly number[] | null,
): { rank: number; bin: number; offset: number }[] {
  const ranks = [
    ...new Set([
      0,
      n - 1,
      ...[0.25, 0.5, 0.75].flatMap((p) => [Math.floor(p * (n - 1)), Math.ceil(p * (n - 1))]),
    ]),
  ].sort((a, b) => a - b);
  const located: { rank: number; bin: number; offset: number }[] = [];
  let below = 0;
  let next = 0;
  for (let bin = 0; bin < hiBins.length && next < ranks.length; bin++) {
    const here = hiBins[bin] - (loBins?.[bin] ?? 0);
    while (next < ranks.length && ranks[next] < below + here) {
      located.push({ rank: ranks[next], bin, offset: ranks[next] - below });
      next += 1;
    }
    below += here;
  }
  return located;
}

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
   * A group's MHCI statistics (docs/metrics.md, "Sealed cohort cells"): per period of `count`, the
   * union of the sealed score cells whose last day falls in it. Cells seal in order and never
   * change, so the union of the cells between two days is the difference of two rows of running
   * totals (sessions, exact sum, counts per 0.05-wide bin): the mean from the sums, and each
   * rank that min, max and the percentiles need found in its bin, then among the exact values of
   * that bin in those cells (one index range). Percentiles are PostgreSQL's `percentile_cont`,
   * computed the same way (the two neighbouring ranks of p·(n − 1), interpolated), so exact. A
   * period with sessions but no sealed cell has `shown` false.
   */
  private async groupMhci(
    scope: MetricScope & { kind: 'group' },
    range: MetricRange,
  ): Promise<MhciRow[]> {
    const periods = await this.db.rows<{
      key: string;
      first: string | null;
      last: string | null;
      sessions: number | null;
      avg: number | null;
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
       SELECT p.key, c.first::text AS first, c.last::text AS last,
              (hi.sessions - coalesce(lo.sessions, 0))::int AS sessions,
              ((hi.sum - coalesce(lo.sum, 0)) / (hi.sessions - coalesce(lo.sessions, 0)))::float8
                AS avg,
              hi.bins AS "hiBins", lo.bins AS "loBins"
         FROM periods p
         LEFT JOIN cells c ON c.key = p.key
         LEFT JOIN cohort_score_prefixes hi ON hi.group_id = $1 AND hi.last_day = c.last
         LEFT JOIN LATERAL (
           SELECT sessions, sum, bins FROM cohort_score_prefixes
            WHERE group_id = $1 AND last_day < c.first
            ORDER BY last_day DESC LIMIT 1) lo ON c.first IS NOT NULL
        ORDER BY p.key`,
      this.params(scope, range),
    );
    // The ranks each period needs, located in their bins.
    const wanted = periods.map((period) =>
      period.sessions && period.hiBins
        ? ranksIn(period.sessions, period.hiBins, period.loBins)
        : null,
    );
    const lookups = wanted.flatMap((ranks, i) =>
      ranks ? [...new Set(ranks.map((rank) => rank.bin))].map((bin) => ({ i, bin })) : [],
    );
    const values = lookups.length
      ? await this.db.rows<{ i: number; bin: number; mhci: number; n: number }>(
          `SELECT q.i::int AS i, q.bin::int AS bin, s.mhci, sum(s.count)::int AS n
             FROM unnest($2::int[], $3::int[], $4::date[], $5::date[]) AS q(i, bin, first, last)
             JOIN cohort_cell_scores s
               ON s.group_id = $1 AND s.bin = q.bin AND s.last_day BETWEEN q.first AND q.last
            GROUP BY 1, 2, 3
            ORDER BY 1, 2, 3`,
          [
            scope.groupId,
            lookups.map((lookup) => lookup.i),
            lookups.map((lookup) => lookup.bin),
            lookups.map((lookup) => periods[lookup.i].first),
            lookups.map((lookup) => periods[lookup.i].last),
          ],
        )
      : [];
    const inBin = new Map<string, { mhci: number; n: number }[]>();
    for (const row of values) {
      const list = inBin.get(`${row.i}:${row.bin}`) ?? [];
      list.push({ mhci: row.mhci, n: row.n });
      inBin.set(`${row.i}:${row.bin}`, list);
    }
    return periods.map((period, i) => {
      const ranks = wanted[i];
      if (!ranks || !period.sessions) {
        return { key: period.key, sessions: 0, shown: false, ...NO_MHCI_STATS };
      }
      const at = (rank: number): number => {
        const { bin, offset } = ranks.find((r) => r.rank === rank)!;
        let seen = 0;
        for (const value of inBin.get(`${i}:${bin}`) ?? []) {
          seen += value.n;
          if (seen > offset) return value.mhci;
        }
        throw new Error(`group mhci: rank ${rank} not found in bin ${bin}`);
      };
      const n = period.sessions;
      const percentile = (p: number): number => {
        // As PostgreSQL's percentile_cont: first + (p·(n − 1) − first_row) · (second − first).
        const position = p * (n - 1);
        const first = Math.floor(position);
        const low = at(first);
        return low + (position - first) * (at(Math.ceil(position)) - low);
      };
      return {
        key: period.key,
        sessions: n,
        shown: true,
        minMhci: at(0),
        maxMhci: at(n - 1),
        avgMhci: period.avg,
        percentile25Mhci: percentile(0.25),
        percentile50Mhci: percentile(0.5),
        percentile75Mhci: percentile(0.75),
      };
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
      for (const [word, n] of Object.entries(
        openJson<Record<string, number>>(this.cipher, wordCounts),
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
