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
exports.CohortCellEntity = exports.COHORT_SERIES = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../../database/entity-columns");
const group_entity_1 = require("../../groups/group.entity");
/** The two series of a group's metrics, each with cells of its own (docs/metrics.md). */
exports.COHORT_SERIES = ['scores', 'words'];
/**
 * Schema of `cohort_cells`, the second version's (docs/metrics.md, "Upgrade"; read only now): a run of consecutive UTC days of
 * one group's completed sessions, sealed once its sessions came from at least `floor` participants
 * the enterprise cannot see, and released then with differential privacy at `epsilon`: the exact
 * count of participants and, for scores, a noisy sum and a noisy histogram (words: the released
 * words, cohort_cell_words). A released cell never changes (not with later results, level changes,
 * erasure, retention, a new floor or ε); group `mhci` and `wordcloud` read nothing else. A cell
 * belongs to its last day; a group's cells of one series are ordered by it, one per day at most.
 */
let CohortCellEntity = class CohortCellEntity {
    id;
    groupId;
    series;
    firstDay;
    lastDay;
    /** Every completed session blended in, visible and hidden. */
    sessions;
    /** The participants whose level hid them from the enterprise when the cell sealed. */
    hiddenParticipants;
    /** The enterprise's floor the cell sealed under (minCohortScores or minCohortWords). */
    floor;
    /** Participants who gave the series a value (released exactly: who took part is not secret). */
    participants;
    /** The ε the cell was released at (docs/metrics.md). */
    epsilon;
    /** Scores: the participants' values summed, in hundredths of MHCI, plus noise. */
    noisySum;
    /** Scores: how many values fall in each bin (score-release.ts), each plus noise. */
    noisyBins;
    /** Scores: the variance of one bin's noise. */
    binNoiseVariance;
    sealedAt;
};
exports.CohortCellEntity = CohortCellEntity;
__decorate([
    (0, typeorm_1.PrimaryGeneratedColumn)('identity', {
        type: 'bigint',
        generatedIdentity: 'ALWAYS',
        primaryKeyConstraintName: 'cohort_cells_pkey',
    }),
    __metadata("design:type", Number)
], CohortCellEntity.prototype, "id", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => group_entity_1.GroupEntity, 'bigint', 'cohort_cells_group_fkey'),
    __metadata("design:type", Number)
], CohortCellEntity.prototype, "groupId", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text' }),
    __metadata("design:type", String)
], CohortCellEntity.prototype, "series", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'first_day', type: 'date' }),
    __metadata("design:type", String)
], CohortCellEntity.prototype, "firstDay", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'last_day', type: 'date' }),
    __metadata("design:type", String)
], CohortCellEntity.prototype, "lastDay", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer' }),
    __metadata("design:type", Number)
], CohortCellEntity.prototype, "sessions", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'hidden_participants', type: 'integer' }),
    __metadata("design:type", Number)
], CohortCellEntity.prototype, "hiddenParticipants", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'smallint' }),
    __metadata("design:type", Number)
], CohortCellEntity.prototype, "floor", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer' }),
    __metadata("design:type", Number)
], CohortCellEntity.prototype, "participants", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'numeric', precision: 4, scale: 2 }),
    __metadata("design:type", String)
], CohortCellEntity.prototype, "epsilon", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'noisy_sum', type: 'bigint', nullable: true }),
    __metadata("design:type", Object)
], CohortCellEntity.prototype, "noisySum", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'noisy_bins', type: 'integer', array: true, nullable: true }),
    __metadata("design:type", Object)
], CohortCellEntity.prototype, "noisyBins", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'bin_noise_variance', type: 'double precision', nullable: true }),
    __metadata("design:type", Object)
], CohortCellEntity.prototype, "binNoiseVariance", void 0);
__decorate([
    (0, typeorm_1.CreateDateColumn)({ name: 'sealed_at', type: 'timestamptz' }),
    __metadata("design:type", Date)
], CohortCellEntity.prototype, "sealedAt", void 0);
exports.CohortCellEntity = CohortCellEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'cohort_cells' }),
    (0, typeorm_1.Index)('cohort_cells_group_series_last_day_key', ['groupId', 'series', 'lastDay'], { unique: true }),
    (0, typeorm_1.Check)('cohort_cells_series_values', "(series = ANY (ARRAY['scores'::text, 'words'::text]))"),
    (0, typeorm_1.Check)('cohort_cells_consistency', '((first_day <= last_day) AND (sessions >= hidden_participants) AND (hidden_participants >= floor))')
], CohortCellEntity);
//# sourceMappingURL=cohort-cell.entity.js.map