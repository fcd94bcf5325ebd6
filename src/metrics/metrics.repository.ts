import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import type { GroupBy } from './metrics.errors';

/** Whose sessions: a group's, or a participant's (with the privacy level a metric needs). */
export type MetricScope =
  | { kind: 'group'; groupId: number }
  | { kind: 'participant'; participantId: string; minimumLevel: number };

export interface MetricRange {
  from: string | null;
  to: string | null;
  groupBy: GroupBy | null;
}

/** Period keys (DESIGN §11): day YYYY-MM-DD, ISO week's Monday YYYY-MM-DD, month YYYY-MM. */
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
 * Every metric is one SQL statement; nothing is loaded into Node but the answer. Sessions count
 * by completion time in UTC; `from`/`to` are inclusive days.
 */
@Injectable()
export class MetricsRepository {
  constructor(private readonly db: Database) {}

  /** FROM/WHERE over completed sessions in scope and range; params $1 = scope id, $2 from, $3 to. */
  private sessions(scope: MetricScope): string {
    const membership =
      scope.kind === 'participant'
        ? `JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
             AND m.privacy_level >= ${scope.minimumLevel}`
        : '';
    const owner = scope.kind === 'group' ? 's.group_id = $1' : 's.participant_id = $1';
    return `FROM sessions s ${membership}
           WHERE ${owner} AND s.completed_at IS NOT NULL
             AND ($2::date IS NULL OR s.completed_at >= $2::date::timestamp AT TIME ZONE 'UTC')
             AND ($3::date IS NULL OR s.completed_at < ($3::date + 1)::timestamp AT TIME ZONE 'UTC')`;
  }

  private params(scope: MetricScope, range: MetricRange): unknown[] {
    return [scope.kind === 'group' ? scope.groupId : scope.participantId, range.from, range.to];
  }

  async count(scope: MetricScope, range: MetricRange): Promise<{ key: string; value: number }[]> {
    const key = periodOf(range.groupBy, "s.completed_at AT TIME ZONE 'UTC'");
    return this.db.rows(
      `SELECT ${key} AS key, count(*)::int AS value ${this.sessions(scope)}
       ${range.groupBy ? 'GROUP BY 1 ORDER BY 1' : ''}`,
      this.params(scope, range),
    );
  }

  async mhci(scope: MetricScope, range: MetricRange) {
    const key = periodOf(range.groupBy, "s.completed_at AT TIME ZONE 'UTC'");
    return this.db.rows<{
      key: string;
      sessions: number;
      minMhci: number;
      maxMhci: number;
      avgMhci: number;
      percentile25Mhci: number;
      percentile50Mhci: number;
      percentile75Mhci: number;
    }>(
      `SELECT ${key} AS key, count(*)::int AS sessions,
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
   * The `top` words of each period with their share of all counted words of that period. A
   * group reads the per-day rollup; a participant, the per-session counts.
   */
  async wordcloud(scope: MetricScope, range: MetricRange, top: number) {
    const source =
      scope.kind === 'group'
        ? `SELECT ${periodOf(range.groupBy, 'w.day::timestamp')} AS key, w.word, sum(w.count)::float8 AS n
             FROM group_word_counts w
            WHERE w.group_id = $1
              AND ($2::date IS NULL OR w.day >= $2::date)
              AND ($3::date IS NULL OR w.day <= $3::date)
            GROUP BY 1, 2`
        : `SELECT ${periodOf(range.groupBy, "s.completed_at AT TIME ZONE 'UTC'")} AS key, w.word,
                  sum(w.count)::float8 AS n
             ${this.sessions(scope).replace('FROM sessions s', 'FROM session_word_counts w JOIN sessions s ON s.session_id = w.session_id')}
            GROUP BY 1, 2`;
    return this.db.rows<{ key: string; word: string; share: number }>(
      `WITH counts AS (${source}),
            ranked AS (
              SELECT key, word, n / sum(n) OVER (PARTITION BY key) AS share,
                     row_number() OVER (PARTITION BY key ORDER BY n DESC, word) AS rank
                FROM counts)
       SELECT key, word, share FROM ranked WHERE rank <= $4 ORDER BY key, rank`,
      [...this.params(scope, range), top],
    );
  }
}
