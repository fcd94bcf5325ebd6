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
exports.DeliveryAttemptEntity = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../database/entity-columns");
const webhook_delivery_entity_1 = require("./webhook-delivery.entity");
/** Schema of `delivery_attempts`: what happened at each attempt. */
let DeliveryAttemptEntity = class DeliveryAttemptEntity {
    id;
    deliveryId;
    startedAt;
    durationMs;
    statusCode;
    error;
    responseExcerpt;
};
exports.DeliveryAttemptEntity = DeliveryAttemptEntity;
__decorate([
    (0, typeorm_1.PrimaryGeneratedColumn)('identity', {
        type: 'bigint',
        generatedIdentity: 'ALWAYS',
        primaryKeyConstraintName: 'delivery_attempts_pkey',
    }),
    __metadata("design:type", Number)
], DeliveryAttemptEntity.prototype, "id", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => webhook_delivery_entity_1.WebhookDeliveryEntity, 'uuid', 'delivery_attempts_delivery_fkey'),
    __metadata("design:type", String)
], DeliveryAttemptEntity.prototype, "deliveryId", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'started_at', type: 'timestamptz' }),
    __metadata("design:type", Date)
], DeliveryAttemptEntity.prototype, "startedAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'duration_ms', type: 'integer' }),
    __metadata("design:type", Number)
], DeliveryAttemptEntity.prototype, "durationMs", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'status_code', type: 'integer', nullable: true }),
    __metadata("design:type", Object)
], DeliveryAttemptEntity.prototype, "statusCode", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text', nullable: true }),
    __metadata("design:type", Object)
], DeliveryAttemptEntity.prototype, "error", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'response_excerpt', type: 'text', nullable: true }),
    __metadata("design:type", Object)
], DeliveryAttemptEntity.prototype, "responseExcerpt", void 0);
exports.DeliveryAttemptEntity = DeliveryAttemptEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'delivery_attempts' }),
    (0, typeorm_1.Index)('delivery_attempts_delivery_idx', ['deliveryId', 'startedAt'])
], DeliveryAttemptEntity);
//# sourceMappingURL=delivery-attempt.entity.js.map