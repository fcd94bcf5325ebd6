"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.ErasureModule = void 0;
const common_1 = require("@nestjs/common");
const metric_releases_module_1 = require("../metrics/windows/metric-releases.module");
const metric_rollups_module_1 = require("../metrics/rollups/metric-rollups.module");
const participants_module_1 = require("../participants/participants.module");
const session_records_module_1 = require("../sessions/session-records.module");
const events_module_1 = require("../webhooks/events/events.module");
const erasure_controller_1 = require("./erasure.controller");
const erasure_service_1 = require("./erasure.service");
/**
 * Erasure of a participant (docs/privacy.md): `DELETE /participants/{externalID}` for the enterprise,
 * the settings page's "Delete my data" for the participant, `participants:erase` for the operator.
 */
let ErasureModule = class ErasureModule {
};
exports.ErasureModule = ErasureModule;
exports.ErasureModule = ErasureModule = __decorate([
    (0, common_1.Module)({
        imports: [
            participants_module_1.ParticipantsModule,
            session_records_module_1.SessionRecordsModule,
            metric_rollups_module_1.MetricRollupsModule,
            metric_releases_module_1.MetricReleasesModule,
            events_module_1.EventsModule,
        ],
        controllers: [erasure_controller_1.ErasureController],
        providers: [erasure_service_1.ErasureService],
        exports: [erasure_service_1.ErasureService],
    })
], ErasureModule);
//# sourceMappingURL=erasure.module.js.map