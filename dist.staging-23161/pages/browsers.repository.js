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
exports.BrowsersRepository = void 0;
const common_1 = require("@nestjs/common");
const database_1 = require("../database/database");
/** `browsers`' SQL: the browser identities the server minted (browser-binding.ts). */
let BrowsersRepository = class BrowsersRepository {
    db;
    constructor(db) {
        this.db = db;
    }
    /** Records a freshly minted identity (the SHA-256 of its cookie value). */
    async mint(hash, deviceHash, sql = this.db) {
        await sql.rows('INSERT INTO browsers (hash, device_hash) VALUES ($1, $2)', [hash, deviceHash]);
    }
    /**
     * The identity as the server knows it; null when the server never minted it. `lock`: its row
     * stays locked for the rest of the transaction `sql` (a Start's).
     */
    async identityOf(hash, sql = this.db, options = {}) {
        const [row] = await sql.rows(`SELECT replaced_by AS "replacedBy", replaced_at AS "replacedAt", device_hash AS "deviceHash"
         FROM browsers WHERE hash = $1${options.lock ? ' FOR UPDATE' : ''}`, [hash]);
        return row ?? null;
    }
    /** Whether the server minted an identity for this device (the SHA-256 of its cookie). */
    async deviceKnown(deviceHash) {
        const rows = await this.db.rows('SELECT 1 FROM browsers WHERE device_hash = $1 LIMIT 1', [
            deviceHash,
        ]);
        return rows.length > 0;
    }
    /** `from` is replaced by `to` (a Start): it stops being anyone's. */
    async replace(from, to, sql) {
        await sql.rows('UPDATE browsers SET replaced_by = $2, replaced_at = now() WHERE hash = $1', [
            from,
            to,
        ]);
    }
};
exports.BrowsersRepository = BrowsersRepository;
exports.BrowsersRepository = BrowsersRepository = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database])
], BrowsersRepository);
//# sourceMappingURL=browsers.repository.js.map