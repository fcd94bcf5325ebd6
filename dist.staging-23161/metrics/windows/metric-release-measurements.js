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
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.MetricReleaseMeasurements = void 0;
const common_1 = require("@nestjs/common");
const measurements_1 = require("../../common/measurements/measurements");
const config_module_1 = require("../../config/config.module");
const metric_windows_repository_1 = require("./metric-windows.repository");
/**
 * `checkin_metric_release_lag_seconds`, exposed by the processes that release (docs/operations.md):
 * how long the oldest window due for release has waited, read when Prometheus scrapes.
 */
let MetricReleaseMeasurements = class MetricReleaseMeasurements {
    constructor(measurements, windows, config) {
        const lag = (0, measurements_1.scrapeReading)(() => windows.releaseLagSeconds(config.metrics.releaseGraceHours));
        measurements.gauge({
            name: 'checkin_metric_release_lag_seconds',
            help: 'How long the oldest release window that is due (its end and grace period passed) has waited for its release (0: releases are up to date).',
            async collect() {
                this.set((await lag()) ?? NaN);
            },
        });
    }
};
exports.MetricReleaseMeasurements = MetricReleaseMeasurements;
exports.MetricReleaseMeasurements = MetricReleaseMeasurements = __decorate([
    (0, common_1.Injectable)(),
    __param(2, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [measurements_1.Measurements,
        metric_windows_repository_1.MetricWindowsRepository, Object])
], MetricReleaseMeasurements);
//# sourceMappingURL=metric-release-measurements.js.map