"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.IngestionModule = void 0;
const common_1 = require("@nestjs/common");
const groups_module_1 = require("../groups/groups.module");
const metric_releases_module_1 = require("../metrics/windows/metric-releases.module");
const metric_rollups_module_1 = require("../metrics/rollups/metric-rollups.module");
const session_records_module_1 = require("../sessions/session-records.module");
const events_module_1 = require("../webhooks/events/events.module");
const ingestion_repository_1 = require("./ingestion.repository");
const ingestion_service_1 = require("./ingestion.service");
/**
 * Recording results: the service the endpoint (IngestionApiModule, API process) and the CLI's
 * `sessions:simulate-result` both use.
 */
let IngestionModule = class IngestionModule {
};
exports.IngestionModule = IngestionModule;
exports.IngestionModule = IngestionModule = __decorate([
    (0, common_1.Module)({
        imports: [
            session_records_module_1.SessionRecordsModule,
            metric_rollups_module_1.MetricRollupsModule,
            metric_releases_module_1.MetricReleasesModule,
            groups_module_1.GroupsModule,
            events_module_1.EventsModule,
        ],
        providers: [ingestion_repository_1.IngestionRepository, ingestion_service_1.IngestionService],
        exports: [ingestion_service_1.IngestionService],
    })
], IngestionModule);
//# sourceMappingURL=ingestion.module.js.map