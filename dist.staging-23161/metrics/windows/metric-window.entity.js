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
exports.MetricWindowEntity = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../../database/entity-columns");
const enterprise_entity_1 = require("../../enterprises/enterprise.entity");
/**
 * Schema of `metric_windows` (docs/metrics.md, "Release windows"): one of an enterprise's calendar
 * release windows, a month or an ISO week, made when the first result for one of its days is
 * swept, with the kind and the yearly budget in force then. Windows of an enterprise never
 * overlap. Released once, for every group of the enterprise together, `METRICS_RELEASE_GRACE_HOURS`
 * after its last day ends: `released_at` is then set and never changes.
 */
let MetricWindowEntity = class MetricWindowEntity {
    id;
    enterpriseId;
    kind;
    firstDay;
    lastDay;
    /** The yearly budget in force when the window was made (docs/metrics.md, "The budget"). */
    epsilonYear;
    releasedAt;
};
exports.MetricWindowEntity = MetricWindowEntity;
__decorate([
    (0, typeorm_1.PrimaryGeneratedColumn)('identity', {
        type: 'bigint',
        generatedIdentity: 'ALWAYS',
        primaryKeyConstraintName: 'metric_windows_pkey',
    }),
    __metadata("design:type", Number)
], MetricWindowEntity.prototype, "id", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => enterprise_entity_1.EnterpriseEntity, 'uuid', 'metric_windows_enterprise_fkey'),
    __metadata("design:type", String)
], MetricWindowEntity.prototype, "enterpriseId", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text' }),
    __metadata("design:type", String)
], MetricWindowEntity.prototype, "kind", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'first_day', type: 'date' }),
    __metadata("design:type", String)
], MetricWindowEntity.prototype, "firstDay", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'last_day', type: 'date' }),
    __metadata("design:type", String)
], MetricWindowEntity.prototype, "lastDay", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'epsilon_year', type: 'numeric', precision: 5, scale: 2 }),
    __metadata("design:type", String)
], MetricWindowEntity.prototype, "epsilonYear", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'released_at', type: 'timestamptz', nullable: true }),
    __metadata("design:type", Object)
], MetricWindowEntity.prototype, "releasedAt", void 0);
exports.MetricWindowEntity = MetricWindowEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'metric_windows' }),
    (0, typeorm_1.Index)('metric_windows_enterprise_first_day_key', ['enterpriseId', 'firstDay'], { unique: true }),
    (0, typeorm_1.Check)('metric_windows_kind_values', "(kind = ANY (ARRAY['month'::text, 'week'::text]))"),
    (0, typeorm_1.Check)('metric_windows_days', '(first_day <= last_day)')
], MetricWindowEntity);
//# sourceMappingURL=metric-window.entity.js.map