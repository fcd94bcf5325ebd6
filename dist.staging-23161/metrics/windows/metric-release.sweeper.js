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
var MetricReleaseSweeper_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.MetricReleaseSweeper = exports.SHARED_FEATURES_BATCH = exports.RELEASE_SWEEP_INTERVAL_MS = void 0;
const common_1 = require("@nestjs/common");
const shared_features_1 = require("../rollups/shared-features");
const window_releaser_1 = require("./window-releaser");
/** How often a worker looks for windows to release. A read releases what it needs itself. */
exports.RELEASE_SWEEP_INTERVAL_MS = 5 * 60_000;
/** Sessions per transaction of the shared-features pass. */
exports.SHARED_FEATURES_BATCH = 500;
/**
 * Releases group metrics in every worker (docs/metrics.md, "Release windows"): at start-up and
 * every five minutes, each enterprise with results waiting or a window due. Two workers at once
 * are safe: each enterprise is released under its advisory lock, and the second finds it done.
 * Then it brings the group comparisons in line with the sessions shown at level 5
 * (SharedFeatures), for whatever a transaction skipped.
 */
let MetricReleaseSweeper = MetricReleaseSweeper_1 = class MetricReleaseSweeper {
    releaser;
    sharedFeatures;
    logger = new common_1.Logger(MetricReleaseSweeper_1.name);
    timer = null;
    running = null;
    constructor(releaser, sharedFeatures) {
        this.releaser = releaser;
        this.sharedFeatures = sharedFeatures;
    }
    onApplicationBootstrap() {
        this.timer = setInterval(() => void this.sweep(), exports.RELEASE_SWEEP_INTERVAL_MS);
        void this.sweep();
    }
    async beforeApplicationShutdown() {
        if (this.timer)
            clearInterval(this.timer);
        await this.running?.catch(() => undefined);
    }
    /** One sweep now (or the one in progress); resolves with how many windows it released. */
    sweep() {
        this.running ??= this.releaser
            .releaseDue()
            .then(async (released) => {
            if (released > 0)
                this.logger.log(`Released ${released} metric windows`);
            let reconciled = 0;
            for (let batch = exports.SHARED_FEATURES_BATCH; batch === exports.SHARED_FEATURES_BATCH;) {
                batch = await this.sharedFeatures.reconcileSome(exports.SHARED_FEATURES_BATCH);
                reconciled += batch;
            }
            if (reconciled > 0)
                this.logger.log(`Group comparisons: ${reconciled} sessions reconciled`);
            return released;
        })
            .catch((error) => {
            this.logger.warn(`Metric release failed: ${error.message}`);
            return 0;
        })
            .finally(() => {
            this.running = null;
        });
        return this.running;
    }
};
exports.MetricReleaseSweeper = MetricReleaseSweeper;
exports.MetricReleaseSweeper = MetricReleaseSweeper = MetricReleaseSweeper_1 = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [window_releaser_1.WindowReleaser,
        shared_features_1.SharedFeatures])
], MetricReleaseSweeper);
//# sourceMappingURL=metric-release.sweeper.js.map