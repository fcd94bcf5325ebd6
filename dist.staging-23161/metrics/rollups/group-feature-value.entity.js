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
exports.GroupFeatureValueEntity = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../../database/entity-columns");
const group_entity_1 = require("../../groups/group.entity");
/**
 * Schema of `group_feature_values`: per group and feature, how many completed sessions measured
 * each exact value — tied to no session or person. Group percentiles count inside a dense
 * histogram bucket from here (docs/checkin-flow.md); a session's own values are kept only
 * encrypted, with the session.
 */
let GroupFeatureValueEntity = class GroupFeatureValueEntity {
    groupId;
    name;
    value;
    count;
};
exports.GroupFeatureValueEntity = GroupFeatureValueEntity;
__decorate([
    (0, entity_columns_1.ForeignKey)(() => group_entity_1.GroupEntity, 'bigint', 'group_feature_values_group_fkey', {
        primaryKey: 'group_feature_values_pkey',
    }),
    __metadata("design:type", Number)
], GroupFeatureValueEntity.prototype, "groupId", void 0);
__decorate([
    (0, typeorm_1.PrimaryColumn)({ type: 'text', primaryKeyConstraintName: 'group_feature_values_pkey' }),
    __metadata("design:type", String)
], GroupFeatureValueEntity.prototype, "name", void 0);
__decorate([
    (0, typeorm_1.PrimaryColumn)({
        type: 'double precision',
        primaryKeyConstraintName: 'group_feature_values_pkey',
    }),
    __metadata("design:type", Number)
], GroupFeatureValueEntity.prototype, "value", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer' }),
    __metadata("design:type", Number)
], GroupFeatureValueEntity.prototype, "count", void 0);
exports.GroupFeatureValueEntity = GroupFeatureValueEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'group_feature_values' }),
    (0, typeorm_1.Check)('group_feature_values_count', '(count >= 1)')
], GroupFeatureValueEntity);
//# sourceMappingURL=group-feature-value.entity.js.map