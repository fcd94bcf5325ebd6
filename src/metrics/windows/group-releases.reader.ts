import { Injectable } from '@nestjs/common';
import { Database } from '../../database/database';
import type { CohortSeries } from '../cohorts/cohort-cell.entity';
import { discreteLaplaceVariance } from '../releases/discrete-laplace';
import { scoreNoiseScales } from '../releases/score-release';
import { epsilonOfRho } from '../releases/zcdp';
import { yearRho, YEAR_DELTA } from './budget';
import { mondayOf, periodOfWindow, type PeriodUnit, type WindowKind } from './calendar';
import type { MetricsSettings } from './metric-windows.repository';
import { wordEpsilon } from './window-release';
import { estimateMhci, type Interval, type MhciStats, type ScorePart } from './window-answers';

/** Why a period answers `null` (docs/metrics.md, "Every answer says what it is worth"). */
export type WithheldReason =
  | 'finer-than-window'
  | 'not-released-yet'
  | 'too-few-participants'
  | 'margin-above-bound'
  | 'too-small-for-words';

/** What every accuracy object says (docs/metrics.md). */
export interface ReleaseAccuracy {
  participants: number;
  windows: number;
  windowsNotReleased: number;
  legacyCells: number;
  resultsLeftOut: number;
  lateResults: number;
  rho: number;
  budgetShare: number;
  epsilon: number;
  reason: WithheldReason | null;
}

export interface MhciAccuracy extends ReleaseAccuracy {
  margin: number | null;
  maxMargin: number;
  intervals: Record<keyof MhciStats, Interval> | null;
}

export interface WordcloudAccuracy extends ReleaseAccuracy {
  speakersNeeded: number | null;
  intervals: Record<string, Interval> | null;
}

export interface PeriodAnswer<V, A> {
  key: string;
  value: V | null;
  accuracy: A;
}

export interface GroupRange {
  from: string | null;
  to: string | null;
  groupBy: PeriodUnit | null;
}

interface WindowRow {
  windowId: number;
  kind: WindowKind;
  firstDay: string;
  lastDay: string;
  windowReleased: boolean;
  participants: number | null;
  released: boolean | null;
  leftOut: number | null;
  lateResults: number | null;
  rho: number | null;
  noisySum: number | null;
  noisyBins: number[] | null;
  sumNoiseVariance: number | null;
  binNoiseVariance: number | null;
  wordThreshold: number | null;
  releaseId: number | null;
}

interface LegacyCell {
  id: number;
  lastDay: string;
  participants: number;
  epsilon: number;
  noisySum: number | null;
  noisyBins: number[] | null;
  binNoiseVariance: number | null;
}

/**
 * The group's id, but only within the enterprise ($1 = group id, $2 = enterprise id): a scalar
 * sub-select PostgreSQL evaluates once; another enterprise's group is no group here.
 */
const OWN_GROUP = '(SELECT group_id FROM groups WHERE group_id = $1 AND enterprise_id = $2)';

/** The 95 % half-width of a word's noisy count (discrete Laplace of scale 2 ÷ ε): ln(20) scales. */
const wordMargin = (rho: number): number =>
  Math.ceil((2 / (wordEpsilon(rho) / 100)) * Math.log(20));

const round = (value: number, digits: number): number => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

/**
 * Group `mhci` and `wordcloud` (docs/metrics.md, "Answers"): per period of `count`, the releases
 * of the windows that belong to it (calendar.ts) and the second version's cells whose last day
 * falls in it, merged and post-processed (window-answers.ts). Reads a year of a group in three
 * small statements: its days, the enterprise's windows with the group's releases, and its
 * legacy cells.
 */
@Injectable()
export class GroupReleasesReader {
  constructor(private readonly db: Database) {}

