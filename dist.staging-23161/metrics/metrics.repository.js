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
exports.MetricsRepository = void 0;
const common_1 = require("@nestjs/common");
const sessions_repository_1 = require("../sessions/sessions.repository");
const pii_cipher_1 = require("../common/crypto/pii-cipher");
const database_1 = require("../database/database");
const transcript_codec_1 = require("../sessions/transcript-codec");
/** Period keys (docs/metrics.md): day YYYY-MM-DD, ISO week's Monday YYYY-MM-DD, month YYYY-MM. */
const PERIOD = {
    day: { unit: 'day', format: 'YYYY-MM-DD' },
    week: { unit: 'week', format: 'YYYY-MM-DD' },
    month: { unit: 'month', format: 'YYYY-MM' },
};
const periodOf = (groupBy, timestamp) => groupBy
    ? `to_char(date_trunc('${PERIOD[groupBy].unit}', ${timestamp}), '${PERIOD[groupBy].format}')`
    : `'all'`;
/**
 * The scope's own id, but only within the enterprise ($1 = group or participant id, $2 =
 * enterprise id): a scalar sub-select PostgreSQL evaluates once, so the covering indexes still
 * serve the range as index-only scans.
 */
const ownerIn = (scope) => scope.kind === 'group'
    ? '(SELECT group_id FROM groups WHERE group_id = $1 AND enterprise_id = $2)'
    : '(SELECT id FROM participants WHERE id = $1 AND enterprise_id = $2)';
/**
 * Every metric is one SQL statement; nothing is loaded into Node but the answer. Sessions count
 * by completion time in UTC; `from`/`to` are inclusive days. Parameters: $1 the scope's id, $2 the
 * enterprise, $3 from, $4 to (and $5 top for word clouds).
 */
let MetricsRepository = class MetricsRepository {
    db;
    cipher;
    constructor(db, cipher) {
        this.db = db;
        this.cipher = cipher;
    }
    /** FROM/WHERE over the scope's completed sessions in the range. */
    sessions(scope) {
        const membership = scope.kind === 'participant'
            ? `JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
             AND ${sessions_repository_1.SHOWN_LEVEL} >= ${scope.minimumLevel}`
            : '';
        const owner = scope.kind === 'group' ? 's.group_id' : 's.participant_id';
        return `FROM sessions s ${membership}
           WHERE ${owner} = ${ownerIn(scope)} AND s.completed_at IS NOT NULL
             AND ($3::date IS NULL OR s.completed_at >= $3::date::timestamp AT TIME ZONE 'UTC')
             AND ($4::date IS NULL OR s.completed_at < ($4::date + 1)::timestamp AT TIME ZONE 'UTC')`;
    }
    params(scope, range) {
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
    async count(scope, range) {
        if (scope.kind === 'group') {
            return this.db.rows(`SELECT ${periodOf(range.groupBy, 'd.day::timestamp')} AS key,
                coalesce(sum(d.sessions), 0)::int AS value
           ${this.groupDays(scope)}
         ${range.groupBy ? 'GROUP BY 1 ORDER BY 1' : ''}`, this.params(scope, range));
        }
        const key = periodOf(range.groupBy, "s.completed_at AT TIME ZONE 'UTC'");
        return this.db.rows(`SELECT ${key} AS key, count(*)::int AS value ${this.sessions(scope)}
       ${range.groupBy ? 'GROUP BY 1 ORDER BY 1' : ''}`, this.params(scope, range));
    }
    /** A participant's MHCI statistics (group answers: windows/group-releases.reader.ts). */
    async mhci(scope, range) {
        const key = periodOf(range.groupBy, "s.completed_at AT TIME ZONE 'UTC'");
        return this.db.rows(`SELECT ${key} AS key, count(*)::int AS sessions, true AS shown,
              min(s.mhci) AS "minMhci", max(s.mhci) AS "maxMhci", avg(s.mhci) AS "avgMhci",
              percentile_cont(0.25) WITHIN GROUP (ORDER BY s.mhci) AS "percentile25Mhci",
              percentile_cont(0.5) WITHIN GROUP (ORDER BY s.mhci) AS "percentile50Mhci",
              percentile_cont(0.75) WITHIN GROUP (ORDER BY s.mhci) AS "percentile75Mhci"
       ${this.sessions(scope)}
       ${range.groupBy ? 'GROUP BY 1 ORDER BY 1' : ''}`, this.params(scope, range));
    }
    /** A participant's word cloud (group answers: windows/group-releases.reader.ts). */
    async wordcloud(scope, range, top) {
        return this.participantWordcloud(scope, range, top);
    }
    /**
     * A participant's own cloud: the word counts of their sessions the level lets it see, stored
     * only encrypted (docs/data-at-rest.md), so opened and merged here — a participant has few
     * sessions. Periods with words only; ranked by count, then word.
     */
    async participantWordcloud(scope, range, top) {
        const sessions = await this.db.rows(`SELECT ${periodOf(range.groupBy, "s.completed_at AT TIME ZONE 'UTC'")} AS key,
              s.word_counts AS "wordCounts"
         ${this.sessions(scope)} AND s.word_counts IS NOT NULL`, this.params(scope, range));
        const periods = new Map();
        for (const { key, wordCounts } of sessions) {
            const counts = periods.get(key) ?? new Map();
            // Counts the keys cannot open read as removed by retention (docs/data-at-rest.md).
            for (const [word, n] of Object.entries((0, transcript_codec_1.openSessionJson)(this.cipher, 'word_counts', wordCounts) ?? {})) {
                counts.set(word, (counts.get(word) ?? 0) + n);
            }
            periods.set(key, counts);
        }
        return [...periods.keys()].sort().flatMap((key) => {
            const counts = [...periods.get(key)];
            const total = counts.reduce((sum, [, n]) => sum + n, 0);
            return counts
                .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0))
                .slice(0, top)
                .map(([word, n]) => ({ key, shown: true, word, share: n / total }));
        });
    }
    /** FROM/WHERE over the group's per-day counts in the range. */
    groupDays(scope) {
        return `FROM group_day_counts d
           WHERE d.group_id = ${ownerIn(scope)}
             AND ($3::date IS NULL OR d.day >= $3::date)
             AND ($4::date IS NULL OR d.day <= $4::date)`;
    }
};
exports.MetricsRepository = MetricsRepository;
exports.MetricsRepository = MetricsRepository = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database,
        pii_cipher_1.PiiCipher])
], MetricsRepository);
//# sourceMappingURL=metrics.repository.js.map