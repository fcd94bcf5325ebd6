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
exports.MetricBudgetSpendEntity = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../../database/entity-columns");
const participant_entity_1 = require("../../participants/participant.entity");
const metric_window_entity_1 = require("./metric-window.entity");
/**
 * Schema of `metric_budget_spend`, the accountant's ledger (docs/metrics.md, "The budget"): what
 * one participant spent in one window, over all the releases her values entered (zCDP ρ). Her
 * rolling 365 days are the rows whose `last_day` is within them. Goes with her on erasure.
 */
let MetricBudgetSpendEntity = class MetricBudgetSpendEntity {
    participantId;
    windowId;
    lastDay;
    rho;
};
exports.MetricBudgetSpendEntity = MetricBudgetSpendEntity;
__decorate([
    (0, entity_columns_1.ForeignKey)(() => participant_entity_1.ParticipantEntity, 'uuid', 'metric_budget_spend_participant_fkey', {
        primaryKey: 'metric_budget_spend_pkey',
    }),
    __metadata("design:type", String)
], MetricBudgetSpendEntity.prototype, "participantId", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => metric_window_entity_1.MetricWindowEntity, 'bigint', 'metric_budget_spend_window_fkey', {
        primaryKey: 'metric_budget_spend_pkey',
    }),
    __metadata("design:type", Number)
], MetricBudgetSpendEntity.prototype, "windowId", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'last_day', type: 'date' }),
    __metadata("design:type", String)
], MetricBudgetSpendEntity.prototype, "lastDay", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'double precision' }),
    __metadata("design:type", Number)
], MetricBudgetSpendEntity.prototype, "rho", void 0);
exports.MetricBudgetSpendEntity = MetricBudgetSpendEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'metric_budget_spend' })
], MetricBudgetSpendEntity);
//# sourceMappingURL=metric-budget-spend.entity.js.map