  async mhci(
    enterpriseId: string,
    groupId: number,
    range: GroupRange,
    settings: MetricsSettings,
  ): Promise<PeriodAnswer<MhciStats, MhciAccuracy>[]> {
    const { periods, windows, legacy } = await this.load(enterpriseId, groupId, range, 'scores');
    return periods.map((key) => {
      const mine = this.belonging(key, range, windows, legacy, settings);
      const parts: ScorePart[] = [
        ...mine.released.map((row) => ({
          participants: row.participants!,
          noisySum: row.noisySum!,
          sumNoiseVariance: row.sumNoiseVariance!,
          noisyBins: row.noisyBins!,
          binNoiseVariance: row.binNoiseVariance!,
          legacy: false,
        })),
        ...mine.legacy
          .filter((cell) => cell.noisyBins && cell.participants > 0)
          .map((cell) => {
            const scales = scoreNoiseScales(Math.round(cell.epsilon * 100));
            return {
              participants: cell.participants,
              noisySum: cell.noisySum!,
              sumNoiseVariance: discreteLaplaceVariance(scales.sum.t, scales.sum.s),
              noisyBins: cell.noisyBins!,
              binNoiseVariance: cell.binNoiseVariance!,
              legacy: true,
            };
          }),
      ];
      const estimate = estimateMhci(parts);
      const base = this.accuracy(mine, settings);
      let reason = base.reason;
      if (!reason && !estimate) reason = 'too-few-participants';
      if (!reason && estimate && estimate.margin > settings.maxMargin) {
        reason = 'margin-above-bound';
      }
      return {
        key,
        value: reason ? null : estimate!.stats,
        accuracy: {
          ...base,
          reason,
          margin: estimate?.margin ?? null,
          maxMargin: settings.maxMargin,
          intervals: estimate?.intervals ?? null,
        },
      };
    });
  }

  async wordcloud(
    enterpriseId: string,
    groupId: number,
    range: GroupRange,
    settings: MetricsSettings,
    top: number,
  ): Promise<PeriodAnswer<Record<string, number>, WordcloudAccuracy>[]> {
    const { periods, windows, legacy } = await this.load(enterpriseId, groupId, range, 'words');
    const words = await this.words(
      windows.flatMap((row) => (row.released && row.releaseId !== null ? [row.releaseId] : [])),
      legacy.map((cell) => cell.id),
    );
    return periods.map((key) => {
      const mine = this.belonging(key, range, windows, legacy, settings);
      const base = this.accuracy(mine, settings);
      const thresholds = mine.released.map((row) => row.wordThreshold!);
      const speakersNeeded = thresholds.length ? Math.min(...thresholds) : null;
      // No window large enough for a word to pass, and no legacy cell: nothing could show.
      const couldShow =
        mine.legacy.length > 0 ||
        mine.released.some((row) => row.participants! >= row.wordThreshold!);
      let reason = base.reason;
      if (!reason && mine.released.length + mine.legacy.length === 0) {
        reason = 'too-few-participants';
      }
      if (!reason && !couldShow) reason = 'too-small-for-words';
      const counts = new Map<string, { count: number; margin: number }>();
      const add = (list: readonly { word: string; count: number }[], margin: number) => {
        for (const { word, count } of list) {
          const entry = counts.get(word) ?? { count: 0, margin: 0 };
          entry.count += count;
          entry.margin += margin;
          counts.set(word, entry);
        }
      };
      for (const row of mine.released) {
        add(words.releases.get(row.releaseId!) ?? [], wordMargin(row.rho!));
      }
      for (const cell of mine.legacy) add(words.legacy.get(cell.id) ?? [], 0);
      const total = [...counts.values()].reduce((sum, entry) => sum + entry.count, 0);
      const ranked = [...counts]
        .sort(([a, x], [b, y]) => y.count - x.count || (a < b ? -1 : a > b ? 1 : 0))
        .slice(0, top);
      return {
        key,
        value: reason ? null : Object.fromEntries(ranked.map(([w, e]) => [w, e.count / total])),
        accuracy: {
          ...base,
          reason,
          speakersNeeded,
          intervals: reason
            ? null
            : Object.fromEntries(
                ranked.map(([w, e]) => [w, [Math.max(0, e.count - e.margin), e.count + e.margin]]),
              ),
        },
      };
    });
  }

