"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.MetricRollupsModule = void 0;
const common_1 = require("@nestjs/common");
const session_records_module_1 = require("../../sessions/session-records.module");
const metric_rollups_repository_1 = require("./metric-rollups.repository");
const shared_features_1 = require("./shared-features");
/**
 * The feature histograms' owner, for the modules that add to them or take out (ingestion, the
 * participant's choices, erasure, retention, the workers' sweep: SharedFeatures).
 */
let MetricRollupsModule = class MetricRollupsModule {
};
exports.MetricRollupsModule = MetricRollupsModule;
exports.MetricRollupsModule = MetricRollupsModule = __decorate([
    (0, common_1.Module)({
        imports: [session_records_module_1.SessionRecordsModule],
        providers: [metric_rollups_repository_1.MetricRollupsRepository, shared_features_1.SharedFeatures],
        exports: [metric_rollups_repository_1.MetricRollupsRepository, shared_features_1.SharedFeatures],
    })
], MetricRollupsModule);
//# sourceMappingURL=metric-rollups.module.js.map