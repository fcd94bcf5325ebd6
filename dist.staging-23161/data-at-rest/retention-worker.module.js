"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.RetentionWorkerModule = void 0;
const common_1 = require("@nestjs/common");
const session_records_module_1 = require("../sessions/session-records.module");
const metric_rollups_module_1 = require("../metrics/rollups/metric-rollups.module");
const events_module_1 = require("../webhooks/events/events.module");
const retention_sweeper_1 = require("./retention.sweeper");
const session_retention_1 = require("./session-retention");
/**
 * Data at rest, worker side: the retention sweeps (RetentionSweeper). Imported by the worker process, and by the API process
 * only with RUN_WORKERS=true. It serves no HTTP route and consumes no queue.
 */
let RetentionWorkerModule = class RetentionWorkerModule {
};
exports.RetentionWorkerModule = RetentionWorkerModule;
exports.RetentionWorkerModule = RetentionWorkerModule = __decorate([
    (0, common_1.Module)({
        imports: [session_records_module_1.SessionRecordsModule, events_module_1.EventsModule, metric_rollups_module_1.MetricRollupsModule],
        providers: [session_retention_1.SessionRetention, retention_sweeper_1.RetentionSweeper],
    })
], RetentionWorkerModule);
//# sourceMappingURL=retention-worker.module.js.map