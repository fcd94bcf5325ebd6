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
exports.LinkBindingsRepository = void 0;
const common_1 = require("@nestjs/common");
const database_1 = require("../database/database");
/**
 * `link_bindings`' SQL: which browser (the SHA-256 of its cookie) holds which participant link
 * (browser-binding.ts). The pages' own table; rows of an erased participant go with them (ON
 * DELETE CASCADE).
 */
let LinkBindingsRepository = class LinkBindingsRepository {
    db;
    constructor(db) {
        this.db = db;
    }
    /** The hash of the browser holding the link; null while it is unbound. */
    async holderOf(link, sql = this.db) {
        const [row] = await sql.rows('SELECT browser_hash AS "browserHash" FROM link_bindings WHERE link = $1', [link]);
        return row?.browserHash ?? null;
    }
    /**
     * Binds the link to the browser unless another holds it (the first wins, also when two race);
     * answers the hash of the browser that holds it now.
     */
    async bind(link, browserHash, participantId, sql = this.db) {
        const [row] = await sql.rows(`WITH bound AS (
         INSERT INTO link_bindings (link, browser_hash, participant_id) VALUES ($1, $2, $3)
         ON CONFLICT (link) DO NOTHING RETURNING browser_hash)
       SELECT browser_hash AS "browserHash" FROM bound
       UNION ALL
       SELECT browser_hash FROM link_bindings WHERE link = $1 AND NOT EXISTS (SELECT 1 FROM bound)`, [link, browserHash, participantId]);
        return row?.browserHash ?? null;
    }
    /** A browser's identity was replaced at a Start: every link it held is the new identity's. */
    async moveBrowser(from, to, sql) {
        await sql.rows('UPDATE link_bindings SET browser_hash = $2 WHERE browser_hash = $1', [
            from,
            to,
        ]);
    }
    /**
     * Moves a settings link's binding to the link that replaces it, and drops the participant's
     * other settings-link bindings (all of revoked links by then).
     */
    async move(from, to, participantId) {
        await this.db.rows(`WITH moved AS (
         UPDATE link_bindings SET link = $2 WHERE link = $1 AND participant_id = $3 RETURNING link)
       DELETE FROM link_bindings
        WHERE participant_id = $3 AND link LIKE 'settings:%' AND link <> $2 AND link <> $1`, [from, to, participantId]);
    }
};
exports.LinkBindingsRepository = LinkBindingsRepository;
exports.LinkBindingsRepository = LinkBindingsRepository = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database])
], LinkBindingsRepository);
//# sourceMappingURL=link-bindings.repository.js.map