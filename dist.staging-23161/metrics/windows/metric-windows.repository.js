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
exports.MetricWindowsRepository = void 0;
const common_1 = require("@nestjs/common");
const database_1 = require("../../database/database");
const WINDOW_COLUMNS = `w.id::int AS id, w.kind, w.first_day::text AS "firstDay",
  w.last_day::text AS "lastDay", w.epsilon_year::float8 AS "epsilonYear",
  w.released_at IS NOT NULL AS released`;
/** The enterprise's sessions pending in a release, as `p` with `s` and the day. */
const PENDING_OF_ENTERPRISE = `FROM cohort_pending p
  JOIN sessions s ON s.session_id = p.session_id
  JOIN groups g ON g.group_id = p.group_id AND g.enterprise_id = $1`;
const DAY_OF = `(s.completed_at AT TIME ZONE 'UTC')::date`;
/**
 * The owner of the calendar releases (docs/metrics.md, "Release windows"): `metric_windows`,
 * `metric_releases` with their words, and the accountant's ledger `metric_budget_spend`. The
 * releaser (window-releaser.ts) drives it, under the enterprise's advisory lock.
 */
let MetricWindowsRepository = class MetricWindowsRepository {
    db;
    constructor(db) {
        this.db = db;
    }
    /** Holds the enterprise's windows for the rest of the transaction. */
    async lock(enterpriseId, sql) {
        await sql.rows(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
            `metric-windows:${enterpriseId}`,
        ]);
    }
    async settingsOf(enterpriseId, sql = this.db) {
        const [row] = await sql.rows(`SELECT metrics_window AS window, epsilon_year::float8 AS "epsilonYear",
              max_margin::float8 AS "maxMargin", min_cohort_scores AS "minCohortScores",
              min_cohort_words AS "minCohortWords", min_word_speakers AS "minWordSpeakers"
         FROM enterprises WHERE id = $1`, [enterpriseId]);
        return row ?? null;
    }
    /** Enterprises with results waiting for a release, or a window not yet released. */
    async enterprisesWithPending(sql = this.db) {
        const rows = await sql.rows(`SELECT g.enterprise_id AS id
         FROM (SELECT DISTINCT group_id FROM cohort_pending) p
         JOIN groups g ON g.group_id = p.group_id
       UNION
       SELECT enterprise_id FROM metric_windows WHERE released_at IS NULL
        ORDER BY 1`);
        return rows.map((row) => row.id);
    }
    /** The days of the enterprise's pending results that no window holds yet, in order. */
    async uncoveredDays(enterpriseId, sql) {
        const rows = await sql.rows(`SELECT DISTINCT ${DAY_OF}::text AS day ${PENDING_OF_ENTERPRISE}
        WHERE NOT EXISTS (SELECT 1 FROM metric_windows w
                           WHERE w.enterprise_id = $1
                             AND ${DAY_OF} BETWEEN w.first_day AND w.last_day)
        ORDER BY 1`, [enterpriseId]);
        return rows.map((row) => row.day);
    }
    /** The enterprise's windows just before and just after `day` (none holds it). */
    async neighbours(enterpriseId, day, sql) {
        const [row] = await sql.rows(`SELECT (SELECT max(last_day)::text FROM metric_windows
                WHERE enterprise_id = $1 AND last_day < $2::date) AS "previousLastDay",
              (SELECT min(first_day)::text FROM metric_windows
                WHERE enterprise_id = $1 AND first_day > $2::date) AS "nextFirstDay"`, [enterpriseId, day]);
        return row;
    }
    async createWindow(enterpriseId, window, sql) {
        await sql.rows(`INSERT INTO metric_windows (enterprise_id, kind, first_day, last_day, epsilon_year)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (enterprise_id, first_day) DO NOTHING`, [enterpriseId, window.kind, window.firstDay, window.lastDay, window.epsilonYear]);
    }
    /** The enterprise of a group, and its window holding `day` if there is one. */
    async holding(groupId, day, sql) {
        const [row] = await sql.rows(`SELECT g.enterprise_id AS "enterpriseId", w.id::int AS "windowId",
              coalesce(w.released_at IS NOT NULL, false) AS released
         FROM groups g
         LEFT JOIN LATERAL (
               SELECT id, released_at, last_day FROM metric_windows
                WHERE enterprise_id = g.enterprise_id AND first_day <= $2::date
                ORDER BY first_day DESC LIMIT 1) w ON w.last_day >= $2::date
        WHERE g.group_id = $1`, [groupId, day]);
        return row;
    }
    /** A result for a released window: counted as late in its group's release of each series. */
    async countLate(windowId, groupId, sql) {
        await sql.rows(`INSERT INTO metric_releases AS r
              (window_id, group_id, series, participants, released, late_results)
       SELECT $1, $2, series, 0, false, 1 FROM unnest(ARRAY['scores', 'words']) AS series
       ON CONFLICT (group_id, series, window_id)
          DO UPDATE SET late_results = r.late_results + 1`, [windowId, groupId]);
    }
    /** Whether a window of the enterprise holds `day`. */
    async covers(enterpriseId, day, sql = this.db) {
        const rows = await sql.rows(`SELECT 1 FROM metric_windows
        WHERE enterprise_id = $1 AND $2::date BETWEEN first_day AND last_day`, [enterpriseId, day]);
        return rows.length > 0;
    }
    /**
     * Results that came after their window was released join no release: they leave the pending
     * list and are counted in their group's release of that window as late (docs/metrics.md).
     */
    async settleLate(enterpriseId, sql) {
        const [row] = await sql.rows(`WITH late AS (
         SELECT p.session_id, p.series, p.group_id, w.id AS window_id
           ${PENDING_OF_ENTERPRISE}
           JOIN metric_windows w ON w.enterprise_id = $1 AND w.released_at IS NOT NULL
                                AND ${DAY_OF} BETWEEN w.first_day AND w.last_day),
       gone AS (
         DELETE FROM cohort_pending d USING late
          WHERE d.session_id = late.session_id AND d.series = late.series),
       counted AS (
         INSERT INTO metric_releases AS r
                (window_id, group_id, series, participants, released, late_results)
         SELECT window_id, group_id, series, 0, false, count(*) FROM late
          GROUP BY window_id, group_id, series
         ON CONFLICT (group_id, series, window_id)
            DO UPDATE SET late_results = r.late_results + excluded.late_results)
       SELECT count(*)::int AS late FROM late`, [enterpriseId]);
        return row.late;
    }
    /** The enterprise's windows not yet released whose last day is at most `lastDay`, in order. */
    async dueWindows(enterpriseId, lastDay, sql) {
        return sql.rows(`SELECT ${WINDOW_COLUMNS} FROM metric_windows w
        WHERE w.enterprise_id = $1 AND w.released_at IS NULL AND w.last_day <= $2::date
        ORDER BY w.last_day`, [enterpriseId, lastDay]);
    }
    /**
     * Whether the enterprise has a window to release by `lastDay` (an index probe: results go to
     * their window when they arrive, so nothing else can be due).
     */
    async hasDueWindow(enterpriseId, lastDay, sql = this.db) {
        const rows = await sql.rows(`SELECT 1 FROM metric_windows
        WHERE enterprise_id = $1 AND released_at IS NULL AND last_day <= $2::date LIMIT 1`, [enterpriseId, lastDay]);
        return rows.length > 0;
    }
    /**
     * Every completed session of the enterprise in the window (for the contribution bound: the
     * group with the most of her sessions), with the series each is still pending in.
     */
    async sessionsOf(enterpriseId, window, sql) {
        return sql.rows(`SELECT s.session_id AS "sessionId", s.participant_id AS "participantId",
              s.group_id::int AS "groupId", s.mhci::float8 AS mhci, s.word_counts AS "wordCounts",
              EXISTS (SELECT 1 FROM cohort_pending p
                       WHERE p.session_id = s.session_id AND p.series = 'scores') AS scores,
              EXISTS (SELECT 1 FROM cohort_pending p
                       WHERE p.session_id = s.session_id AND p.series = 'words') AS words
         FROM groups g
         JOIN sessions s ON s.group_id = g.group_id
        WHERE g.enterprise_id = $1 AND s.completed_at IS NOT NULL
          AND s.completed_at >= $2::date::timestamp AT TIME ZONE 'UTC'
          AND s.completed_at < ($3::date + 1)::timestamp AT TIME ZONE 'UTC'
        ORDER BY s.participant_id, s.session_id`, [enterpriseId, window.firstDay, window.lastDay]);
    }
    /**
     * The ledger rows of these participants whose last day is within 365 days of `lastDay`, either
     * side: every rolling year a spend on `lastDay` would fall in.
     */
    async spendAround(participantIds, lastDay, sql) {
        if (participantIds.length === 0)
            return [];
        return sql.rows(`SELECT participant_id AS "participantId", last_day::text AS "lastDay", rho
         FROM metric_budget_spend
        WHERE participant_id = ANY ($1::uuid[])
          AND last_day > $2::date - 365 AND last_day < $2::date + 365`, [participantIds, lastDay]);
    }
    /**
     * Stores a window's releases, charges the ledger, takes the window's sessions off the pending
     * list and marks the window released: all in the caller's transaction.
     */
    async storeRelease(enterpriseId, window, releases, spend, sql) {
        for (const release of releases) {
            const [row] = await sql.rows(`INSERT INTO metric_releases
                (window_id, group_id, series, participants, released, left_out, rho, noisy_sum,
                 noisy_bins, sum_noise_variance, bin_noise_variance, word_threshold)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT (group_id, series, window_id) DO UPDATE
            SET participants = excluded.participants, released = excluded.released,
                left_out = excluded.left_out, rho = excluded.rho,
                noisy_sum = excluded.noisy_sum, noisy_bins = excluded.noisy_bins,
                sum_noise_variance = excluded.sum_noise_variance,
                bin_noise_variance = excluded.bin_noise_variance,
                word_threshold = excluded.word_threshold
         RETURNING id::int AS id`, [
                window.id,
                release.groupId,
                release.series,
                release.participants,
                release.released,
                release.leftOut,
                release.rho,
                release.scores?.noisySum ?? null,
                release.scores?.noisyBins ?? null,
                release.scores?.sumNoiseVariance ?? null,
                release.scores?.binNoiseVariance ?? null,
                release.wordThreshold,
            ]);
            if (release.words.length > 0) {
                await sql.rows(`INSERT INTO metric_release_words (release_id, word, count)
           SELECT $1, w.word, w.count FROM unnest($2::text[], $3::int[]) AS w(word, count)`, [row.id, release.words.map((w) => w.word), release.words.map((w) => w.count)]);
            }
        }
        if (spend.size > 0) {
            await sql.rows(`INSERT INTO metric_budget_spend (participant_id, window_id, last_day, rho)
         SELECT x.participant_id, $1, $2, x.rho
           FROM unnest($3::uuid[], $4::float8[]) AS x(participant_id, rho)`, [window.id, window.lastDay, [...spend.keys()], [...spend.values()]]);
        }
        await sql.rows(`WITH mine AS (
         SELECT s.session_id FROM groups g JOIN sessions s ON s.group_id = g.group_id
          WHERE g.enterprise_id = $1 AND s.completed_at IS NOT NULL
            AND s.completed_at >= $2::date::timestamp AT TIME ZONE 'UTC'
            AND s.completed_at < ($3::date + 1)::timestamp AT TIME ZONE 'UTC'),
       gone AS (DELETE FROM cohort_pending p USING mine WHERE p.session_id = mine.session_id)
       UPDATE metric_windows SET released_at = now() WHERE id = $4`, [enterpriseId, window.firstDay, window.lastDay, window.id]);
    }
    /**
     * How long the oldest window due for release has waited (docs/operations.md), in seconds: 0
     * while the workers keep up (they look every five minutes).
     */
    async releaseLagSeconds(graceHours) {
        const [row] = await this.db.rows(`SELECT coalesce(greatest(0, max(extract(epoch FROM now() - (
                (last_day + 1)::timestamp AT TIME ZONE 'UTC' + $1 * interval '1 hour')))), 0)::float8
              AS lag
         FROM metric_windows WHERE released_at IS NULL`, [graceHours]);
        return row.lag;
    }
    /**
     * The accountant's answer for one participant (docs/metrics.md, "The budget"): the most she
     * spent in any 365 days (ending on one of her windows' last days), and her windows.
     */
    async spendOf(participantId, sql = this.db) {
        return sql.rows(`SELECT last_day::text AS "lastDay", rho FROM metric_budget_spend
        WHERE participant_id = $1 ORDER BY last_day`, [participantId]);
    }
};
exports.MetricWindowsRepository = MetricWindowsRepository;
exports.MetricWindowsRepository = MetricWindowsRepository = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database])
], MetricWindowsRepository);
//# sourceMappingURL=metric-windows.repository.js.map