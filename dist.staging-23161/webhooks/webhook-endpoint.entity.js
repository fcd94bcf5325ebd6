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
exports.WebhookEndpointEntity = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../database/entity-columns");
const enterprise_entity_1 = require("../enterprises/enterprise.entity");
const group_entity_1 = require("../groups/group.entity");
/** Schema of `webhook_endpoints`; secrets are stored encrypted (they must be usable to sign). */
let WebhookEndpointEntity = class WebhookEndpointEntity {
    id;
    enterpriseId;
    groupId;
    url;
    description;
    status;
    enabledEvents;
    secretCiphertext;
    previousSecretCiphertext;
    previousSecretExpiresAt;
    failingSince;
    createdAt;
    updatedAt;
};
exports.WebhookEndpointEntity = WebhookEndpointEntity;
__decorate([
    (0, typeorm_1.PrimaryColumn)({ type: 'text', primaryKeyConstraintName: 'webhook_endpoints_pkey' }),
    __metadata("design:type", String)
], WebhookEndpointEntity.prototype, "id", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => enterprise_entity_1.EnterpriseEntity, 'uuid', 'webhook_endpoints_enterprise_fkey'),
    __metadata("design:type", String)
], WebhookEndpointEntity.prototype, "enterpriseId", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => group_entity_1.GroupEntity, 'bigint', 'webhook_endpoints_group_fkey'),
    __metadata("design:type", Number)
], WebhookEndpointEntity.prototype, "groupId", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text' }),
    __metadata("design:type", String)
], WebhookEndpointEntity.prototype, "url", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text' }),
    __metadata("design:type", String)
], WebhookEndpointEntity.prototype, "description", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text', default: 'enabled' }),
    __metadata("design:type", String)
], WebhookEndpointEntity.prototype, "status", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'enabled_events', type: 'text', array: true }),
    __metadata("design:type", Array)
], WebhookEndpointEntity.prototype, "enabledEvents", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'secret_ciphertext', type: 'text' }),
    __metadata("design:type", String)
], WebhookEndpointEntity.prototype, "secretCiphertext", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'previous_secret_ciphertext', type: 'text', nullable: true }),
    __metadata("design:type", Object)
], WebhookEndpointEntity.prototype, "previousSecretCiphertext", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true }),
    __metadata("design:type", Object)
], WebhookEndpointEntity.prototype, "previousSecretExpiresAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'failing_since', type: 'timestamptz', nullable: true }),
    __metadata("design:type", Object)
], WebhookEndpointEntity.prototype, "failingSince", void 0);
__decorate([
    (0, typeorm_1.CreateDateColumn)({ name: 'created_at', type: 'timestamptz' }),
    __metadata("design:type", Date)
], WebhookEndpointEntity.prototype, "createdAt", void 0);
__decorate([
    (0, typeorm_1.UpdateDateColumn)({ name: 'updated_at', type: 'timestamptz' }),
    __metadata("design:type", Date)
], WebhookEndpointEntity.prototype, "updatedAt", void 0);
exports.WebhookEndpointEntity = WebhookEndpointEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'webhook_endpoints' }),
    (0, typeorm_1.Index)('webhook_endpoints_group_idx', ['groupId', 'createdAt']),
    (0, typeorm_1.Check)('webhook_endpoints_id_format', "(id ~ '^we_[0-9A-Za-z]{24}$'::text)"),
    (0, typeorm_1.Check)('webhook_endpoints_status_values', "(status = ANY (ARRAY['enabled'::text, 'disabled'::text]))")
], WebhookEndpointEntity);
//# sourceMappingURL=webhook-endpoint.entity.js.map