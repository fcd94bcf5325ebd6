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
exports.CohortCheckEntity = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../../database/entity-columns");
const group_entity_1 = require("../../groups/group.entity");
/**
 * Schema of `cohort_checks` (the second version's, no longer written: docs/metrics.md, "Upgrade"): through which closed day a group's series was last sealed (by the
 * sweep or a request). A request seals only when a day closed since, or when the check went
 * `stale` (a result recorded for a day already looked at, a new floor or ε), so a group whose
 * run never reaches the floor is looked at once a day, not on every read.
 */
let CohortCheckEntity = class CohortCheckEntity {
    groupId;
    series;
    checkedThrough;
    /** Something changed for days already looked at: look again at the next sweep or read. */
    stale;
};
exports.CohortCheckEntity = CohortCheckEntity;
__decorate([
    (0, entity_columns_1.ForeignKey)(() => group_entity_1.GroupEntity, 'bigint', 'cohort_checks_group_fkey', {
        primaryKey: 'cohort_checks_pkey',
    }),
    __metadata("design:type", Number)
], CohortCheckEntity.prototype, "groupId", void 0);
__decorate([
    (0, typeorm_1.PrimaryColumn)({ type: 'text', primaryKeyConstraintName: 'cohort_checks_pkey' }),
    __metadata("design:type", String)
], CohortCheckEntity.prototype, "series", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'checked_through', type: 'date' }),
    __metadata("design:type", String)
], CohortCheckEntity.prototype, "checkedThrough", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'boolean', default: false }),
    __metadata("design:type", Boolean)
], CohortCheckEntity.prototype, "stale", void 0);
exports.CohortCheckEntity = CohortCheckEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'cohort_checks' })
], CohortCheckEntity);
//# sourceMappingURL=cohort-check.entity.js.map