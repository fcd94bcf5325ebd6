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
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.WindowReleaser = void 0;
exports.assignGroups = assignGroups;
exports.fitsEveryYear = fitsEveryYear;
const common_1 = require("@nestjs/common");
const config_module_1 = require("../../config/config.module");
const pii_cipher_1 = require("../../common/crypto/pii-cipher");
const database_1 = require("../../database/database");
const transcript_codec_1 = require("../../sessions/transcript-codec");
const cohort_cells_repository_1 = require("../cohorts/cohort-cells.repository");
const release_randomness_1 = require("../releases/release-randomness");
const score_release_1 = require("../releases/score-release");
const word_release_1 = require("../releases/word-release");
const budget_1 = require("./budget");
const calendar_1 = require("./calendar");
const metric_windows_repository_1 = require("./metric-windows.repository");
const window_release_1 = require("./window-release");
/** Slack for floating-point sums of ρ in the accountant's comparisons. */
const RHO_SLACK = 1e-9;
/**
 * Releases group metrics by calendar windows (docs/metrics.md, "Release windows", "The budget"),
 * for the workers' sweep and before a group read: per enterprise, under its advisory lock and in
 * one transaction, it gives every pending result's day a window (results get theirs as they
 * arrive; the sweep covers those from before the upgrade), settles results that came after
 * their window's release, and releases every window whose end and grace period have passed, for
 * all the enterprise's groups at once:
 * 1. each participant's values go to one group per window (the group with most of her completed
 *    sessions there; ties: the lowest groupID);
 * 2. the accountant leaves out whoever the window would take over her budget in a rolling year;
 * 3. per group and series, a release if at least k participants entered, its noise drawn now.
 * Idempotent: a released window is never released again.
 */
