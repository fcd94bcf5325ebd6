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
exports.IngestionRepository = void 0;
const common_1 = require("@nestjs/common");
const database_1 = require("../database/database");
const entity_columns_1 = require("../database/entity-columns");
const session_entity_1 = require("../sessions/session.entity");
const LOCKED_SESSION = (0, entity_columns_1.columnsOf)(session_entity_1.SessionEntity, [
    'sessionId',
    'enterpriseId',
    'participantId',
    'groupId',
    'status',
    'resultHash',
    'handoffTokenHash',
]);
/**
 * What ingestion reads for itself: the session it completes, locked. Everything it writes goes
 * through the tables' owners (sessions, metric rollups, groups, the outbox), in its transaction.
 */
let IngestionRepository = class IngestionRepository {
    db;
    constructor(db) {
        this.db = db;
    }
    /** Locks the session row for the rest of the transaction (one completion at a time). */
    async lockSession(sessionId, sql = this.db) {
        const [session] = await sql.rows(`SELECT ${LOCKED_SESSION.select('s')}, p.external_id AS "externalId",
              -- Consent to this check-in, on its own page, by a member whose consent stands, where
              -- the check-in needs it: as fixed at its hand-off, or, never handed off, as its group
              -- asked when it was created or asks now (docs/privacy.md).
              (s.consent_required OR (s.handoff_token_hash IS NULL AND g.consent_required))
                AND (s.consented_at IS NULL OR m.consented_at IS NULL) AS "consentMissing",
              s.handoff_confirmed_at IS NOT NULL AS "handoffConfirmed",
              e.sandbox
         FROM sessions s
         JOIN participants p ON p.id = s.participant_id
         JOIN enterprises e ON e.id = p.enterprise_id
         JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
         JOIN groups g ON g.group_id = s.group_id
        WHERE s.session_id = $1
        FOR UPDATE OF s`, [sessionId]);
        return session ?? null;
    }
};
exports.IngestionRepository = IngestionRepository;
exports.IngestionRepository = IngestionRepository = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database])
], IngestionRepository);
//# sourceMappingURL=ingestion.repository.js.map