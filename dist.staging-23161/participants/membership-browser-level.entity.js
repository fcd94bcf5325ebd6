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
exports.MembershipBrowserLevelEntity = void 0;
const typeorm_1 = require("typeorm");
const privacy_model_1 = require("../common/privacy-model");
const membership_entity_1 = require("./membership.entity");
/**
 * Schema of `membership_browser_levels` (docs/privacy.md, "Keep level N / Go back"): for each
 * browser (the SHA-256 of its identity) that chose a level of the membership on a page, the
 * level it last chose itself — or kept, answering "Keep" — lowered by every lowering made since,
 * from anywhere. "Go back" in that browser returns to it; in a browser without a row, to 0 (the
 * level nobody chose). So a raise made in one browser and another made in a second never becomes
 * the level a third browser "goes back" to.
 */
let MembershipBrowserLevelEntity = class MembershipBrowserLevelEntity {
    participantId;
    groupId;
    browserHash;
    membership;
    /** The level this browser last chose or kept, lowered by every lowering since. */
    ownLevel;
    chosenAt;
};
exports.MembershipBrowserLevelEntity = MembershipBrowserLevelEntity;
__decorate([
    (0, typeorm_1.PrimaryColumn)({
        name: 'participant_id',
        type: 'uuid',
        primaryKeyConstraintName: 'membership_browser_levels_pkey',
    }),
    __metadata("design:type", String)
], MembershipBrowserLevelEntity.prototype, "participantId", void 0);
__decorate([
    (0, typeorm_1.PrimaryColumn)({
        name: 'group_id',
        type: 'bigint',
        primaryKeyConstraintName: 'membership_browser_levels_pkey',
    }),
    __metadata("design:type", Number)
], MembershipBrowserLevelEntity.prototype, "groupId", void 0);
__decorate([
    (0, typeorm_1.PrimaryColumn)({
        name: 'browser_hash',
        type: 'text',
        primaryKeyConstraintName: 'membership_browser_levels_pkey',
    }),
    __metadata("design:type", String)
], MembershipBrowserLevelEntity.prototype, "browserHash", void 0);
__decorate([
    (0, typeorm_1.ManyToOne)(() => membership_entity_1.MembershipEntity, { onDelete: 'CASCADE' }),
    (0, typeorm_1.JoinColumn)([
        {
            name: 'participant_id',
            referencedColumnName: 'participantId',
            foreignKeyConstraintName: 'membership_browser_levels_membership_fkey',
        },
        {
            name: 'group_id',
            referencedColumnName: 'groupId',
            foreignKeyConstraintName: 'membership_browser_levels_membership_fkey',
        },
    ]),
    __metadata("design:type", membership_entity_1.MembershipEntity)
], MembershipBrowserLevelEntity.prototype, "membership", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'own_level', type: 'smallint' }),
    __metadata("design:type", Number)
], MembershipBrowserLevelEntity.prototype, "ownLevel", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'chosen_at', type: 'timestamptz', default: () => 'now()' }),
    __metadata("design:type", Date)
], MembershipBrowserLevelEntity.prototype, "chosenAt", void 0);
exports.MembershipBrowserLevelEntity = MembershipBrowserLevelEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'membership_browser_levels' })
    // A browser's rows: moved when its identity is replaced at a Start.
    ,
    (0, typeorm_1.Index)('membership_browser_levels_browser_idx', ['browserHash']),
    (0, typeorm_1.Check)('membership_browser_levels_level_range', `((own_level >= ${privacy_model_1.MIN_PRIVACY_LEVEL}) AND (own_level <= ${privacy_model_1.MAX_PRIVACY_LEVEL}))`)
], MembershipBrowserLevelEntity);
//# sourceMappingURL=membership-browser-level.entity.js.map