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
exports.ConsentLedgerRepository = void 0;
const common_1 = require("@nestjs/common");
const database_1 = require("../database/database");
/** The consent ledger (docs/privacy.md): appended in the transaction of the change, never updated. */
let ConsentLedgerRepository = class ConsentLedgerRepository {
    db;
    constructor(db) {
        this.db = db;
    }
    /** Appends the entries that change something (from ≠ to); the others are no change at all. */
    async append(entries, sql = this.db) {
        const changes = entries.filter((entry) => entry.from !== entry.to);
        if (changes.length === 0)
            return;
        await sql.rows(`INSERT INTO consent_ledger
              (enterprise_id, participant_id, group_id, change, from_value, to_value, via,
               session_id)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::text[], $5::jsonb[],
                            $6::jsonb[], $7::text[], $8::text[])`, [
            changes.map((entry) => entry.enterpriseId),
            changes.map((entry) => entry.participantId),
            changes.map((entry) => entry.groupId),
            changes.map((entry) => entry.change),
            changes.map((entry) => JSON.stringify(entry.from)),
            changes.map((entry) => JSON.stringify(entry.to)),
            changes.map((entry) => entry.via),
            changes.map((entry) => entry.sessionId),
        ]);
    }
    /**
     * The one row an erasure leaves (docs/privacy.md): that an erasure happened in the enterprise, and
     * when, with nothing that names the participant.
     */
    async appendErasure(enterpriseId, sql = this.db) {
        await sql.rows(`INSERT INTO consent_ledger (enterprise_id, change, via) VALUES ($1, 'erasure', 'erasure')`, [enterpriseId]);
    }
    /** The participant's history, oldest first, within the enterprise. */
    async list(enterpriseId, participantId) {
        return this.db.rows(`SELECT group_id AS "groupID", session_id AS "sessionID", change, from_value AS "from",
              to_value AS "to", at, via
         FROM consent_ledger
        WHERE participant_id = $1 AND enterprise_id = $2
        ORDER BY id`, [participantId, enterpriseId]);
    }
};
exports.ConsentLedgerRepository = ConsentLedgerRepository;
exports.ConsentLedgerRepository = ConsentLedgerRepository = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database])
], ConsentLedgerRepository);
//# sourceMappingURL=consent-ledger.repository.js.map