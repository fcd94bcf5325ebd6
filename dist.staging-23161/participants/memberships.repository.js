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
exports.MembershipsRepository = void 0;
const common_1 = require("@nestjs/common");
const database_1 = require("../database/database");
const entity_columns_1 = require("../database/entity-columns");
const membership_entity_1 = require("./membership.entity");
const MEMBERSHIP = (0, entity_columns_1.columnsOf)(membership_entity_1.MembershipEntity, ['groupId', 'joinDate', 'privacyLevel']);
/**
 * Memberships' SQL, and the only writer of `memberships` (docs/design.md, "Table ownership"):
 * joining a group, and the three things a participant changes on a membership — their privacy
 * level, their consent and the version of their links (docs/privacy.md). The rules around those
 * changes (the ledger, the event, the notice) live in one place, privacy/participant-choices.ts;
 * every page and link goes through it.
 */
/** Prepared once per connection: every first session of a participant in a group runs it. */
const INSERT_MEMBERSHIP = (0, database_1.statement)('memberships-insert', `INSERT INTO memberships (participant_id, group_id) VALUES ($1, $2)
   ON CONFLICT (participant_id, group_id) DO NOTHING RETURNING group_id`);
let MembershipsRepository = class MembershipsRepository {
    db;
    constructor(db) {
        this.db = db;
    }
    /** Adds the membership; false when the participant already belongs to the group. */
    async insert(participantId, groupId, sql = this.db) {
        const rows = await sql.rows(INSERT_MEMBERSHIP, [participantId, groupId]);
        return rows.length > 0;
    }
    /** The enterprise's participant's memberships, oldest first. */
    async listForEnterprise(enterpriseId, participantId) {
        return this.db.rows(`SELECT ${MEMBERSHIP.select('m')}
         FROM memberships m JOIN participants p ON p.id = m.participant_id
        WHERE m.participant_id = $1 AND p.enterprise_id = $2
        ORDER BY m.join_date, m.group_id`, [participantId, enterpriseId]);
    }
    /**
     * Gives (`true`) or withdraws (`false`) consent; withdrawing also sets the level to 0 and bumps
     * the link version, so every earlier link of the membership stops working (docs/privacy.md,
     * docs/security.md). Answers the membership as it was and the link version now, or null when
     * it is gone. The first consent counts.
     */
    async setConsent(participantId, groupId, consent, sql = this.db) {
        const [before] = await sql.rows(`WITH old AS (
         SELECT participant_id, group_id, consented_at IS NOT NULL AS consented, privacy_level
           FROM memberships WHERE participant_id = $1 AND group_id = $2 FOR UPDATE)
       UPDATE memberships m
          SET consented_at = CASE WHEN $3 THEN coalesce(m.consented_at, now()) END,
              privacy_level = CASE WHEN $3 THEN m.privacy_level ELSE 0 END,
              link_version = CASE WHEN $3 OR NOT old.consented THEN m.link_version
                                  ELSE m.link_version + 1 END
         FROM old
        WHERE m.participant_id = old.participant_id AND m.group_id = old.group_id
       RETURNING old.consented, old.privacy_level AS "privacyLevel",
                 m.link_version AS "linkVersion"`, [participantId, groupId, consent]);
        return before ?? null;
    }
    /**
     * Sets the member's own privacy level, made on a page in the browser `madeIn` (the SHA-256 of
     * its identity; docs/privacy.md); answers the level before, or null when it is gone. A raise
     * records that browser and the level before its raises (kept across its successive raises);
     * a lowering to or below that level leaves nothing pending.
     */
    async setPrivacyLevel(participantId, groupId, level, madeIn, sql = this.db) {
        const [before] = await sql.rows(`WITH old AS (
         SELECT participant_id, group_id, privacy_level, raised_in, level_before_raise
           FROM memberships WHERE participant_id = $1 AND group_id = $2 FOR UPDATE),
       answered AS (
         -- A new raise is asked about again in every other browser; a lowering that undoes the
         -- raise leaves nothing to ask.
         DELETE FROM membership_raise_answers a USING old
          WHERE a.participant_id = old.participant_id AND a.group_id = old.group_id
            AND ($3 > old.privacy_level OR $3 <= coalesce(old.level_before_raise, -1)))
       UPDATE memberships m
          SET privacy_level = $3,
              raised_in = CASE
                WHEN $3 > old.privacy_level THEN $4
                WHEN $3 <= coalesce(old.level_before_raise, -1) THEN NULL
                ELSE old.raised_in END,
              level_before_raise = CASE
                WHEN $3 > old.privacy_level THEN
                  CASE WHEN old.raised_in IS NOT DISTINCT FROM $4 AND old.raised_in IS NOT NULL
                       THEN old.level_before_raise ELSE old.privacy_level END
                WHEN $3 <= coalesce(old.level_before_raise, -1) THEN NULL
                ELSE old.level_before_raise END
         FROM old
        WHERE m.participant_id = old.participant_id AND m.group_id = old.group_id
       RETURNING old.privacy_level AS level`, [participantId, groupId, level, madeIn]);
        return before?.level ?? null;
    }
    /**
     * "Keep level N", answered in the browser `browserHash` (the SHA-256 of its identity): that
     * browser stops asking about the pending raise, and N becomes the level it chose itself; every
     * other browser still asks (docs/privacy.md).
     */
    async keepRaise(participantId, groupId, browserHash, level) {
        await this.db.transaction(async (sql) => {
            await sql.rows(`INSERT INTO membership_raise_answers (participant_id, group_id, browser_hash)
         VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [participantId, groupId, browserHash]);
            await this.recordBrowserLevel(participantId, groupId, level, browserHash, sql);
        });
    }
    /**
     * What "Go back" returns to in each browser (membership_browser_levels, docs/privacy.md): the
     * browser `madeIn` that chose `level` itself records it as its own; every other browser's own
     * level is lowered to `level` when that is lower (a lowering from anywhere counts for all; a
     * raise made elsewhere counts for none). Runs in the transaction that sets the level.
     */
    async recordBrowserLevel(participantId, groupId, level, madeIn, sql) {
        await sql.rows(`WITH lowered AS (
         UPDATE membership_browser_levels SET own_level = $3
          WHERE participant_id = $1 AND group_id = $2 AND own_level > $3
            AND browser_hash IS DISTINCT FROM $4)
       INSERT INTO membership_browser_levels (participant_id, group_id, browser_hash, own_level)
       SELECT $1, $2, $4, $3 WHERE $4::text IS NOT NULL
       ON CONFLICT (participant_id, group_id, browser_hash)
         DO UPDATE SET own_level = EXCLUDED.own_level, chosen_at = now()`, [participantId, groupId, level, madeIn]);
    }
    /**
     * A browser's identity was replaced (a Start, docs/privacy.md): the raises it made, the answers
     * it gave and the levels it chose are the new identity's.
     */
    async moveBrowser(from, to, sql) {
        await sql.rows(`WITH raised AS (UPDATE memberships SET raised_in = $2 WHERE raised_in = $1),
            chosen AS (UPDATE membership_browser_levels SET browser_hash = $2 WHERE browser_hash = $1)
       UPDATE membership_raise_answers SET browser_hash = $2 WHERE browser_hash = $1`, [from, to]);
    }
    /**
     * "Sign out my links" (docs/security.md): bumps the link version of every membership of the
     * participant, so every settings and unsubscribe link sent before stops working. Answers the
     * memberships' new versions.
     */
    async bumpLinkVersions(participantId, sql = this.db) {
        return sql.rows(`UPDATE memberships SET link_version = link_version + 1 WHERE participant_id = $1
       RETURNING group_id AS "groupId", link_version AS "linkVersion"`, [participantId]);
    }
};
exports.MembershipsRepository = MembershipsRepository;
exports.MembershipsRepository = MembershipsRepository = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database])
], MembershipsRepository);
//# sourceMappingURL=memberships.repository.js.map