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
exports.SandboxEmailEntity = exports.SANDBOX_EMAILS_KEPT = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../database/entity-columns");
const enterprise_entity_1 = require("../enterprises/enterprise.entity");
const email_message_entity_1 = require("./email-message.entity");
/**
 * Schema of `sandbox_emails` (docs/integrating.md): a mail of a sandbox enterprise, captured by the email
 * worker instead of being sent — rendered exactly as it would have been sent. The text carries
 * the participant's signed links, so it is stored encrypted like other personal data; the
 * recipient is the participant's (encrypted) email. Deleted with its `email_messages` row
 * (erasure), with its enterprise, and past the newest SANDBOX_EMAILS_KEPT of its enterprise. Read by `GET /sandbox/emails` (src/sandbox/).
 */
/**
 * How many captured mails a sandbox keeps: each capture removes the enterprise's older ones past
 * this many, so a sandbox holds a bounded number of (encrypted) mails and links, and
 * `GET /sandbox/emails` lists every one it keeps.
 */
exports.SANDBOX_EMAILS_KEPT = 100;
let SandboxEmailEntity = class SandboxEmailEntity {
    emailMessageId;
    enterpriseId;
    subject;
    /** The text part, encrypted with the data keys (PiiCipher). */
    textCiphertext;
    /** When the mail was captured (when it would have been sent). */
    createdAt;
};
exports.SandboxEmailEntity = SandboxEmailEntity;
__decorate([
    (0, entity_columns_1.ForeignKey)(() => email_message_entity_1.EmailMessageEntity, 'uuid', 'sandbox_emails_email_message_fkey', {
        primaryKey: 'sandbox_emails_pkey',
    }),
    __metadata("design:type", String)
], SandboxEmailEntity.prototype, "emailMessageId", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => enterprise_entity_1.EnterpriseEntity, 'uuid', 'sandbox_emails_enterprise_fkey'),
    __metadata("design:type", String)
], SandboxEmailEntity.prototype, "enterpriseId", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text' }),
    __metadata("design:type", String)
], SandboxEmailEntity.prototype, "subject", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'text_ciphertext', type: 'text' }),
    __metadata("design:type", String)
], SandboxEmailEntity.prototype, "textCiphertext", void 0);
__decorate([
    (0, typeorm_1.CreateDateColumn)({ name: 'created_at', type: 'timestamptz' }),
    __metadata("design:type", Date)
], SandboxEmailEntity.prototype, "createdAt", void 0);
exports.SandboxEmailEntity = SandboxEmailEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'sandbox_emails' }),
    (0, typeorm_1.Index)('sandbox_emails_enterprise_created_idx', ['enterpriseId', 'createdAt'])
], SandboxEmailEntity);
//# sourceMappingURL=sandbox-email.entity.js.map