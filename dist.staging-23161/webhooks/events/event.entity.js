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
exports.EventEntity = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../../database/entity-columns");
const enterprise_entity_1 = require("../../enterprises/enterprise.entity");
const group_entity_1 = require("../../groups/group.entity");
/** Schema of `events`, the transactional outbox (docs/webhooks.md). */
let EventEntity = class EventEntity {
    id;
    enterpriseId;
    groupId;
    type;
    /** The event's data object, without personal data (that is `encryptedPii`). */
    payload;
    /** Cleared by the retention sweep once every delivery of the event is final. */
    encryptedPii;
    createdAt;
    /**
     * The trace context of the request that wrote the event, the parent of its deliveries' spans
     * (docs/operations.md, "Traces"); null when tracing was off.
     */
    traceContext;
};
exports.EventEntity = EventEntity;
__decorate([
    (0, typeorm_1.PrimaryColumn)({ type: 'text', primaryKeyConstraintName: 'events_pkey' }),
    __metadata("design:type", String)
], EventEntity.prototype, "id", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => enterprise_entity_1.EnterpriseEntity, 'uuid', 'events_enterprise_fkey'),
    __metadata("design:type", String)
], EventEntity.prototype, "enterpriseId", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => group_entity_1.GroupEntity, 'bigint', 'events_group_fkey', { nullable: true }),
    __metadata("design:type", Object)
], EventEntity.prototype, "groupId", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text' }),
    __metadata("design:type", String)
], EventEntity.prototype, "type", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'jsonb' }),
    __metadata("design:type", Object)
], EventEntity.prototype, "payload", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'encrypted_pii', type: 'text', nullable: true }),
    __metadata("design:type", Object)
], EventEntity.prototype, "encryptedPii", void 0);
__decorate([
    (0, typeorm_1.CreateDateColumn)({ name: 'created_at', type: 'timestamptz' }),
    __metadata("design:type", Date)
], EventEntity.prototype, "createdAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'trace_context', type: 'jsonb', nullable: true }),
    __metadata("design:type", Object)
], EventEntity.prototype, "traceContext", void 0);
exports.EventEntity = EventEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'events' }),
    (0, typeorm_1.Index)('events_group_created_idx', ['groupId', 'createdAt'])
    // Retention's work list: events still holding personal data (cleared once delivered).
    ,
    (0, typeorm_1.Index)('events_pii_held_idx', ['createdAt'], { where: 'encrypted_pii IS NOT NULL' }),
    (0, typeorm_1.Check)('events_id_format', "(id ~ '^evt_[0-9a-f]{48}$'::text)")
], EventEntity);
//# sourceMappingURL=event.entity.js.map