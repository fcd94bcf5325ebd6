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
exports.CohortPendingEntity = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../../database/entity-columns");
const group_entity_1 = require("../../groups/group.entity");
const session_entity_1 = require("../../sessions/session.entity");
/**
 * Schema of `cohort_pending`: completed sessions not yet in a released cell of a series. Added at
 * ingestion, removed when their cell is released; an erased participant's go with their sessions
 * (ON DELETE CASCADE), and with them their share of the unsealed runs.
 */
let CohortPendingEntity = class CohortPendingEntity {
    sessionId;
    series;
    groupId;
};
exports.CohortPendingEntity = CohortPendingEntity;
__decorate([
    (0, entity_columns_1.ForeignKey)(() => session_entity_1.SessionEntity, 'text', 'cohort_pending_session_fkey', {
        primaryKey: 'cohort_pending_pkey',
    }),
    __metadata("design:type", String)
], CohortPendingEntity.prototype, "sessionId", void 0);
__decorate([
    (0, typeorm_1.PrimaryColumn)({ type: 'text', primaryKeyConstraintName: 'cohort_pending_pkey' }),
    __metadata("design:type", String)
], CohortPendingEntity.prototype, "series", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => group_entity_1.GroupEntity, 'bigint', 'cohort_pending_group_fkey'),
    __metadata("design:type", Number)
], CohortPendingEntity.prototype, "groupId", void 0);
exports.CohortPendingEntity = CohortPendingEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'cohort_pending' }),
    (0, typeorm_1.Index)('cohort_pending_group_series_idx', ['groupId', 'series']),
    (0, typeorm_1.Check)('cohort_pending_series_values', "(series = ANY (ARRAY['scores'::text, 'words'::text]))")
], CohortPendingEntity);
//# sourceMappingURL=cohort-pending.entity.js.map