  /** The accuracy fields every answer has, and the reason a period has nothing to merge. */
  private accuracy(
    mine: {
      released: WindowRow[];
      pending: WindowRow[];
      legacy: LegacyCell[];
      all: WindowRow[];
      finer: boolean;
    },
    settings: MetricsSettings,
  ): ReleaseAccuracy {
    const rho = mine.released.reduce((sum, row) => sum + row.rho!, 0);
    const released = mine.all.filter((row) => row.windowReleased);
    let reason: WithheldReason | null = null;
    if (mine.released.length + mine.legacy.length === 0) {
      if (mine.finer) reason = 'finer-than-window';
      else if (mine.pending.length > 0 || released.length === 0) reason = 'not-released-yet';
      else reason = 'too-few-participants';
    }
    return {
      participants:
        mine.released.reduce((sum, row) => sum + row.participants!, 0) +
        mine.legacy.reduce((sum, cell) => sum + cell.participants, 0),
      windows: released.length,
      windowsNotReleased: mine.pending.length,
      legacyCells: mine.legacy.length,
      resultsLeftOut: released.reduce((sum, row) => sum + (row.leftOut ?? 0), 0),
      lateResults: released.reduce((sum, row) => sum + (row.lateResults ?? 0), 0),
      rho: round(rho, 6),
      budgetShare: round(rho / yearRho(settings.epsilonYear), 6),
      epsilon: rho > 0 ? round(epsilonOfRho(rho, YEAR_DELTA), 4) : 0,
      reason,
    };
  }

  /**
   * The windows (inside the range) and legacy cells that belong to a period, and whether the
   * period is finer than the windows: a day always; a week under monthly windows; a range that
   * cuts every window it touches.
   */
  private belonging(
    key: string,
    range: GroupRange,
    windows: readonly WindowRow[],
    legacy: readonly LegacyCell[],
    settings: MetricsSettings,
  ) {
    const inside = windows.filter(
      (row) =>
        (!range.from || row.firstDay >= range.from) && (!range.to || row.lastDay <= range.to),
    );
    const all = range.groupBy
      ? inside.filter((row) => periodOfWindow(range.groupBy!, row) === key)
      : inside;
    const finerUnit =
      range.groupBy === 'day' ||
      (range.groupBy === 'week' &&
        (windows.length > 0
          ? windows.every((row) => row.kind === 'month')
          : settings.window === 'month'));
    // Windows that overlap the period but belong to none of its kind: the period cuts them.
    const [start, end] = periodBounds(key, range);
    const cut = inside.length < windows.length || windows.length > 0;
    const overlapping = windows.some(
      (row) => (!start || row.lastDay >= start) && (!end || row.firstDay <= end),
    );
    const finer = finerUnit || (all.length === 0 && cut && overlapping);
    const cells = finerUnit
      ? []
      : legacy.filter(
          (cell) => !range.groupBy || legacyPeriod(range.groupBy, cell.lastDay) === key,
        );
    return {
      all,
      released: all.filter((row) => row.windowReleased && row.released),
      pending: all.filter((row) => !row.windowReleased),
      legacy: cells,
      finer,
    };
  }

