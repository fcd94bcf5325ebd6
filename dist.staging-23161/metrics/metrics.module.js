"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.MetricsModule = void 0;
const common_1 = require("@nestjs/common");
const groups_module_1 = require("../groups/groups.module");
const participants_module_1 = require("../participants/participants.module");
const metric_releases_module_1 = require("./windows/metric-releases.module");
const metrics_controller_1 = require("./metrics.controller");
const metrics_repository_1 = require("./metrics.repository");
const metrics_service_1 = require("./metrics.service");
const group_releases_reader_1 = require("./windows/group-releases.reader");
let MetricsModule = class MetricsModule {
};
exports.MetricsModule = MetricsModule;
exports.MetricsModule = MetricsModule = __decorate([
    (0, common_1.Module)({
        imports: [groups_module_1.GroupsModule, participants_module_1.ParticipantsModule, metric_releases_module_1.MetricReleasesModule],
        controllers: [metrics_controller_1.MetricsController],
        providers: [metrics_repository_1.MetricsRepository, metrics_service_1.MetricsService, group_releases_reader_1.GroupReleasesReader],
    })
], MetricsModule);
//# sourceMappingURL=metrics.module.js.map