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
exports.MetricReleaseEntity = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../../database/entity-columns");
const group_entity_1 = require("../../groups/group.entity");
const metric_window_entity_1 = require("./metric-window.entity");
/**
 * Schema of `metric_releases` (docs/metrics.md, "Release windows"): what a window released for
 * one group and series. `released` false: fewer than k participants entered it, and nothing but
 * their count is stored. The exact aggregate is never stored: scores keep a noisy sum and a
 * noisy histogram (window-release.ts), words their released words (metric_release_words). A row
 * never changes after its window's release, but for `late_results`, the results for the window's
 * days that arrived after it.
 */
let MetricReleaseEntity = class MetricReleaseEntity {
    id;
    windowId;
    groupId;
    series;
    /** Participants whose values entered (exact: who took part is not secret). */
    participants;
    /** Whether it held at least k participants and was released. */
    released;
    /** The group's results of the window in no release: bounded to another group, or over budget. */
    leftOut;
    /** Results for the window's days that arrived after its release (they join no release). */
    lateResults;
    /** What each participant in it spent (zCDP ρ; docs/metrics.md, "The budget"). */
    rho;
    /** Scores: the values summed, in hundredths of MHCI, plus noise. */
    noisySum;
    /** Scores: how many values fall in each bin, each plus noise. */
    noisyBins;
    /** Scores: the variance of the sum's noise (hundredths squared). */
    sumNoiseVariance;
    /** Scores: the variance of one bin's noise. */
    binNoiseVariance;
    /** Words: the noisy count of speakers a word had to reach. */
    wordThreshold;
};
exports.MetricReleaseEntity = MetricReleaseEntity;
__decorate([
    (0, typeorm_1.PrimaryGeneratedColumn)('identity', {
        type: 'bigint',
        generatedIdentity: 'ALWAYS',
        primaryKeyConstraintName: 'metric_releases_pkey',
    }),
    __metadata("design:type", Number)
], MetricReleaseEntity.prototype, "id", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => metric_window_entity_1.MetricWindowEntity, 'bigint', 'metric_releases_window_fkey'),
    __metadata("design:type", Number)
], MetricReleaseEntity.prototype, "windowId", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => group_entity_1.GroupEntity, 'bigint', 'metric_releases_group_fkey'),
    __metadata("design:type", Number)
], MetricReleaseEntity.prototype, "groupId", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text' }),
    __metadata("design:type", String)
], MetricReleaseEntity.prototype, "series", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer' }),
    __metadata("design:type", Number)
], MetricReleaseEntity.prototype, "participants", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'boolean' }),
    __metadata("design:type", Boolean)
], MetricReleaseEntity.prototype, "released", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'left_out', type: 'integer', default: 0 }),
    __metadata("design:type", Number)
], MetricReleaseEntity.prototype, "leftOut", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'late_results', type: 'integer', default: 0 }),
    __metadata("design:type", Number)
], MetricReleaseEntity.prototype, "lateResults", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'double precision', nullable: true }),
    __metadata("design:type", Object)
], MetricReleaseEntity.prototype, "rho", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'noisy_sum', type: 'bigint', nullable: true }),
    __metadata("design:type", Object)
], MetricReleaseEntity.prototype, "noisySum", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'noisy_bins', type: 'integer', array: true, nullable: true }),
    __metadata("design:type", Object)
], MetricReleaseEntity.prototype, "noisyBins", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'sum_noise_variance', type: 'double precision', nullable: true }),
    __metadata("design:type", Object)
], MetricReleaseEntity.prototype, "sumNoiseVariance", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'bin_noise_variance', type: 'double precision', nullable: true }),
    __metadata("design:type", Object)
], MetricReleaseEntity.prototype, "binNoiseVariance", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'word_threshold', type: 'integer', nullable: true }),
    __metadata("design:type", Object)
], MetricReleaseEntity.prototype, "wordThreshold", void 0);
exports.MetricReleaseEntity = MetricReleaseEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'metric_releases' }),
    (0, typeorm_1.Index)('metric_releases_group_series_window_key', ['groupId', 'series', 'windowId'], {
        unique: true,
    }),
    (0, typeorm_1.Check)('metric_releases_series_values', "(series = ANY (ARRAY['scores'::text, 'words'::text]))")
], MetricReleaseEntity);
//# sourceMappingURL=metric-release.entity.js.map