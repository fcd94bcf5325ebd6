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
exports.Reencryption = void 0;
const common_1 = require("@nestjs/common");
const pii_cipher_1 = require("../common/crypto/pii-cipher");
const database_1 = require("../database/database");
const reencryption_repository_1 = require("./reencryption.repository");
const BATCH = 500;
/**
 * Re-encrypts every stored ciphertext (emails, transcripts, event personal data, webhook secrets,
 * captured sandbox mails, idempotent answers) under the newest data key, so an older key can then
 * be removed from DATA_ENCRYPTION_KEYS without losing anything: the last step of a rotation
 * (docs/data-at-rest.md). Idempotent; safe beside running processes (rows are locked while rewritten, and anything written meanwhile already uses
 * the newest key).
 */
let Reencryption = class Reencryption {
    db;
    repository;
    cipher;
    constructor(db, repository, cipher) {
        this.db = db;
        this.repository = repository;
        this.cipher = cipher;
    }
    async run() {
        const report = {
            keyId: this.cipher.currentKeyId,
            reencrypted: {},
            unreadable: {},
            keyIds: {},
        };
        for (const target of reencryption_repository_1.SEALED_COLUMNS) {
            const name = `${target.table}.${target.column}`;
            const { reencrypted, unreadable } = await this.reencryptColumn(target);
            report.reencrypted[name] = reencrypted;
            report.unreadable[name] = unreadable;
            report.keyIds[name] = await this.repository.countByKeyId(target);
        }
        return report;
    }
    async reencryptColumn(target) {
        const totals = { reencrypted: 0, unreadable: 0 };
        let afterKey = null;
        for (;;) {
            const batch = await this.db.transaction(async (sql) => {
                const rows = await this.repository.lockStale(target, this.cipher.currentKeyId, afterKey, BATCH, sql);
                const rewritten = [];
                for (const row of rows) {
                    const plaintext = this.open(row.value);
                    if (plaintext === null)
                        totals.unreadable += 1;
                    else
                        rewritten.push({ key: row.key, value: this.cipher.encrypt(plaintext) });
                }
                if (rewritten.length > 0)
                    await this.repository.store(target, rewritten, sql);
                totals.reencrypted += rewritten.length;
                return { last: rows.length > 0 ? rows[rows.length - 1].key : null, size: rows.length };
            });
            if (batch.size < BATCH || batch.last === null)
                return totals;
            afterKey = batch.last;
        }
    }
    /** The plaintext of a stored value; null when the configured keys cannot open it. */
    open(value) {
        try {
            return this.cipher.decrypt(value);
        }
        catch (error) {
            if (error instanceof pii_cipher_1.UnopenableValueError)
                return null;
            throw error;
        }
    }
};
exports.Reencryption = Reencryption;
exports.Reencryption = Reencryption = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database,
        reencryption_repository_1.ReencryptionRepository,
        pii_cipher_1.PiiCipher])
], Reencryption);
//# sourceMappingURL=reencryption.js.map