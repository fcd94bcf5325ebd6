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
exports.WebhookDeliveryEntity = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../database/entity-columns");
const event_entity_1 = require("./events/event.entity");
const webhook_endpoint_entity_1 = require("./webhook-endpoint.entity");
/** Schema of `webhook_deliveries`: one row per (event, endpoint). */
let WebhookDeliveryEntity = class WebhookDeliveryEntity {
    id;
    eventId;
    endpointId;
    status;
    attempts;
    /** Made by POST /webhooks/{groupID}/{webhookID}/replay rather than by the event's outbox write. */
    replay;
    nextAttemptAt;
    /** A worker's lease: nobody else sends this delivery before then. */
    lockedUntil;
    /** When a sweeper last queued (or checked) this delivery's Bull job; null once a worker claims it. */
    queuedAt;
    queueJobId;
    lastStatusCode;
    lastError;
    deliveredAt;
    createdAt;
};
exports.WebhookDeliveryEntity = WebhookDeliveryEntity;
__decorate([
    (0, typeorm_1.PrimaryGeneratedColumn)('uuid', { primaryKeyConstraintName: 'webhook_deliveries_pkey' }),
    __metadata("design:type", String)
], WebhookDeliveryEntity.prototype, "id", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => event_entity_1.EventEntity, 'text', 'webhook_deliveries_event_fkey'),
    __metadata("design:type", String)
], WebhookDeliveryEntity.prototype, "eventId", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => webhook_endpoint_entity_1.WebhookEndpointEntity, 'text', 'webhook_deliveries_endpoint_fkey'),
    __metadata("design:type", String)
], WebhookDeliveryEntity.prototype, "endpointId", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text', default: 'pending' }),
    __metadata("design:type", String)
], WebhookDeliveryEntity.prototype, "status", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer', default: 0 }),
    __metadata("design:type", Number)
], WebhookDeliveryEntity.prototype, "attempts", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'boolean', default: false }),
    __metadata("design:type", Boolean)
], WebhookDeliveryEntity.prototype, "replay", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' }),
    __metadata("design:type", Date)
], WebhookDeliveryEntity.prototype, "nextAttemptAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'locked_until', type: 'timestamptz', nullable: true }),
    __metadata("design:type", Object)
], WebhookDeliveryEntity.prototype, "lockedUntil", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'queued_at', type: 'timestamptz', nullable: true }),
    __metadata("design:type", Object)
], WebhookDeliveryEntity.prototype, "queuedAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'queue_job_id', type: 'text', nullable: true }),
    __metadata("design:type", Object)
], WebhookDeliveryEntity.prototype, "queueJobId", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'last_status_code', type: 'integer', nullable: true }),
    __metadata("design:type", Object)
], WebhookDeliveryEntity.prototype, "lastStatusCode", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'last_error', type: 'text', nullable: true }),
    __metadata("design:type", Object)
], WebhookDeliveryEntity.prototype, "lastError", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'delivered_at', type: 'timestamptz', nullable: true }),
    __metadata("design:type", Object)
], WebhookDeliveryEntity.prototype, "deliveredAt", void 0);
__decorate([
    (0, typeorm_1.CreateDateColumn)({ name: 'created_at', type: 'timestamptz' }),
    __metadata("design:type", Date)
], WebhookDeliveryEntity.prototype, "createdAt", void 0);
exports.WebhookDeliveryEntity = WebhookDeliveryEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'webhook_deliveries' }),
    (0, typeorm_1.Index)('webhook_deliveries_event_endpoint_idx', ['eventId', 'endpointId'])
    // One original delivery per (event, endpoint); replays (POST …/replay) add more.
    ,
    (0, typeorm_1.Index)('webhook_deliveries_original_key', ['eventId', 'endpointId'], {
        unique: true,
        where: 'NOT replay',
    }),
    (0, typeorm_1.Index)('webhook_deliveries_due_idx', ['nextAttemptAt'], { where: "status = 'pending'" })
    // The oldest pending delivery's age, a figure scraped every few seconds (docs/operations.md).
    ,
    (0, typeorm_1.Index)('webhook_deliveries_pending_created_idx', ['createdAt'], { where: "status = 'pending'" }),
    (0, typeorm_1.Index)('webhook_deliveries_endpoint_idx', ['endpointId', 'createdAt']),
    (0, typeorm_1.Check)('webhook_deliveries_status_values', "(status = ANY (ARRAY['pending'::text, 'delivered'::text, 'failed'::text, 'cancelled'::text]))")
], WebhookDeliveryEntity);
//# sourceMappingURL=webhook-delivery.entity.js.map