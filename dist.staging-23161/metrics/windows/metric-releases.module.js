"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.MetricReleasesModule = void 0;
const common_1 = require("@nestjs/common");
const discrete_laplace_1 = require("../releases/discrete-laplace");
const release_randomness_1 = require("../releases/release-randomness");
const cohort_cells_repository_1 = require("../cohorts/cohort-cells.repository");
const metric_windows_repository_1 = require("./metric-windows.repository");
const window_releaser_1 = require("./window-releaser");
/**
 * What feeds group metrics and releases them (docs/metrics.md), for the modules that add a
 * completed session (ingestion), take a participant out of the live counts (erasure), release
 * (the workers' sweep) or release before reading (metrics), and for the operator's CLI.
 */
let MetricReleasesModule = class MetricReleasesModule {
};
exports.MetricReleasesModule = MetricReleasesModule;
exports.MetricReleasesModule = MetricReleasesModule = __decorate([
    (0, common_1.Module)({
        providers: [
            cohort_cells_repository_1.CohortCellsRepository,
            metric_windows_repository_1.MetricWindowsRepository,
            window_releaser_1.WindowReleaser,
            { provide: release_randomness_1.RELEASE_RANDOMNESS, useValue: discrete_laplace_1.cryptoRandom },
        ],
        exports: [cohort_cells_repository_1.CohortCellsRepository, metric_windows_repository_1.MetricWindowsRepository, window_releaser_1.WindowReleaser],
    })
], MetricReleasesModule);
//# sourceMappingURL=metric-releases.module.js.map