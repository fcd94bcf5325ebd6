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
exports.GroupEntity = void 0;
const typeorm_1 = require("typeorm");
const privacy_model_1 = require("../common/privacy-model");
const entity_columns_1 = require("../database/entity-columns");
const enterprise_entity_1 = require("../enterprises/enterprise.entity");
/** Schema of `groups` (see migrations/); the repository reads and writes it with plain SQL. */
let GroupEntity = class GroupEntity {
    /** A JSON number (docs/design.md): bigint ids fit in 2^53 and are read as numbers. */
    groupId;
    enterpriseId;
    name;
    key;
    inviteCode;
    consentRequired;
    credits;
    /** The group's privacy request, canonical names (`[]` = none). */
    requestedPrivacy;
    createdAt;
    updatedAt;
};
exports.GroupEntity = GroupEntity;
__decorate([
    (0, typeorm_1.PrimaryGeneratedColumn)('identity', {
        name: 'group_id',
        type: 'bigint',
        generatedIdentity: 'ALWAYS',
    }),
    __metadata("design:type", Number)
], GroupEntity.prototype, "groupId", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => enterprise_entity_1.EnterpriseEntity, 'uuid', 'groups_enterprise_fkey'),
    __metadata("design:type", String)
], GroupEntity.prototype, "enterpriseId", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text' }),
    __metadata("design:type", String)
], GroupEntity.prototype, "name", void 0);
__decorate([
    (0, typeorm_1.Index)('groups_key_key', { unique: true }),
    (0, typeorm_1.Column)({ type: 'text' }),
    __metadata("design:type", String)
], GroupEntity.prototype, "key", void 0);
__decorate([
    (0, typeorm_1.Index)('groups_invite_code_key', { unique: true }),
    (0, typeorm_1.Column)({ name: 'invite_code', type: 'text' }),
    __metadata("design:type", String)
], GroupEntity.prototype, "inviteCode", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'consent_required', type: 'boolean', default: false }),
    __metadata("design:type", Boolean)
], GroupEntity.prototype, "consentRequired", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer', default: 0 }),
    __metadata("design:type", Number)
], GroupEntity.prototype, "credits", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'requested_privacy', type: 'text', array: true, default: () => "'{}'" }),
    __metadata("design:type", Array)
], GroupEntity.prototype, "requestedPrivacy", void 0);
__decorate([
    (0, typeorm_1.CreateDateColumn)({ name: 'created_at', type: 'timestamptz' }),
    __metadata("design:type", Date)
], GroupEntity.prototype, "createdAt", void 0);
__decorate([
    (0, typeorm_1.UpdateDateColumn)({ name: 'updated_at', type: 'timestamptz' }),
    __metadata("design:type", Date)
], GroupEntity.prototype, "updatedAt", void 0);
exports.GroupEntity = GroupEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'groups' }),
    (0, typeorm_1.Index)('groups_enterprise_idx', ['enterpriseId', 'groupId']),
    (0, typeorm_1.Check)('groups_requested_privacy_names', privacy_model_1.PRIVACY_NAMES_CHECK)
], GroupEntity);
//# sourceMappingURL=group.entity.js.map