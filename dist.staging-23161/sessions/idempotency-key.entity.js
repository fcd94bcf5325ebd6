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
exports.IdempotencyKeyEntity = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../database/entity-columns");
const enterprise_entity_1 = require("../enterprises/enterprise.entity");
/**
 * Schema of `idempotency_keys`: the first response to an `Idempotency-Key`, replayed for 24 h
 * (docs/data-at-rest.md: sealed).
 */
let IdempotencyKeyEntity = class IdempotencyKeyEntity {
    enterpriseId;
    key;
    requestHash;
    /**
     * The first answer's JSON, encrypted with the data keys (it holds a live check-in link); null
     * while the first request runs.
     */
    responseCiphertext;
    /** The participant the answer names, for erasure (the answer itself is sealed). */
    externalId;
    createdAt;
};
exports.IdempotencyKeyEntity = IdempotencyKeyEntity;
__decorate([
    (0, entity_columns_1.ForeignKey)(() => enterprise_entity_1.EnterpriseEntity, 'uuid', 'idempotency_keys_enterprise_fkey', {
        primaryKey: 'idempotency_keys_pkey',
    }),
    __metadata("design:type", String)
], IdempotencyKeyEntity.prototype, "enterpriseId", void 0);
__decorate([
    (0, typeorm_1.PrimaryColumn)({ type: 'text', primaryKeyConstraintName: 'idempotency_keys_pkey' }),
    __metadata("design:type", String)
], IdempotencyKeyEntity.prototype, "key", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'request_hash', type: 'text' }),
    __metadata("design:type", String)
], IdempotencyKeyEntity.prototype, "requestHash", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'response_ciphertext', type: 'text', nullable: true }),
    __metadata("design:type", Object)
], IdempotencyKeyEntity.prototype, "responseCiphertext", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'external_id', type: 'text', nullable: true }),
    __metadata("design:type", Object)
], IdempotencyKeyEntity.prototype, "externalId", void 0);
__decorate([
    (0, typeorm_1.CreateDateColumn)({ name: 'created_at', type: 'timestamptz' }),
    __metadata("design:type", Date)
], IdempotencyKeyEntity.prototype, "createdAt", void 0);
exports.IdempotencyKeyEntity = IdempotencyKeyEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'idempotency_keys' })
    // Retention deletes records older than 24 h, oldest first.
    ,
    (0, typeorm_1.Index)('idempotency_keys_created_idx', ['createdAt'])
], IdempotencyKeyEntity);
//# sourceMappingURL=idempotency-key.entity.js.map