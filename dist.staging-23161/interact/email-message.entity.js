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
exports.EmailMessageEntity = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../database/entity-columns");
const enterprise_entity_1 = require("../enterprises/enterprise.entity");
const group_entity_1 = require("../groups/group.entity");
const participant_entity_1 = require("../participants/participant.entity");
const interact_errors_1 = require("./interact.errors");
/** Schema of `email_messages`, the email log (docs/emails.md). */
let EmailMessageEntity = class EmailMessageEntity {
    id;
    enterpriseId;
    participantId;
    groupId;
    type;
    /** What a `privacyNotice` says: the raises it carries (privacy-notice.ts); null for other types. */
    details;
    /**
     * Not to be sent before this time; null: at once. A notice of raises made within
     * EMAIL_DEDUP_WINDOW of the previous notice's sending waits for the window's end (docs/emails.md).
     */
    sendAfter;
    status;
    attempts;
    error;
    createdAt;
    sentAt;
    /**
     * The trace context of the request that queued the mail, the parent of its sending span
     * (docs/operations.md, "Traces"); null when tracing was off.
     */
    traceContext;
};
exports.EmailMessageEntity = EmailMessageEntity;
__decorate([
    (0, typeorm_1.PrimaryGeneratedColumn)('uuid', { primaryKeyConstraintName: 'email_messages_pkey' }),
    __metadata("design:type", String)
], EmailMessageEntity.prototype, "id", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => enterprise_entity_1.EnterpriseEntity, 'uuid', 'email_messages_enterprise_fkey'),
    __metadata("design:type", String)
], EmailMessageEntity.prototype, "enterpriseId", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => participant_entity_1.ParticipantEntity, 'uuid', 'email_messages_participant_fkey'),
    __metadata("design:type", String)
], EmailMessageEntity.prototype, "participantId", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => group_entity_1.GroupEntity, 'bigint', 'email_messages_group_fkey'),
    __metadata("design:type", Number)
], EmailMessageEntity.prototype, "groupId", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text' }),
    __metadata("design:type", String)
], EmailMessageEntity.prototype, "type", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'jsonb', nullable: true }),
    __metadata("design:type", Object)
], EmailMessageEntity.prototype, "details", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'send_after', type: 'timestamptz', nullable: true }),
    __metadata("design:type", Object)
], EmailMessageEntity.prototype, "sendAfter", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text', default: 'queued' }),
    __metadata("design:type", String)
], EmailMessageEntity.prototype, "status", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer', default: 0 }),
    __metadata("design:type", Number)
], EmailMessageEntity.prototype, "attempts", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text', nullable: true }),
    __metadata("design:type", Object)
], EmailMessageEntity.prototype, "error", void 0);
__decorate([
    (0, typeorm_1.CreateDateColumn)({ name: 'created_at', type: 'timestamptz' }),
    __metadata("design:type", Date)
], EmailMessageEntity.prototype, "createdAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'sent_at', type: 'timestamptz', nullable: true }),
    __metadata("design:type", Object)
], EmailMessageEntity.prototype, "sentAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'trace_context', type: 'jsonb', nullable: true }),
    __metadata("design:type", Object)
], EmailMessageEntity.prototype, "traceContext", void 0);
exports.EmailMessageEntity = EmailMessageEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'email_messages' }),
    (0, typeorm_1.Index)('email_messages_participant_type_idx', ['participantId', 'type', 'createdAt']),
    (0, typeorm_1.Index)('email_messages_queued_idx', ['createdAt'], { where: "status = 'queued'" }),
    (0, typeorm_1.Check)('email_messages_type_values', `(type = ANY (ARRAY[${interact_errors_1.MAIL_TYPES.map((type) => `'${type}'::text`).join(', ')}]))`),
    (0, typeorm_1.Check)('email_messages_status_values', "(status = ANY (ARRAY['queued'::text, 'sent'::text, 'failed'::text, 'skipped'::text]))")
], EmailMessageEntity);
//# sourceMappingURL=email-message.entity.js.map