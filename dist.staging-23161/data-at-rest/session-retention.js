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
exports.SessionRetention = void 0;
const common_1 = require("@nestjs/common");
const database_1 = require("../database/database");
const shared_features_1 = require("../metrics/rollups/shared-features");
const sessions_repository_1 = require("../sessions/sessions.repository");
/**
 * Retention of a session's details (docs/data-at-rest.md): the transcript, features and word
 * counts go once TRANSCRIPT_RETENTION_DAYS have passed; the scores stay, and released cohort
 * cells are left as they are. Features the group comparisons count are taken out of them first,
 * since their values go with the session's (SharedFeatures).
 */
let SessionRetention = class SessionRetention {
    db;
    sessions;
    sharedFeatures;
    constructor(db, sessions, sharedFeatures) {
        this.db = db;
        this.sessions = sessions;
        this.sharedFeatures = sharedFeatures;
    }
    /**
     * Clears up to `limit` sessions completed before `completedBefore`, in one transaction; two
     * workers take disjoint rows (SKIP LOCKED). Answers how many it cleared.
     */
    async removeExpired(completedBefore, limit) {
        return this.db.transaction(async (sql) => {
            const due = await this.sessions.lockExpiredDetails(completedBefore, limit, sql);
            await this.sharedFeatures.unshare(due.filter((session) => session.featuresShared), sql);
            await this.sessions.clearDetails(due.map((session) => session.sessionId), sql);
            return due.length;
        });
    }
};
exports.SessionRetention = SessionRetention;
exports.SessionRetention = SessionRetention = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database,
        sessions_repository_1.SessionsRepository,
        shared_features_1.SharedFeatures])
], SessionRetention);
//# sourceMappingURL=session-retention.js.map