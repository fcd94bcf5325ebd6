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
exports.CheckinPagesRepository = void 0;
const common_1 = require("@nestjs/common");
const database_1 = require("../database/database");
const entity_columns_1 = require("../database/entity-columns");
const membership_entity_1 = require("../participants/membership.entity");
const participant_entity_1 = require("../participants/participant.entity");
const MEMBERSHIP = (0, entity_columns_1.columnsOf)(membership_entity_1.MembershipEntity, [
    'participantId',
    'groupId',
    'consentedAt',
    'privacyLevel',
    'linkVersion',
    'raisedIn',
    'levelBeforeRaise',
]);
const PREFERENCES = (0, entity_columns_1.columnsOf)(participant_entity_1.ParticipantEntity, [
    'prefCheckinReminder',
    'prefPrivacyRequest',
    'enterpriseId',
    'externalId',
    'language',
]);
const MEMBER_COLUMNS = `${MEMBERSHIP.select('m')}, ${PREFERENCES.select('p')},
       g.name AS "groupName", g.consent_required AS "consentRequired",
       (SELECT name FROM enterprises WHERE id = p.enterprise_id) AS "enterpriseName",
       p.requested_privacy AS "participantRequestedPrivacy",
       g.requested_privacy AS "groupRequestedPrivacy"`;
/**
 * What the participant pages read (they write nothing themselves: a participant's choices go
 * through privacy/participant-choices.ts to the tables' owners). There is no enterprise here: a participant is identified by a
 * signed token (ParticipantLinks) naming a session or a membership, which is the capability — it
 * reaches that one membership and nothing else. Memberships, sessions and participants belong to
 * one enterprise each (a session's membership is a foreign key), so no row of another tenant can
 * be joined in.
 */
let CheckinPagesRepository = class CheckinPagesRepository {
    db;
    constructor(db) {
        this.db = db;
    }
    async findSession(sessionId) {
        const [session] = await this.db.rows(`SELECT s.session_id AS "sessionId", s.status = 'completed' AS completed,
              s.consented_at AS "sessionConsentedAt",
              s.return_url AS "returnUrl", e.sandbox, ${MEMBER_COLUMNS},
              coalesce((SELECT array_agg(a.browser_hash) FROM membership_raise_answers a
                         WHERE a.participant_id = m.participant_id AND a.group_id = m.group_id),
                       '{}') AS "raiseKeptIn",
              coalesce((SELECT json_object_agg(l.browser_hash, l.own_level)
                          FROM membership_browser_levels l
                         WHERE l.participant_id = m.participant_id AND l.group_id = m.group_id),
                       '{}') AS "browserLevels"
         FROM sessions s
         JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
         JOIN groups g ON g.group_id = m.group_id
         JOIN participants p ON p.id = m.participant_id
         JOIN enterprises e ON e.id = p.enterprise_id
        WHERE s.session_id = $1`, [sessionId]);
        return session ?? null;
    }
    async findMember(participantId, groupId) {
        const [member] = await this.db.rows(`SELECT ${MEMBER_COLUMNS}
         FROM memberships m
         JOIN groups g ON g.group_id = m.group_id
         JOIN participants p ON p.id = m.participant_id
        WHERE m.participant_id = $1 AND m.group_id = $2`, [participantId, groupId]);
        return member ?? null;
    }
    /** The participant's own data for their export: identity, preferences and every membership. */
    async exportOf(participantId) {
        const [participant] = await this.db.rows(`SELECT p.external_id AS "externalId", p.email_ciphertext AS "emailCiphertext",
              p.pref_checkin_reminder AS "checkinReminder",
              p.pref_privacy_request AS "privacyRequest", p.language,
              coalesce((SELECT json_agg(json_build_object(
                         'groupID', m.group_id, 'name', g.name, 'joinDate', m.join_date,
                         'privacyLevel', m.privacy_level, 'consentRequired', g.consent_required,
                         'consentedAt', m.consented_at) ORDER BY m.join_date, m.group_id)
                          FROM memberships m JOIN groups g ON g.group_id = m.group_id
                         WHERE m.participant_id = p.id), '[]') AS groups
         FROM participants p WHERE p.id = $1`, [participantId]);
        return participant ?? null;
    }
};
exports.CheckinPagesRepository = CheckinPagesRepository;
exports.CheckinPagesRepository = CheckinPagesRepository = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database])
], CheckinPagesRepository);
//# sourceMappingURL=checkin-pages.repository.js.map