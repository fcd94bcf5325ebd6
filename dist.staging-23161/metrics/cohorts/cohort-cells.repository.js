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
exports.CohortCellsRepository = void 0;
const common_1 = require("@nestjs/common");
const database_1 = require("../../database/database");
/**
 * What feeds group metrics (docs/metrics.md): `cohort_pending`, the completed sessions not yet in
 * a release, and the per-day counts of group `count`. Ingestion adds a completed session
 * ({@link addCompleted}); the window releaser (windows/window-releaser.ts) takes sessions off the
 * pending list when their window is released; erasure takes a participant out of the live day
 * counts ({@link forgetParticipant}) while releases stay as they are. The second version's sealed
 * cells (`cohort_cells` and their words and running totals) are only read now: a released cell
 * is never re-drawn.
 */
let CohortCellsRepository = class CohortCellsRepository {
    db;
    constructor(db) {
        this.db = db;
    }
    /**
     * A completed session: one more in its day's count, and pending in both series unless its
     * window was already released (`pending` false: it joins no release).
     */
    async addCompleted(session, completedAt, pending, sql = this.db) {
        await sql.rows(`WITH pending AS (
         INSERT INTO cohort_pending (session_id, series, group_id)
         SELECT $1, series, $2 FROM unnest(ARRAY['scores', 'words']) AS series WHERE $4)
       INSERT INTO group_day_counts AS c (group_id, day, sessions)
       VALUES ($2, ($3::timestamptz AT TIME ZONE 'UTC')::date, 1)
       ON CONFLICT (group_id, day) DO UPDATE SET sessions = c.sessions + 1`, [session.sessionId, session.groupId, completedAt, pending]);
    }
    /**
     * Takes an erased participant's completed sessions out of the live per-day counts (emptied days
     * go). Their pending rows go with their sessions (ON DELETE CASCADE); sealed cells stay.
     */
    async forgetParticipant(participantId, sql) {
        await sql.rows(`WITH mine AS (
         SELECT group_id, (completed_at AT TIME ZONE 'UTC')::date AS day, count(*) AS sessions
           FROM sessions
          WHERE participant_id = $1 AND completed_at IS NOT NULL
          GROUP BY 1, 2),
       emptied AS (
         DELETE FROM group_day_counts c USING mine
          WHERE c.group_id = mine.group_id AND c.day = mine.day AND c.sessions <= mine.sessions)
       UPDATE group_day_counts c SET sessions = c.sessions - mine.sessions
         FROM mine
        WHERE c.group_id = mine.group_id AND c.day = mine.day AND c.sessions > mine.sessions`, [participantId]);
    }
};
exports.CohortCellsRepository = CohortCellsRepository;
exports.CohortCellsRepository = CohortCellsRepository = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database])
], CohortCellsRepository);
//# sourceMappingURL=cohort-cells.repository.js.map