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
exports.GroupFeatureHistogramEntity = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../../database/entity-columns");
const group_entity_1 = require("../../groups/group.entity");
/**
 * Schema of `group_feature_histograms`: per group and feature, how many completed sessions fall in
 * each value bucket (`feature_bucket`, feature-buckets.ts); group percentiles read it instead
 * of scanning the group.
 */
let GroupFeatureHistogramEntity = class GroupFeatureHistogramEntity {
    groupId;
    name;
    bucket;
    count;
};
exports.GroupFeatureHistogramEntity = GroupFeatureHistogramEntity;
__decorate([
    (0, entity_columns_1.ForeignKey)(() => group_entity_1.GroupEntity, 'bigint', 'group_feature_histograms_group_fkey', {
        primaryKey: 'group_feature_histograms_pkey',
    }),
    __metadata("design:type", Number)
], GroupFeatureHistogramEntity.prototype, "groupId", void 0);
__decorate([
    (0, typeorm_1.PrimaryColumn)({ type: 'text', primaryKeyConstraintName: 'group_feature_histograms_pkey' }),
    __metadata("design:type", String)
], GroupFeatureHistogramEntity.prototype, "name", void 0);
__decorate([
    (0, typeorm_1.PrimaryColumn)({ type: 'integer', primaryKeyConstraintName: 'group_feature_histograms_pkey' }),
    __metadata("design:type", Number)
], GroupFeatureHistogramEntity.prototype, "bucket", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer' }),
    __metadata("design:type", Number)
], GroupFeatureHistogramEntity.prototype, "count", void 0);
exports.GroupFeatureHistogramEntity = GroupFeatureHistogramEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'group_feature_histograms' })
], GroupFeatureHistogramEntity);
//# sourceMappingURL=group-feature-histogram.entity.js.map