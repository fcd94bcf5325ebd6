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
exports.MembershipRaiseAnswerEntity = void 0;
const typeorm_1 = require("typeorm");
const membership_entity_1 = require("./membership.entity");
/**
 * Schema of `membership_raise_answers` (docs/privacy.md, "Keep level N / Go back"): the browsers
 * (the SHA-256 of their identity) that answered "Keep" to the membership's pending raise. An
 * answer holds only in the browser that gave it: every other browser still asks, so a "Keep"
 * the enterprise gives in a browser of its own silences nothing in the member's. A new raise
 * clears them; so does a lowering that undoes the raise.
 */
let MembershipRaiseAnswerEntity = class MembershipRaiseAnswerEntity {
    participantId;
    groupId;
    browserHash;
    membership;
    answeredAt;
};
exports.MembershipRaiseAnswerEntity = MembershipRaiseAnswerEntity;
__decorate([
    (0, typeorm_1.PrimaryColumn)({
        name: 'participant_id',
        type: 'uuid',
        primaryKeyConstraintName: 'membership_raise_answers_pkey',
    }),
    __metadata("design:type", String)
], MembershipRaiseAnswerEntity.prototype, "participantId", void 0);
__decorate([
    (0, typeorm_1.PrimaryColumn)({
        name: 'group_id',
        type: 'bigint',
        primaryKeyConstraintName: 'membership_raise_answers_pkey',
    }),
    __metadata("design:type", Number)
], MembershipRaiseAnswerEntity.prototype, "groupId", void 0);
__decorate([
    (0, typeorm_1.PrimaryColumn)({
        name: 'browser_hash',
        type: 'text',
        primaryKeyConstraintName: 'membership_raise_answers_pkey',
    }),
    __metadata("design:type", String)
], MembershipRaiseAnswerEntity.prototype, "browserHash", void 0);
__decorate([
    (0, typeorm_1.ManyToOne)(() => membership_entity_1.MembershipEntity, { onDelete: 'CASCADE' }),
    (0, typeorm_1.JoinColumn)([
        {
            name: 'participant_id',
            referencedColumnName: 'participantId',
            foreignKeyConstraintName: 'membership_raise_answers_membership_fkey',
        },
        {
            name: 'group_id',
            referencedColumnName: 'groupId',
            foreignKeyConstraintName: 'membership_raise_answers_membership_fkey',
        },
    ]),
    __metadata("design:type", membership_entity_1.MembershipEntity)
], MembershipRaiseAnswerEntity.prototype, "membership", void 0);
__decorate([
    (0, typeorm_1.CreateDateColumn)({ name: 'answered_at', type: 'timestamptz' }),
    __metadata("design:type", Date)
], MembershipRaiseAnswerEntity.prototype, "answeredAt", void 0);
exports.MembershipRaiseAnswerEntity = MembershipRaiseAnswerEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'membership_raise_answers' })
    // A browser's answers: moved when its identity is replaced.
    ,
    (0, typeorm_1.Index)('membership_raise_answers_browser_idx', ['browserHash'])
], MembershipRaiseAnswerEntity);
//# sourceMappingURL=membership-raise-answer.entity.js.map