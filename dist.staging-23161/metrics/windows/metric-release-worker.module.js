"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.MetricReleaseWorkerModule = void 0;
const common_1 = require("@nestjs/common");
const metric_releases_module_1 = require("./metric-releases.module");
const metric_rollups_module_1 = require("../rollups/metric-rollups.module");
const metric_release_measurements_1 = require("./metric-release-measurements");
const metric_release_sweeper_1 = require("./metric-release.sweeper");
/**
 * Group metrics, worker side: the sweep that releases due windows, and its lag (a figure on the
 * operations port). Imported by the worker process, and by the API process only with
 * RUN_WORKERS=true. No HTTP route, no queue.
 */
let MetricReleaseWorkerModule = class MetricReleaseWorkerModule {
};
exports.MetricReleaseWorkerModule = MetricReleaseWorkerModule;
exports.MetricReleaseWorkerModule = MetricReleaseWorkerModule = __decorate([
    (0, common_1.Module)({
        imports: [metric_releases_module_1.MetricReleasesModule, metric_rollups_module_1.MetricRollupsModule],
        providers: [metric_release_sweeper_1.MetricReleaseSweeper, metric_release_measurements_1.MetricReleaseMeasurements],
    })
], MetricReleaseWorkerModule);
//# sourceMappingURL=metric-release-worker.module.js.map