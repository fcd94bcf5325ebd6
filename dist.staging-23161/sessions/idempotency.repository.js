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
exports.IdempotencyRepository = void 0;
const common_1 = require("@nestjs/common");
const database_1 = require("../database/database");
/** How long a key's first response is replayed (and kept). */
const IDEMPOTENCY_RETENTION = "interval '24 hours'";
/**
 * `Idempotency-Key` on POST /session/create (docs/checkin-flow.md). The key is claimed inside the request's
 * own transaction: a concurrent request with the same key waits on the primary key until the
 * first commits (then it replays that response) or rolls back (then it runs itself). Only
 * successful responses are kept, sealed by the caller (docs/data-at-rest.md: they hold a live
 * check-in link).
 */
let IdempotencyRepository = class IdempotencyRepository {
    db;
    constructor(db) {
        this.db = db;
    }
    /** Claims `key` for a request fingerprinted `requestHash`, or answers what its first use left. */
    async claim(enterpriseId, key, requestHash, sql = this.db) {
        await sql.rows(`DELETE FROM idempotency_keys
        WHERE enterprise_id = $1 AND key = $2 AND created_at < now() - ${IDEMPOTENCY_RETENTION}`, [enterpriseId, key]);
        const inserted = await sql.rows(`INSERT INTO idempotency_keys (enterprise_id, key, request_hash)
       VALUES ($1, $2, $3)
       ON CONFLICT (enterprise_id, key) DO NOTHING RETURNING key`, [enterpriseId, key, requestHash]);
        if (inserted.length > 0)
            return { kind: 'claimed' };
        const [existing] = await sql.rows(`SELECT request_hash AS "requestHash", response_ciphertext AS "responseCiphertext"
         FROM idempotency_keys WHERE enterprise_id = $1 AND key = $2`, [enterpriseId, key]);
        const matches = existing !== undefined &&
            existing.responseCiphertext !== null &&
            existing.requestHash === requestHash;
        if (!matches)
            return { kind: 'mismatch' };
        return { kind: 'replay', sealedResponse: existing.responseCiphertext };
    }
    /** Stores the first answer (sealed by the caller) and the participant it names. */
    async complete(enterpriseId, key, answer, sql = this.db) {
        await sql.rows(`UPDATE idempotency_keys SET response_ciphertext = $3, external_id = $4
        WHERE enterprise_id = $1 AND key = $2`, [enterpriseId, key, answer.sealedResponse, answer.externalId]);
    }
    /** Deletes stored answers that name the participant (erasure, in its transaction). */
    async forgetParticipant(enterpriseId, externalId, sql) {
        await sql.rows(`DELETE FROM idempotency_keys WHERE enterprise_id = $1 AND external_id = $2`, [
            enterpriseId,
            externalId,
        ]);
    }
    /**
     * Retention: deletes up to `limit` records older than their 24 h, across tenants (bounded,
     * `FOR UPDATE SKIP LOCKED`); returns how many.
     */
    async deleteExpired(limit) {
        const rows = await this.db.rows(`DELETE FROM idempotency_keys k
        USING (SELECT enterprise_id, key FROM idempotency_keys
                WHERE created_at < now() - ${IDEMPOTENCY_RETENTION}
                ORDER BY created_at
                LIMIT $1
                FOR UPDATE SKIP LOCKED) due
        WHERE k.enterprise_id = due.enterprise_id AND k.key = due.key
       RETURNING k.key`, [limit]);
        return rows.length;
    }
};
exports.IdempotencyRepository = IdempotencyRepository;
exports.IdempotencyRepository = IdempotencyRepository = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database])
], IdempotencyRepository);
//# sourceMappingURL=idempotency.repository.js.map