let WindowReleaser = class WindowReleaser {
    db;
    windows;
    cohorts;
    cipher;
    config;
    random;
    constructor(db, windows, cohorts, cipher, config, random) {
        this.db = db;
        this.windows = windows;
        this.cohorts = cohorts;
        this.cipher = cipher;
        this.config = config;
        this.random = random;
    }
    /** The last day whose window is due at `now`. */
    releasableThrough(now = new Date()) {
        return (0, calendar_1.lastReleasableDay)(now, this.config.metrics.releaseGraceHours);
    }
    /**
     * A completed session, in the ingestion's transaction: its window (made now, under the
     * settings in force, when it is the first result of its days), and pending there, or counted
     * as late when that window was already released (docs/metrics.md, "Release windows").
     */
    async addCompleted(session, completedAt, sql) {
        const day = completedAt.toISOString().slice(0, 10);
        let window = await this.windows.holding(session.groupId, day, sql);
        if (window.windowId === null) {
            const settings = await this.windows.settingsOf(window.enterpriseId, sql);
            if (settings)
                await this.makeWindow(window.enterpriseId, day, settings, sql);
            window = await this.windows.holding(session.groupId, day, sql);
        }
        if (window.windowId !== null && window.released) {
            await this.windows.countLate(window.windowId, session.groupId, sql);
        }
        await this.cohorts.addCompleted(session, completedAt, !window.released, sql);
    }
    /**
     * Releases what is due for one enterprise at `now` (a group read: an index probe when nothing
     * is); answers how many windows it released.
     */
    async releaseEnterprise(enterpriseId, now = new Date(), options = {}) {
        const through = this.releasableThrough(now);
        if (!options.sweep && !(await this.windows.hasDueWindow(enterpriseId, through)))
            return 0;
        return this.db.transaction(async (sql) => {
            await this.windows.lock(enterpriseId, sql);
            const settings = await this.windows.settingsOf(enterpriseId, sql);
            if (!settings)
                return 0;
            await this.makeWindows(enterpriseId, settings, sql);
            await this.windows.settleLate(enterpriseId, sql);
            let released = 0;
            for (const window of await this.windows.dueWindows(enterpriseId, through, sql)) {
                await this.release(enterpriseId, window, settings, sql);
                released += 1;
            }
            return released;
        });
    }
    /** Releases what is due for every enterprise with pending results (the sweep). */
    async releaseDue(now = new Date()) {
        let released = 0;
        for (const enterpriseId of await this.windows.enterprisesWithPending()) {
            released += await this.releaseEnterprise(enterpriseId, now, { sweep: true });
        }
        return released;
    }
    /**
     * Makes sure the window holding `day` exists, under the settings in force now: the operator's
     * CLI calls it before a change of window or budget, which so applies from the next window.
     */
    async holdCurrentWindow(enterpriseId, day) {
        await this.db.transaction(async (sql) => {
            await this.windows.lock(enterpriseId, sql);
            const settings = await this.windows.settingsOf(enterpriseId, sql);
            if (settings && !(await this.windows.covers(enterpriseId, day, sql))) {
                await this.makeWindow(enterpriseId, day, settings, sql);
            }
        });
    }
    /** Gives each day of a pending result a window of the kind in force (calendar.ts). */
    async makeWindows(enterpriseId, settings, sql) {
        let coveredThrough = null;
        for (const day of await this.windows.uncoveredDays(enterpriseId, sql)) {
            if (coveredThrough && day <= coveredThrough)
                continue;
            coveredThrough = await this.makeWindow(enterpriseId, day, settings, sql);
        }
    }
    async makeWindow(enterpriseId, day, settings, sql) {
        const { previousLastDay, nextFirstDay } = await this.windows.neighbours(enterpriseId, day, sql);
        const window = (0, calendar_1.windowFor)(settings.window, day, previousLastDay, nextFirstDay);
        await this.windows.createWindow(enterpriseId, { kind: settings.window, ...window, epsilonYear: settings.epsilonYear }, sql);
        return window.lastDay;
    }
    async release(enterpriseId, window, settings, sql) {
        const sessions = await this.windows.sessionsOf(enterpriseId, window, sql);
        const rho = (0, budget_1.releaseRho)(window.kind, window.epsilonYear);
        const assigned = assignGroups(sessions);
        const admitted = await this.admit(window, [...assigned.keys()], 2 * rho, sql);
        const { releases, spend } = this.releases(sessions, assigned, admitted, window, rho, settings);
        await this.windows.storeRelease(enterpriseId, window, releases, spend, sql);
    }
    /**
     * The accountant (docs/metrics.md, "The budget"): the participants who may spend `cost` more on
     * the window's last day without any rolling 365 days holding it going over ρ_year of the budget
     * in force for this window. Reads only who took part before, never a value.
     */
    async admit(window, participantIds, cost, sql) {
        const limit = (0, budget_1.yearRho)(window.epsilonYear);
        const ledger = await this.windows.spendAround(participantIds, window.lastDay, sql);
        const byParticipant = new Map();
        for (const row of ledger) {
            const rows = byParticipant.get(row.participantId) ?? [];
            rows.push(row);
            byParticipant.set(row.participantId, rows);
        }
        const admitted = new Set();
        for (const participantId of participantIds) {
            const rows = byParticipant.get(participantId) ?? [];
            if (fitsEveryYear(rows, window.lastDay, cost, limit))
                admitted.add(participantId);
        }
        return admitted;
    }
    releases(sessions, assigned, admitted, window, rho, settings) {
        const byGroup = new Map();
        for (const session of sessions) {
            const list = byGroup.get(session.groupId);
            if (list)
                list.push(session);
            else
                byGroup.set(session.groupId, [session]);
        }
        const groups = [...byGroup.keys()].sort((a, b) => a - b);
        const releases = [];
        const spend = new Map();
        const charge = (participantIds) => {
            for (const id of participantIds)
                spend.set(id, (spend.get(id) ?? 0) + rho);
        };
        for (const groupId of groups) {
            const mine = byGroup.get(groupId);
            const entering = (series) => mine.filter((s) => s[series] && assigned.get(s.participantId) === groupId && admitted.has(s.participantId));
            const pendingIn = (series) => mine.filter((s) => s[series]).length;
            // Scores: her mean MHCI over her sessions of the group in the window.
            const scored = byParticipant(entering('scores').filter((s) => s.mhci !== null));
            const values = [...scored.values()].map((mine) => (0, score_release_1.participantScore)(mine.reduce((sum, s) => sum + s.mhci, 0) / mine.length));
            const scoresReleased = values.length >= settings.minCohortScores && values.length > 0;
            releases.push({
                groupId,
                series: 'scores',
                participants: values.length,
                released: scoresReleased,
                leftOut: pendingIn('scores') - [...scored.values()].reduce((n, m) => n + m.length, 0),
                rho: scoresReleased ? rho : null,
                scores: scoresReleased ? (0, window_release_1.releaseWindowScores)(values, rho, this.random) : null,
                wordThreshold: null,
                words: [],
            });
            if (scoresReleased)
                charge(scored.keys());
            // Words: her most frequent words over her sessions of the group in the window.
            const spoken = byParticipant(entering('words'));
            const wordsReleased = spoken.size >= settings.minCohortWords && spoken.size > 0;
            const delta = (0, budget_1.wordReleaseDelta)(window.kind);
            const release = wordsReleased
                ? (0, window_release_1.releaseWindowWords)([...spoken.values()].map((mine) => this.wordsOf(mine)), rho, settings.minWordSpeakers, delta, this.random)
                : null;
            releases.push({
                groupId,
                series: 'words',
                participants: spoken.size,
                released: wordsReleased,
                leftOut: pendingIn('words') - [...spoken.values()].reduce((n, m) => n + m.length, 0),
                rho: wordsReleased ? rho : null,
                scores: null,
                wordThreshold: release?.threshold ?? null,
                words: release?.words ?? [],
            });
            if (wordsReleased)
                charge(spoken.keys());
        }
        return { releases, spend };
    }
    /**
     * A participant's words in a release (word-release.ts): her counts over her sessions there,
     * opened here (per-session counts are stored only encrypted), then her most frequent.
     */
    wordsOf(sessions) {
        const counts = new Map();
        for (const { wordCounts } of sessions) {
            if (!wordCounts)
                continue;
            // Counts the keys cannot open join without their words, as retention's do.
            for (const [word, count] of Object.entries((0, transcript_codec_1.openSessionJson)(this.cipher, 'word_counts', wordCounts) ?? {})) {
                counts.set(word, (counts.get(word) ?? 0) + count);
            }
        }
        return (0, word_release_1.participantWords)(counts, window_release_1.WORDS_PER_RELEASE);
    }
};
exports.WindowReleaser = WindowReleaser;
exports.WindowReleaser = WindowReleaser = __decorate([
    (0, common_1.Injectable)(),
    __param(4, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __param(5, (0, common_1.Inject)(release_randomness_1.RELEASE_RANDOMNESS)),
    __metadata("design:paramtypes", [database_1.Database,
        metric_windows_repository_1.MetricWindowsRepository,
        cohort_cells_repository_1.CohortCellsRepository,
        pii_cipher_1.PiiCipher, Object, Object])
], WindowReleaser);
/**
 * Contribution bounding across groups (docs/metrics.md, "The budget"): each participant's group
 * for the window, the one with the most of her completed sessions there (ties: the lowest
 * groupID). Counts of completions are public (group `count`), so the choice reveals nothing.
 */
function assignGroups(sessions) {
    const counts = new Map();
    for (const { participantId, groupId } of sessions) {
        const mine = counts.get(participantId) ?? new Map();
        mine.set(groupId, (mine.get(groupId) ?? 0) + 1);
        counts.set(participantId, mine);
    }
    const assigned = new Map();
    for (const [participantId, mine] of counts) {
        let best = null;
        for (const [groupId, n] of mine) {
            if (!best || n > best[1] || (n === best[1] && groupId < best[0]))
                best = [groupId, n];
        }
        assigned.set(participantId, best[0]);
    }
    return assigned;
}
/**
 * Whether spending `cost` on `day` keeps every rolling 365 days that holds `day` within `limit`:
 * the years ending on `day` and on each later spend less than 365 days after it.
 */
function fitsEveryYear(ledger, day, cost, limit) {
    const ends = [day, ...ledger.filter((row) => row.lastDay > day).map((row) => row.lastDay)];
    for (const end of ends) {
        const start = (0, calendar_1.addDays)(end, -365);
        const spent = ledger
            .filter((row) => row.lastDay > start && row.lastDay <= end)
            .reduce((sum, row) => sum + row.rho, 0);
        if (spent + cost > limit + RHO_SLACK)
            return false;
    }
    return true;
}
function byParticipant(sessions) {
    const grouped = new Map();
    for (const session of sessions) {
        const mine = grouped.get(session.participantId) ?? [];
        mine.push(session);
        grouped.set(session.participantId, mine);
    }
    return grouped;
}
//# sourceMappingURL=window-releaser.js.map