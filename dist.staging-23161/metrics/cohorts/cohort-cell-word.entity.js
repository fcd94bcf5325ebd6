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
exports.CohortCellWordEntity = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../../database/entity-columns");
const cohort_cell_entity_1 = require("./cohort-cell.entity");
/**
 * Schema of `cohort_cell_words`: the words a cell released (word-release.ts), each with its noisy
 * count of speakers. A word that did not pass the release's threshold is never stored.
 */
let CohortCellWordEntity = class CohortCellWordEntity {
    cellId;
    word;
    count;
};
exports.CohortCellWordEntity = CohortCellWordEntity;
__decorate([
    (0, entity_columns_1.ForeignKey)(() => cohort_cell_entity_1.CohortCellEntity, 'bigint', 'cohort_cell_words_cell_fkey', {
        primaryKey: 'cohort_cell_words_pkey',
    }),
    __metadata("design:type", Number)
], CohortCellWordEntity.prototype, "cellId", void 0);
__decorate([
    (0, typeorm_1.PrimaryColumn)({ type: 'text', primaryKeyConstraintName: 'cohort_cell_words_pkey' }),
    __metadata("design:type", String)
], CohortCellWordEntity.prototype, "word", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'bigint' }),
    __metadata("design:type", Number)
], CohortCellWordEntity.prototype, "count", void 0);
exports.CohortCellWordEntity = CohortCellWordEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'cohort_cell_words' }),
    (0, typeorm_1.Check)('cohort_cell_words_count', '(count >= 1)')
], CohortCellWordEntity);
//# sourceMappingURL=cohort-cell-word.entity.js.map