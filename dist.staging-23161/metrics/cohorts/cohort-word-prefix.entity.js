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
exports.CohortWordPrefixEntity = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../../database/entity-columns");
const group_entity_1 = require("../../groups/group.entity");
/**
 * Schema of `cohort_word_prefixes` (the second version's, no longer written: docs/metrics.md, "Upgrade"): for each sealed
 * words cell (by its last day), the running count of every word its group's word cells hold up to
 * and including it. The words of the cells between two days are the difference of two days' rows,
 * so a year's cloud reads two sets of rows, not a year of cells. Holds only words the cells hold
 * (said by enough speakers).
 */
let CohortWordPrefixEntity = class CohortWordPrefixEntity {
    groupId;
    lastDay;
    word;
    count;
};
exports.CohortWordPrefixEntity = CohortWordPrefixEntity;
__decorate([
    (0, entity_columns_1.ForeignKey)(() => group_entity_1.GroupEntity, 'bigint', 'cohort_word_prefixes_group_fkey', {
        primaryKey: 'cohort_word_prefixes_pkey',
    }),
    __metadata("design:type", Number)
], CohortWordPrefixEntity.prototype, "groupId", void 0);
__decorate([
    (0, typeorm_1.PrimaryColumn)({
        name: 'last_day',
        type: 'date',
        primaryKeyConstraintName: 'cohort_word_prefixes_pkey',
    }),
    __metadata("design:type", String)
], CohortWordPrefixEntity.prototype, "lastDay", void 0);
__decorate([
    (0, typeorm_1.PrimaryColumn)({ type: 'text', primaryKeyConstraintName: 'cohort_word_prefixes_pkey' }),
    __metadata("design:type", String)
], CohortWordPrefixEntity.prototype, "word", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'bigint' }),
    __metadata("design:type", Number)
], CohortWordPrefixEntity.prototype, "count", void 0);
exports.CohortWordPrefixEntity = CohortWordPrefixEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'cohort_word_prefixes' })
], CohortWordPrefixEntity);
//# sourceMappingURL=cohort-word-prefix.entity.js.map