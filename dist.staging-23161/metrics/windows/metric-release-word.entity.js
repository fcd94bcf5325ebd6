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
exports.MetricReleaseWordEntity = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../../database/entity-columns");
const metric_release_entity_1 = require("./metric-release.entity");
/**
 * Schema of `metric_release_words`: the words a window's words release let through, each with its
 * noisy count of speakers. A word that did not reach the threshold is never stored.
 */
let MetricReleaseWordEntity = class MetricReleaseWordEntity {
    releaseId;
    word;
    count;
};
exports.MetricReleaseWordEntity = MetricReleaseWordEntity;
__decorate([
    (0, entity_columns_1.ForeignKey)(() => metric_release_entity_1.MetricReleaseEntity, 'bigint', 'metric_release_words_release_fkey', {
        primaryKey: 'metric_release_words_pkey',
    }),
    __metadata("design:type", Number)
], MetricReleaseWordEntity.prototype, "releaseId", void 0);
__decorate([
    (0, typeorm_1.PrimaryColumn)({ type: 'text', primaryKeyConstraintName: 'metric_release_words_pkey' }),
    __metadata("design:type", String)
], MetricReleaseWordEntity.prototype, "word", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'integer' }),
    __metadata("design:type", Number)
], MetricReleaseWordEntity.prototype, "count", void 0);
exports.MetricReleaseWordEntity = MetricReleaseWordEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'metric_release_words' }),
    (0, typeorm_1.Check)('metric_release_words_count', '(count >= 1)')
], MetricReleaseWordEntity);
//# sourceMappingURL=metric-release-word.entity.js.map