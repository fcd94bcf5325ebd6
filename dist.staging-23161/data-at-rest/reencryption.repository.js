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
exports.ReencryptionRepository = exports.SEALED_COLUMNS = void 0;
const common_1 = require("@nestjs/common");
const database_1 = require("../database/database");
/** Every column encrypted with the data keys (docs/data-at-rest.md). */
exports.SEALED_COLUMNS = [
    { table: 'sessions', key: 'session_id', column: 'transcript' },
    { table: 'sessions', key: 'session_id', column: 'features' },
    { table: 'sessions', key: 'session_id', column: 'word_counts' },
    { table: 'participants', key: 'id', column: 'email_ciphertext' },
    { table: 'events', key: 'id', column: 'encrypted_pii' },
    { table: 'webhook_endpoints', key: 'id', column: 'secret_ciphertext' },
    { table: 'webhook_endpoints', key: 'id', column: 'previous_secret_ciphertext' },
    // A sandbox enterprise's captured mails (docs/integrating.md): their text holds the participant's links.
    { table: 'sandbox_emails', key: 'email_message_id', column: 'text_ciphertext' },
    // Session creation's answer replayed for an Idempotency-Key holds a live check-in link.
    {
        table: 'idempotency_keys',
        key: `enterprise_id::text || '/' || key`,
        column: 'response_ciphertext',
    },
];
/**
 * The key id a stored value names (`unknown`: not a ciphertext of ours; null for null). `substr`
 * reads only the value's first bytes, not the whole of a large transcript.
 */
const KEY_ID_OF = (column) => `CASE WHEN ${column} IS NULL THEN NULL
        WHEN substr(${column}, 1, 3) = 'v2.' THEN split_part(substr(${column}, 1, 64), '.', 2)
        ELSE 'unknown' END`;
/**
 * The SQL of re-encryption under the newest data key (the operator's `data:reencrypt`), across
 * every tenant: batches in primary-key order, each row locked while it is rewritten (SKIP
 * LOCKED: a row in use is left for the next run, which the counts show). And the reads of the
 * start-up check of the keys (SealedDataCheck): key ids counted, one value per key id.
 */
let ReencryptionRepository = class ReencryptionRepository {
    db;
    constructor(db) {
        this.db = db;
    }
    /**
     * Up to `limit` values of `target` after `afterKey` (primary-key order) not under
     * `newestKeyId`, locked for the caller's transaction.
     */
    async lockStale(target, newestKeyId, afterKey, limit, sql = this.db) {
        const { table, key, column } = target;
        return sql.rows(`SELECT (${key})::text AS key, ${column} AS value FROM ${table}
        WHERE ${column} IS NOT NULL AND left(${column}, $1) <> $2
          ${afterKey === null ? '' : `AND (${key})::text > $4`}
        ORDER BY (${key})::text
        LIMIT $3
        FOR UPDATE SKIP LOCKED`, [
            `v2.${newestKeyId}.`.length,
            `v2.${newestKeyId}.`,
            limit,
            ...(afterKey === null ? [] : [afterKey]),
        ]);
    }
    async store(target, rows, sql = this.db) {
        const { table, key, column } = target;
        await sql.rows(`UPDATE ${table} SET ${column} = v.sealed_value
         FROM unnest($1::text[], $2::text[]) AS v(sealed_key, sealed_value)
        WHERE (${key})::text = v.sealed_key`, [rows.map((row) => row.key), rows.map((row) => row.value)]);
    }
    /**
     * How many values each key id holds in each of `columns` of `table`, in one pass over the
     * table.
     */
    async countByKeyIdIn(table, columns) {
        const values = columns
            .map((column, index) => `($${index + 1}::text, ${KEY_ID_OF(`t.${column}`)})`)
            .join(', ');
        return this.db.rows(`SELECT v.column_name AS "column", v.key_id AS "keyId", count(*)::int AS count
         FROM ${table} t CROSS JOIN LATERAL (VALUES ${values}) AS v(column_name, key_id)
        WHERE v.key_id IS NOT NULL
        GROUP BY 1, 2 ORDER BY 1, 2`, [...columns]);
    }
    /**
     * One value of `target` under `keyId` (any one), with the row's email look-up hash when the
     * column is the participants' email.
     */
    async sampleUnder(target, keyId) {
        const { table, column } = target;
        const prefix = `v2.${keyId}.`;
        const [row] = await this.db.rows(`SELECT ${column} AS value,
              ${table === 'participants' ? 'email_hash' : 'NULL::text'} AS "emailHash"
         FROM ${table} WHERE substr(${column}, 1, $1) = $2 LIMIT 1`, [prefix.length, prefix]);
        return row ?? null;
    }
    /** How many values of `target` each key id holds. */
    async countByKeyId(target) {
        const rows = await this.db.rows(`SELECT ${KEY_ID_OF(target.column)} AS "keyId", count(*)::int AS count
         FROM ${target.table} WHERE ${target.column} IS NOT NULL
        GROUP BY 1 ORDER BY 1`);
        return Object.fromEntries(rows.map((row) => [row.keyId, row.count]));
    }
};
exports.ReencryptionRepository = ReencryptionRepository;
exports.ReencryptionRepository = ReencryptionRepository = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database])
], ReencryptionRepository);
//# sourceMappingURL=reencryption.repository.js.map