  private async load(
    enterpriseId: string,
    groupId: number,
    range: GroupRange,
    series: CohortSeries,
  ) {
    const params = [groupId, enterpriseId, range.from, range.to];
    const periodKey = range.groupBy
      ? `to_char(date_trunc('${range.groupBy}', d.day::timestamp), '${range.groupBy === 'month' ? 'YYYY-MM' : 'YYYY-MM-DD'}')`
      : `'all'`;
    const [periods, windows, legacy] = await Promise.all([
      this.db.rows<{ key: string }>(
        `SELECT DISTINCT ${periodKey} AS key FROM group_day_counts d
          WHERE d.group_id = ${OWN_GROUP}
            AND ($3::date IS NULL OR d.day >= $3::date) AND ($4::date IS NULL OR d.day <= $4::date)
          ORDER BY 1`,
        params,
      ),
      this.db.rows<WindowRow>(
        `SELECT w.id::int AS "windowId", w.kind, w.first_day::text AS "firstDay",
                w.last_day::text AS "lastDay", w.released_at IS NOT NULL AS "windowReleased",
                r.id::int AS "releaseId", r.participants, r.released, r.left_out AS "leftOut",
                r.late_results AS "lateResults", r.rho, r.noisy_sum::float8 AS "noisySum",
                r.noisy_bins AS "noisyBins", r.sum_noise_variance AS "sumNoiseVariance",
                r.bin_noise_variance AS "binNoiseVariance", r.word_threshold AS "wordThreshold"
           FROM metric_windows w
           LEFT JOIN metric_releases r
                  ON r.window_id = w.id AND r.group_id = ${OWN_GROUP} AND r.series = $5
          WHERE w.enterprise_id = $2
            AND ($3::date IS NULL OR w.last_day >= $3::date)
            AND ($4::date IS NULL OR w.first_day <= $4::date)
          ORDER BY w.first_day`,
        [...params, series],
      ),
      this.db.rows<LegacyCell>(
        `SELECT id::int AS id, last_day::text AS "lastDay", participants,
                epsilon::float8 AS epsilon, noisy_sum::float8 AS "noisySum",
                noisy_bins AS "noisyBins", bin_noise_variance AS "binNoiseVariance"
           FROM cohort_cells
          WHERE group_id = ${OWN_GROUP} AND series = $5
            AND ($3::date IS NULL OR last_day >= $3::date)
            AND ($4::date IS NULL OR last_day <= $4::date)`,
        [...params, series],
      ),
    ]);
    return { periods: periods.map((row) => row.key), windows, legacy };
  }

  private async words(releaseIds: readonly number[], legacyIds: readonly number[]) {
    const [released, legacy] = await Promise.all([
      releaseIds.length
        ? this.db.rows<{ id: number; word: string; count: number }>(
            `SELECT release_id::int AS id, word, count FROM metric_release_words
              WHERE release_id = ANY ($1::bigint[])`,
            [releaseIds],
          )
        : [],
      legacyIds.length
        ? this.db.rows<{ id: number; word: string; count: number }>(
            `SELECT cell_id::int AS id, word, count::int AS count FROM cohort_cell_words
              WHERE cell_id = ANY ($1::bigint[])`,
            [legacyIds],
          )
        : [],
    ]);
    const group = (rows: { id: number; word: string; count: number }[]) => {
      const map = new Map<number, { word: string; count: number }[]>();
      for (const row of rows) {
        const list = map.get(row.id);
        if (list) list.push(row);
        else map.set(row.id, [row]);
      }
      return map;
    };
    return { releases: group(released), legacy: group(legacy) };
  }
}

/** The first and last day of a period (null: open), within the range. */
function periodBounds(key: string, range: GroupRange): [string | null, string | null] {
  let start: string | null = range.from;
  let end: string | null = range.to;
  if (range.groupBy === 'month') {
    const [year, month] = key.split('-').map(Number);
    start = later(start, `${key}-01`);
    end = earlier(end, new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10));
  } else if (range.groupBy) {
    const last = new Date(
      new Date(`${key}T00:00:00Z`).getTime() + (range.groupBy === 'week' ? 6 : 0) * 86_400_000,
    );
    start = later(start, key);
    end = earlier(end, last.toISOString().slice(0, 10));
  }
  return [start, end];
}

const later = (a: string | null, b: string): string => (a && a > b ? a : b);
const earlier = (a: string | null, b: string): string => (a && a < b ? a : b);

/** The period of a legacy cell's last day. */
function legacyPeriod(unit: PeriodUnit, day: string): string {
  if (unit === 'month') return day.slice(0, 7);
  return unit === 'day' ? day : mondayOf(day);
}
