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
exports.ParticipantEntity = void 0;
const typeorm_1 = require("typeorm");
const privacy_model_1 = require("../common/privacy-model");
const entity_columns_1 = require("../database/entity-columns");
const enterprise_entity_1 = require("../enterprises/enterprise.entity");
/** Schema of `participants` (see migrations/). The email is stored encrypted, found by its HMAC. */
let ParticipantEntity = class ParticipantEntity {
    id;
    externalId;
    enterpriseId;
    emailCiphertext;
    emailHash;
    prefCheckinReminder;
    prefPrivacyRequest;
    /** The participant's own privacy request, overriding their groups' (null = none). */
    requestedPrivacy;
    /**
     * The language the participant chose on their pages (docs/i18n.md): their pages' and mails'
     * language. Null = never chosen. Never shown to the enterprise.
     */
    language;
    createdAt;
};
exports.ParticipantEntity = ParticipantEntity;
__decorate([
    (0, typeorm_1.PrimaryGeneratedColumn)('uuid'),
    __metadata("design:type", String)
], ParticipantEntity.prototype, "id", void 0);
__decorate([
    (0, typeorm_1.Index)('participants_external_id_key', { unique: true }),
    (0, typeorm_1.Column)({ name: 'external_id', type: 'text' }),
    __metadata("design:type", String)
], ParticipantEntity.prototype, "externalId", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => enterprise_entity_1.EnterpriseEntity, 'uuid', 'participants_enterprise_fkey'),
    __metadata("design:type", String)
], ParticipantEntity.prototype, "enterpriseId", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'email_ciphertext', type: 'text' }),
    __metadata("design:type", String)
], ParticipantEntity.prototype, "emailCiphertext", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'email_hash', type: 'text' }),
    __metadata("design:type", String)
], ParticipantEntity.prototype, "emailHash", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'pref_checkin_reminder', type: 'boolean', default: true }),
    __metadata("design:type", Boolean)
], ParticipantEntity.prototype, "prefCheckinReminder", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'pref_privacy_request', type: 'boolean', default: true }),
    __metadata("design:type", Boolean)
], ParticipantEntity.prototype, "prefPrivacyRequest", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'requested_privacy', type: 'text', array: true, nullable: true }),
    __metadata("design:type", Object)
], ParticipantEntity.prototype, "requestedPrivacy", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text', nullable: true }),
    __metadata("design:type", Object)
], ParticipantEntity.prototype, "language", void 0);
__decorate([
    (0, typeorm_1.CreateDateColumn)({ name: 'created_at', type: 'timestamptz' }),
    __metadata("design:type", Date)
], ParticipantEntity.prototype, "createdAt", void 0);
exports.ParticipantEntity = ParticipantEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'participants' }),
    (0, typeorm_1.Index)('participants_enterprise_email_key', ['enterpriseId', 'emailHash'], { unique: true }),
    (0, typeorm_1.Check)('participants_external_id_format', "(external_id ~ '^ok_[0-9a-f]{48}$'::text)"),
    (0, typeorm_1.Check)('participants_requested_privacy_names', privacy_model_1.PRIVACY_NAMES_CHECK),
    (0, typeorm_1.Check)('participants_language_format', "(language ~ '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8}){0,3}$'::text)")
], ParticipantEntity);
//# sourceMappingURL=participant.entity.js.map