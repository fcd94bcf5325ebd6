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
exports.GroupDayCountEntity = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../../database/entity-columns");
const group_entity_1 = require("../../groups/group.entity");
/**
 * Schema of `group_day_counts`: a group's completed sessions per UTC day. Group `count` is exact
 * and live (docs/metrics.md): ingestion adds, erasure subtracts; a year is 365 rows, whatever the
 * group's size.
 */
let GroupDayCountEntity = class GroupDayCountEntity {
    groupId;
    day;
    sessions;
};
exports.GroupDayCountEntity = GroupDayCountEntity;
__decorate([
    (0, entity_columns_1.ForeignKey)(() => group_entity_1.GroupEntity, 'bigint', 'group_day_counts_group_fkey', {
        primaryKey: 'group_day_counts_pkey',
    }),
    __metadata("design:type", Number)
], GroupDayCountEntity.prototype, "groupId", void 0);
__decorate([
    (0, typeorm_1.PrimaryColumn)({ type: 'date', primaryKeyConstraintName: 'group_day_counts_pkey' }),
    __metadata("design:type", String)
], GroupDayCountEntity.prototype, "day", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer' }),
    __metadata("design:type", Number)
], GroupDayCountEntity.prototype, "sessions", void 0);
exports.GroupDayCountEntity = GroupDayCountEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'group_day_counts' }),
    (0, typeorm_1.Check)('group_day_counts_sessions', '(sessions >= 1)')
], GroupDayCountEntity);
//# sourceMappingURL=group-day-count.entity.js.map