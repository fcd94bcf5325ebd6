"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.GroupReleasesReader = void 0;
const common_1 = require("@nestjs/common");
const database_1 = require("../../database/database");
const discrete_laplace_1 = require("../releases/discrete-laplace");
const score_release_1 = require("../releases/score-release");
const zcdp_1 = require("../releases/zcdp");
const budget_1 = require("./budget");
const calendar_1 = require("./calendar");
const window_answers_1 = require("./window-answers");
/**
 * The group's id, but only within the enterprise ($1 = group id, $2 = enterprise id): a scalar
 * sub-select PostgreSQL evaluates once; another enterprise's group is no group here.
 */
const OWN_GROUP = '(SELECT group_id FROM groups WHERE group_id = $1 AND enterprise_id = $2)';
/** The 95 % half-width of a word's noisy count (discrete Laplace): ln(20) scales. */
const wordMargin = (rho) => {
    const epsilon = Math.floor(Math.sqrt(2 * rho) * 100) / 100;
    return Math.ceil((2 / epsilon) * Math.log(20));
};
const round = (value, digits) => {
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
let GroupReleasesReader = class GroupReleasesReader {
    db;
    constructor(db) {
        this.db = db;
    }
    async mhci(enterpriseId, groupId, range, settings) {
        const { periods, windows, legacy } = await this.load(enterpriseId, groupId, range, 'scores');
        return periods.map((key) => {
            const mine = this.belonging(key, range, windows, legacy, settings);
            const parts = [
                ...mine.released.map((row) => ({
                    participants: row.participants,
                    noisySum: row.noisySum,
                    sumNoiseVariance: row.sumNoiseVariance,
                    noisyBins: row.noisyBins,
                    binNoiseVariance: row.binNoiseVariance,
                    legacy: false,
                })),
                ...mine.legacy
                    .filter((cell) => cell.noisyBins && cell.participants > 0)
                    .map((cell) => {
                    const scales = (0, score_release_1.scoreNoiseScales)(Math.round(cell.epsilon * 100));
                    return {
                        participants: cell.participants,
                        noisySum: cell.noisySum,
                        sumNoiseVariance: (0, discrete_laplace_1.discreteLaplaceVariance)(scales.sum.t, scales.sum.s),
                        noisyBins: cell.noisyBins,
                        binNoiseVariance: cell.binNoiseVariance,
                        legacy: true,
                    };
                }),
            ];
            const estimate = (0, window_answers_1.estimateMhci)(parts);
            const base = this.accuracy(mine, settings);
            let reason = base.reason;
            if (!reason && !estimate)
                reason = 'too-few-participants';
            if (!reason && estimate && estimate.margin > settings.maxMargin) {
                reason = 'margin-above-bound';
            }
            return {
                key,
                value: reason ? null : estimate.stats,
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
    async wordcloud(enterpriseId, groupId, range, settings, top) {
        const { periods, windows, legacy } = await this.load(enterpriseId, groupId, range, 'words');
        const words = await this.words(windows.flatMap((row) => (row.released && row.releaseId !== null ? [row.releaseId] : [])), legacy.map((cell) => cell.id));
        return periods.map((key) => {
            const mine = this.belonging(key, range, windows, legacy, settings);
            const base = this.accuracy(mine, settings);
            const thresholds = mine.released.map((row) => row.wordThreshold);
            const speakersNeeded = thresholds.length ? Math.min(...thresholds) : null;
            // No window large enough for a word to pass, and no legacy cell: nothing could show.
            const couldShow = mine.legacy.length > 0 ||
                mine.released.some((row) => row.participants >= row.wordThreshold);
            let reason = base.reason;
            if (!reason && mine.released.length + mine.legacy.length === 0) {
                reason = 'too-few-participants';
            }
            if (!reason && !couldShow)
                reason = 'too-small-for-words';
            const counts = new Map();
            const add = (list, margin) => {
                for (const { word, count } of list) {
                    const entry = counts.get(word) ?? { count: 0, margin: 0 };
                    entry.count += count;
                    entry.margin += margin;
                    counts.set(word, entry);
                }
            };
            for (const row of mine.released) {
                add(words.releases.get(row.releaseId) ?? [], wordMargin(row.rho));
            }
            for (const cell of mine.legacy)
                add(words.legacy.get(cell.id) ?? [], 0);
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
                        : Object.fromEntries(ranked.map(([w, e]) => [w, [Math.max(0, e.count - e.margin), e.count + e.margin]])),
                },
            };
        });
    }
    /** The accuracy fields every answer has, and the reason a period has nothing to merge. */
    accuracy(mine, settings) {
        const rho = mine.released.reduce((sum, row) => sum + row.rho, 0);
        const released = mine.all.filter((row) => row.windowReleased);
        let reason = null;
        if (mine.released.length + mine.legacy.length === 0) {
            if (mine.finer)
                reason = 'finer-than-window';
            else if (mine.pending.length > 0 || released.length === 0)
                reason = 'not-released-yet';
            else
                reason = 'too-few-participants';
        }
        return {
            participants: mine.released.reduce((sum, row) => sum + row.participants, 0) +
                mine.legacy.reduce((sum, cell) => sum + cell.participants, 0),
            windows: released.length,
            windowsNotReleased: mine.pending.length,
            legacyCells: mine.legacy.length,
            resultsLeftOut: released.reduce((sum, row) => sum + (row.leftOut ?? 0), 0),
            lateResults: released.reduce((sum, row) => sum + (row.lateResults ?? 0), 0),
            rho: round(rho, 6),
            budgetShare: round(rho / (0, budget_1.yearRho)(settings.epsilonYear), 6),
            epsilon: rho > 0 ? round((0, zcdp_1.epsilonOfRho)(rho, budget_1.YEAR_DELTA), 4) : 0,
            reason,
        };
    }
    /**
     * The windows (inside the range) and legacy cells that belong to a period, and whether the
     * period is finer than the windows: a day always; a week under monthly windows; a range that
     * cuts every window it touches.
     */
    belonging(key, range, windows, legacy, settings) {
        const inside = windows.filter((row) => (!range.from || row.firstDay >= range.from) && (!range.to || row.lastDay <= range.to));
        const all = range.groupBy
            ? inside.filter((row) => (0, calendar_1.periodOfWindow)(range.groupBy, row) === key)
            : inside;
        const finerUnit = range.groupBy === 'day' ||
            (range.groupBy === 'week' &&
                (windows.length > 0
                    ? windows.every((row) => row.kind === 'month')
                    : settings.window === 'month'));
        // Windows that overlap the period but belong to none of its kind: the period cuts them.
        const [start, end] = periodBounds(key, range);
        const cut = inside.length < windows.length || windows.length > 0;
        const overlapping = windows.some((row) => (!start || row.lastDay >= start) && (!end || row.firstDay <= end));
        const finer = finerUnit || (all.length === 0 && cut && overlapping);
        const cells = finerUnit
            ? []
            : legacy.filter((cell) => !range.groupBy || legacyPeriod(range.groupBy, cell.lastDay) === key);
        return {
            all,
            released: all.filter((row) => row.windowReleased && row.released),
            pending: all.filter((row) => !row.windowReleased),
            legacy: cells,
            finer,
        };
    }
    async load(enterpriseId, groupId, range, series) {
        const params = [groupId, enterpriseId, range.from, range.to];
        const periodKey = range.groupBy
            ? `to_char(date_trunc('${range.groupBy}', d.day::timestamp), '${range.groupBy === 'month' ? 'YYYY-MM' : 'YYYY-MM-DD'}')`
            : `'all'`;
        const [periods, windows, legacy] = await Promise.all([
            this.db.rows(`SELECT DISTINCT ${periodKey} AS key FROM group_day_counts d
          WHERE d.group_id = ${OWN_GROUP}
            AND ($3::date IS NULL OR d.day >= $3::date) AND ($4::date IS NULL OR d.day <= $4::date)
          ORDER BY 1`, params),
            this.db.rows(`SELECT w.id::int AS "windowId", w.kind, w.first_day::text AS "firstDay",
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
          ORDER BY w.first_day`, [...params, series]),
            this.db.rows(`SELECT id::int AS id, last_day::text AS "lastDay", participants,
                epsilon::float8 AS epsilon, noisy_sum::float8 AS "noisySum",
                noisy_bins AS "noisyBins", bin_noise_variance AS "binNoiseVariance"
           FROM cohort_cells
          WHERE group_id = ${OWN_GROUP} AND series = $5
            AND ($3::date IS NULL OR last_day >= $3::date)
            AND ($4::date IS NULL OR last_day <= $4::date)`, [...params, series]),
        ]);
        return { periods: periods.map((row) => row.key), windows, legacy };
    }
    async words(releaseIds, legacyIds) {
        const [released, legacy] = await Promise.all([
            releaseIds.length
                ? this.db.rows(`SELECT release_id::int AS id, word, count FROM metric_release_words
              WHERE release_id = ANY ($1::bigint[])`, [releaseIds])
                : [],
            legacyIds.length
                ? this.db.rows(`SELECT cell_id::int AS id, word, count::int AS count FROM cohort_cell_words
              WHERE cell_id = ANY ($1::bigint[])`, [legacyIds])
                : [],
        ]);
        const group = (rows) => {
            const map = new Map();
            for (const row of rows) {
                const list = map.get(row.id);
                if (list)
                    list.push(row);
                else
                    map.set(row.id, [row]);
            }
            return map;
        };
        return { releases: group(released), legacy: group(legacy) };
    }
};
exports.GroupReleasesReader = GroupReleasesReader;
exports.GroupReleasesReader = GroupReleasesReader = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database])
], GroupReleasesReader);
/** The first and last day of a period (null: open), within the range. */
function periodBounds(key, range) {
    let start = range.from;
    let end = range.to;
    if (range.groupBy === 'month') {
        const [year, month] = key.split('-').map(Number);
        start = later(start, `${key}-01`);
        end = earlier(end, new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10));
    }
    else if (range.groupBy) {
        const last = new Date(new Date(`${key}T00:00:00Z`).getTime() + (range.groupBy === 'week' ? 6 : 0) * 86_400_000);
        start = later(start, key);
        end = earlier(end, last.toISOString().slice(0, 10));
    }
    return [start, end];
}
const later = (a, b) => (a && a > b ? a : b);
const earlier = (a, b) => (a && a < b ? a : b);
/** The period of a legacy cell's last day. */
function legacyPeriod(unit, day) {
    if (unit === 'month')
        return day.slice(0, 7);
    if (unit === 'day')
        return day;
    const date = new Date(`${day}T00:00:00Z`);
    const weekday = (date.getUTCDay() + 6) % 7;
    return new Date(date.getTime() - weekday * 86_400_000).toISOString().slice(0, 10);
}
//# sourceMappingURL=group-releases.reader.js.map