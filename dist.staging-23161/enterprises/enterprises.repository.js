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
exports.EnterprisesRepository = void 0;
const common_1 = require("@nestjs/common");
const database_1 = require("../database/database");
const entity_columns_1 = require("../database/entity-columns");
const api_key_entity_1 = require("./api-key.entity");
const enterprise_entity_1 = require("./enterprise.entity");
/** Arbitrary, fixed advisory lock key for the demo bootstrap ("demo" in ASCII). */
const BOOTSTRAP_LOCK_KEY = 0x64656d6f;
const API_KEY = (0, entity_columns_1.columnsOf)(api_key_entity_1.ApiKeyEntity, [
    'id',
    'enterpriseId',
    'prefix',
    'createdAt',
    'lastUsedAt',
    'revokedAt',
]);
const PRIVACY_FLOOR_COLUMNS = (0, entity_columns_1.columnsOf)(enterprise_entity_1.EnterpriseEntity, [
    'minCohortScores',
    'minCohortWords',
    'minWordSpeakers',
]);
/** SQL for enterprises and their API keys (operator actions and authentication). */
let EnterprisesRepository = class EnterprisesRepository {
    db;
    constructor(db) {
        this.db = db;
    }
    async insertEnterprise(values, sql = this.db) {
        const [enterprise] = await sql.rows('INSERT INTO enterprises (name, sandbox) VALUES ($1, $2) RETURNING id', [values.name, values.sandbox]);
        return enterprise.id;
    }
    async exists(enterpriseId) {
        const rows = await this.db.rows('SELECT 1 FROM enterprises WHERE id = $1', [enterpriseId]);
        return rows.length > 0;
    }
    async count(sql = this.db) {
        const [row] = await sql.rows('SELECT count(*) AS count FROM enterprises');
        return row.count;
    }
    /** Serialises the development bootstrap across processes (released at commit). */
    async lockForBootstrap(sql) {
        await sql.rows('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK_KEY]);
    }
    async insertApiKey(values, sql = this.db) {
        const [key] = await sql.rows(`INSERT INTO api_keys (enterprise_id, prefix, key_hash) VALUES ($1, $2, $3)
       RETURNING ${API_KEY.select()}`, [values.enterpriseId, values.prefix, values.keyHash]);
        return key;
    }
    async findActiveKeyByHash(keyHash) {
        const [key] = await this.db.rows(`SELECT k.id AS "apiKeyId", k.enterprise_id AS "enterpriseId", e.sandbox AS "sandbox"
         FROM api_keys k
         JOIN enterprises e ON e.id = k.enterprise_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL`, [keyHash]);
        return key ?? null;
    }
    /**
     * Sets any part of the floor and ε (null keeps it; ε in hundredths) and answers the
     * enterprise's; null if none.
     */
    async updatePrivacyFloor(enterpriseId, floor) {
        const [row] = await this.db.rows(`UPDATE enterprises
          SET min_cohort_scores = coalesce($2, min_cohort_scores),
              min_cohort_words = coalesce($3, min_cohort_words),
              min_word_speakers = coalesce($4, min_word_speakers),
              epsilon_year = coalesce($5::numeric, epsilon_year),
              metrics_window = coalesce($6, metrics_window),
              max_margin = coalesce($7::numeric, max_margin)
        WHERE id = $1
       RETURNING ${PRIVACY_FLOOR_COLUMNS.select()}, epsilon_year::float8 AS "epsilonYear",
                 metrics_window AS "metricsWindow", max_margin::float8 AS "maxMargin"`, [
            enterpriseId,
            floor.minCohortScores,
            floor.minCohortWords,
            floor.minWordSpeakers,
            floor.epsilonYear,
            floor.metricsWindow,
            floor.maxMargin,
        ]);
        return row ?? null;
    }
    async listKeysForEnterprise(enterpriseId) {
        return this.db.rows(`SELECT ${API_KEY.select()} FROM api_keys WHERE enterprise_id = $1 ORDER BY created_at, id`, [enterpriseId]);
    }
    /** Revokes the key with this prefix; returns it, or null when no key has that prefix. */
    async revokeByPrefix(prefix) {
        const [key] = await this.db.rows(`UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE prefix = $1
         RETURNING ${API_KEY.select()}`, [prefix]);
        return key ?? null;
    }
    async touchLastUsed(apiKeyId) {
        await this.db.rows('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [apiKeyId]);
    }
};
exports.EnterprisesRepository = EnterprisesRepository;
exports.EnterprisesRepository = EnterprisesRepository = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database])
], EnterprisesRepository);
//# sourceMappingURL=enterprises.repository.js.map