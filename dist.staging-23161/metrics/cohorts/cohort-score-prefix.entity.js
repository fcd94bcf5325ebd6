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
exports.CohortScorePrefixEntity = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../../database/entity-columns");
const cohort_cell_entity_1 = require("./cohort-cell.entity");
/**
 * Schema of `cohort_score_prefixes` (the second version's, no longer written: docs/metrics.md, "Upgrade"): for each released
 * scores cell, the running totals of its group's releases up to and including it — cells,
 * participants, noisy sum, noisy bins and the bins' noise variance. Releases never change and are
 * made in order, so the union of the cells between two days is the difference of two rows: an
 * answer over a year reads two rows, whatever the group's size. Sums of releases are releases
 * too (post-processing): no exact aggregate is stored here either.
 */
let CohortScorePrefixEntity = class CohortScorePrefixEntity {
    cellId;
    groupId;
    lastDay;
    cells;
    participants;
    /** Hundredths of MHCI. */
    noisySum;
    /** SCORE_MECHANISM.bins running noisy counts. */
    noisyBins;
    binNoiseVariance;
};
exports.CohortScorePrefixEntity = CohortScorePrefixEntity;
__decorate([
    (0, entity_columns_1.ForeignKey)(() => cohort_cell_entity_1.CohortCellEntity, 'bigint', 'cohort_score_prefixes_cell_fkey', {
        primaryKey: 'cohort_score_prefixes_pkey',
    }),
    __metadata("design:type", Number)
], CohortScorePrefixEntity.prototype, "cellId", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'group_id', type: 'bigint' }),
    __metadata("design:type", Number)
], CohortScorePrefixEntity.prototype, "groupId", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'last_day', type: 'date' }),
    __metadata("design:type", String)
], CohortScorePrefixEntity.prototype, "lastDay", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer' }),
    __metadata("design:type", Number)
], CohortScorePrefixEntity.prototype, "cells", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'bigint' }),
    __metadata("design:type", Number)
], CohortScorePrefixEntity.prototype, "participants", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'noisy_sum', type: 'bigint' }),
    __metadata("design:type", Number)
], CohortScorePrefixEntity.prototype, "noisySum", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'noisy_bins', type: 'integer', array: true }),
    __metadata("design:type", Array)
], CohortScorePrefixEntity.prototype, "noisyBins", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'bin_noise_variance', type: 'double precision' }),
    __metadata("design:type", Number)
], CohortScorePrefixEntity.prototype, "binNoiseVariance", void 0);
exports.CohortScorePrefixEntity = CohortScorePrefixEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'cohort_score_prefixes' }),
    (0, typeorm_1.Index)('cohort_score_prefixes_group_day_key', ['groupId', 'lastDay'], { unique: true })
], CohortScorePrefixEntity);
//# sourceMappingURL=cohort-score-prefix.entity.js.map