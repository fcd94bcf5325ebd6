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
exports.ApiKeyEntity = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../database/entity-columns");
const enterprise_entity_1 = require("./enterprise.entity");
/** An enterprise API key. Only the SHA-256 of the key is stored; `prefix` is its public part. */
let ApiKeyEntity = class ApiKeyEntity {
    id;
    enterpriseId;
    prefix;
    keyHash;
    createdAt;
    lastUsedAt;
    revokedAt;
};
exports.ApiKeyEntity = ApiKeyEntity;
__decorate([
    (0, typeorm_1.PrimaryGeneratedColumn)('uuid'),
    __metadata("design:type", String)
], ApiKeyEntity.prototype, "id", void 0);
__decorate([
    (0, typeorm_1.Index)('api_keys_enterprise_idx'),
    (0, entity_columns_1.ForeignKey)(() => enterprise_entity_1.EnterpriseEntity, 'uuid', 'api_keys_enterprise_fkey'),
    __metadata("design:type", String)
], ApiKeyEntity.prototype, "enterpriseId", void 0);
__decorate([
    (0, typeorm_1.Index)('api_keys_prefix_key', { unique: true }),
    (0, typeorm_1.Column)({ type: 'text' }),
    __metadata("design:type", String)
], ApiKeyEntity.prototype, "prefix", void 0);
__decorate([
    (0, typeorm_1.Index)('api_keys_key_hash_key', { unique: true }),
    (0, typeorm_1.Column)({ name: 'key_hash', type: 'text' }),
    __metadata("design:type", String)
], ApiKeyEntity.prototype, "keyHash", void 0);
__decorate([
    (0, typeorm_1.CreateDateColumn)({ name: 'created_at', type: 'timestamptz' }),
    __metadata("design:type", Date)
], ApiKeyEntity.prototype, "createdAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'last_used_at', type: 'timestamptz', nullable: true }),
    __metadata("design:type", Object)
], ApiKeyEntity.prototype, "lastUsedAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'revoked_at', type: 'timestamptz', nullable: true }),
    __metadata("design:type", Object)
], ApiKeyEntity.prototype, "revokedAt", void 0);
exports.ApiKeyEntity = ApiKeyEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'api_keys' }),
    (0, typeorm_1.Check)('api_keys_key_hash_format', "(key_hash ~ '^[0-9a-f]{64}$'::text)")
], ApiKeyEntity);
//# sourceMappingURL=api-key.entity.js.map