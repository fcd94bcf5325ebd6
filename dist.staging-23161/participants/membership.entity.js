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
exports.MembershipEntity = void 0;
const typeorm_1 = require("typeorm");
const privacy_model_1 = require("../common/privacy-model");
const entity_columns_1 = require("../database/entity-columns");
const group_entity_1 = require("../groups/group.entity");
const participant_entity_1 = require("./participant.entity");
/** Schema of `memberships`: a participant in a group, with the participant's own privacy level. */
let MembershipEntity = class MembershipEntity {
    participantId;
    groupId;
    joinDate;
    /** 0–5, set by the participant only (docs/privacy.md). */
    privacyLevel;
    /**
     * The browser (the SHA-256 of its identity) whose page made the last raise of the level, while
     * that raise is unconfirmed elsewhere: a check-in in another browser asks "keep it or go back"
     * before its hand-off (docs/privacy.md). Null when nothing is pending.
     */
    raisedIn;
    /** The level before that browser's raises: what "Go back" returns to. */
    levelBeforeRaise;
    consentedAt;
    /**
     * Carried by the membership's settings and unsubscribe links; bumping it invalidates every
     * earlier link (docs/security.md: sign-out, consent withdrawal).
     */
    linkVersion;
};
exports.MembershipEntity = MembershipEntity;
__decorate([
    (0, entity_columns_1.ForeignKey)(() => participant_entity_1.ParticipantEntity, 'uuid', 'memberships_participant_fkey', {
        primaryKey: 'memberships_pkey',
    }),
    __metadata("design:type", String)
], MembershipEntity.prototype, "participantId", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => group_entity_1.GroupEntity, 'bigint', 'memberships_group_fkey', {
        primaryKey: 'memberships_pkey',
    }),
    __metadata("design:type", Number)
], MembershipEntity.prototype, "groupId", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'join_date', type: 'timestamptz', default: () => 'now()' }),
    __metadata("design:type", Date)
], MembershipEntity.prototype, "joinDate", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'privacy_level', type: 'smallint', default: 0 }),
    __metadata("design:type", Number)
], MembershipEntity.prototype, "privacyLevel", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'raised_in', type: 'text', nullable: true }),
    __metadata("design:type", Object)
], MembershipEntity.prototype, "raisedIn", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'level_before_raise', type: 'smallint', nullable: true }),
    __metadata("design:type", Object)
], MembershipEntity.prototype, "levelBeforeRaise", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'consented_at', type: 'timestamptz', nullable: true }),
    __metadata("design:type", Object)
], MembershipEntity.prototype, "consentedAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'link_version', type: 'integer', default: 0 }),
    __metadata("design:type", Number)
], MembershipEntity.prototype, "linkVersion", void 0);
exports.MembershipEntity = MembershipEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'memberships' }),
    (0, typeorm_1.Index)('memberships_group_idx', ['groupId', 'joinDate'])
    // The memberships whose pending raise a browser made: moved when its identity is replaced.
    ,
    (0, typeorm_1.Index)('memberships_raised_in_idx', ['raisedIn'], { where: '(raised_in IS NOT NULL)' }),
    (0, typeorm_1.Check)('memberships_privacy_level_range', `((privacy_level >= ${privacy_model_1.MIN_PRIVACY_LEVEL}) AND (privacy_level <= ${privacy_model_1.MAX_PRIVACY_LEVEL}))`)
], MembershipEntity);
//# sourceMappingURL=membership.entity.js.map