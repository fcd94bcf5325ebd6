import { Injectable } from '@nestjs/common';
import { SHOWN_LEVEL } from '../sessions/shown-level';
import { PiiCipher } from '../common/crypto/pii-cipher';
import { Database } from '../database/database';
import { openSessionJson } from '../sessions/transcript-codec';
import type { MhciStatsDto } from './dto/metric-answers.dto';
import type { GroupBy } from './metrics.errors';

/** A period's MHCI statistics of a participant; `shown` false (stats null) when none. */
export type MhciRow = { key: string; sessions: number; shown: boolean } & {
  [K in keyof MhciStatsDto]: number | null;
};

/** One word of a period's cloud of a participant. */
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

  /** A participant's MHCI statistics (group answers: windows/group-releases.reader.ts). */
  async mhci(scope: MetricScope & { kind: 'participant' }, range: MetricRange): Promise<MhciRow[]> {
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

  /** A participant's word cloud (group answers: windows/group-releases.reader.ts). */
  async wordcloud(
    scope: MetricScope & { kind: 'participant' },
    range: MetricRange,
    top: number,
  ): Promise<WordcloudRow[]> {
    return this.participantWordcloud(scope, range, top);
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
}
