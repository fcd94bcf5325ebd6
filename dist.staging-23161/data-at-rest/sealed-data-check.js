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
exports.SealedDataCheck = void 0;
const common_1 = require("@nestjs/common");
const pii_cipher_1 = require("../common/crypto/pii-cipher");
const reencryption_repository_1 = require("./reencryption.repository");
const DOCS = 'docs/data-at-rest.md, "Data the keys cannot open"';
/**
 * The start-up check of the data keys (docs/data-at-rest.md, "Data the keys cannot open"): after
 * a restore, or a deploy with other keys, say which sealed data this process cannot open instead
 * of failing on it later. For each column of SEALED_COLUMNS it counts the values under each key
 * id (one pass per table, reading each value's first bytes only) and opens one value per key id:
 * a key id that is not configured, or whose configured key does not open that value, is reported
 * with its count. One participant's email per key id is also hashed again, which tells whether
 * DATA_ENCRYPTION_KEY is the key of the stored look-up hashes. Logs name tables, columns, key ids
 * and counts: never a value, a plaintext or a key.
 */
let SealedDataCheck = class SealedDataCheck {
    repository;
    cipher;
    logger = new common_1.Logger('DataKeys');
    /** Set once the process stops: a check cut short by the pool closing is not a failure. */
    stopping = false;
    timer = null;
    constructor(repository, cipher) {
        this.repository = repository;
        this.cipher = cipher;
    }
    async run() {
        const report = { values: 0, unopenable: [], lookupHashMatches: null };
        const tables = [...new Set(reencryption_repository_1.SEALED_COLUMNS.map((target) => target.table))];
        for (const table of tables) {
            const targets = reencryption_repository_1.SEALED_COLUMNS.filter((target) => target.table === table);
            const counts = await this.repository.countByKeyIdIn(table, targets.map((target) => target.column));
            for (const { column, keyId, count } of counts) {
                report.values += count;
                const target = targets.find((candidate) => candidate.column === column);
                const name = `${table}.${column}`;
                if (keyId === 'unknown') {
                    report.unopenable.push({ column: name, keyId, count, reason: 'not a ciphertext' });
                    continue;
                }
                const sample = await this.repository.sampleUnder(target, keyId);
                if (sample === null)
                    continue; // changed since it was counted
                try {
                    const plaintext = this.cipher.decrypt(sample.value);
                    if (sample.emailHash !== null && report.lookupHashMatches !== false) {
                        report.lookupHashMatches = this.cipher.emailLookupHash(plaintext) === sample.emailHash;
                    }
                }
                catch (error) {
                    if (!(error instanceof pii_cipher_1.UnopenableValueError))
                        throw error;
                    report.unopenable.push({ column: name, keyId, count, reason: error.message });
                }
            }
        }
        return report;
    }
    /**
     * Runs the check after start-up, without delaying it, `afterMs` from now, and logs what it
     * found. A process that stops first skips it.
     */
    runInBackground(afterMs = 0) {
        this.timer = setTimeout(() => {
            this.timer = null;
            void this.run().then((report) => this.log(report), (error) => {
                if (!this.stopping) {
                    this.logger.warn(`Data key check failed: ${error.message}`);
                }
            });
        }, afterMs);
        this.timer.unref();
    }
    beforeApplicationShutdown() {
        this.stopping = true;
        if (this.timer)
            clearTimeout(this.timer);
        this.timer = null;
    }
    log(report) {
        for (const { column, keyId, count, reason } of report.unopenable) {
            this.logger.warn(`Sealed data these keys cannot open: ${column}, ${count} ${count === 1 ? 'value' : 'values'} under data key ` +
                `${keyId} (${reason}); they read as removed (${DOCS})`);
        }
        if (report.lookupHashMatches === false) {
            this.logger.warn('participants.email_hash: DATA_ENCRYPTION_KEY is not the key the stored look-up hashes ' +
                'were made with: a known email is not found, and a session created for it makes a ' +
                `new participant (${DOCS})`);
        }
        const unopenable = report.unopenable.reduce((sum, { count }) => sum + count, 0);
        this.logger.log(`Data keys checked: ${report.values} sealed values; ` +
            (unopenable === 0 ? 'every key id found opens' : `${unopenable} cannot be opened`));
    }
};
exports.SealedDataCheck = SealedDataCheck;
exports.SealedDataCheck = SealedDataCheck = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [reencryption_repository_1.ReencryptionRepository,
        pii_cipher_1.PiiCipher])
], SealedDataCheck);
//# sourceMappingURL=sealed-data-check.js.map