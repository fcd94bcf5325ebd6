"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var CliModule_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.CliModule = void 0;
const common_1 = require("@nestjs/common");
const core_module_1 = require("../core.module");
const enterprises_module_1 = require("../enterprises/enterprises.module");
const enterprise_commands_1 = require("./enterprise.commands");
const demo_commands_1 = require("./demo.commands");
const data_commands_1 = require("./data.commands");
const data_keys_module_1 = require("../data-at-rest/data-keys.module");
const groups_module_1 = require("../groups/groups.module");
const sessions_module_1 = require("../sessions/sessions.module");
const ingestion_module_1 = require("../ingestion/ingestion.module");
const erasure_module_1 = require("../erasure/erasure.module");
const participant_commands_1 = require("./participant.commands");
const metric_releases_module_1 = require("../metrics/windows/metric-releases.module");
/** The operator CLI: the same services as the API, without HTTP. */
let CliModule = CliModule_1 = class CliModule {
    static register(config) {
        return {
            module: CliModule_1,
            imports: [
                core_module_1.CoreModule.register(config, { logs: false, poolSize: 2 }),
                enterprises_module_1.EnterprisesModule,
                groups_module_1.GroupsModule,
                sessions_module_1.SessionsModule,
                ingestion_module_1.IngestionModule,
                erasure_module_1.ErasureModule,
                data_keys_module_1.DataKeysModule,
                metric_releases_module_1.MetricReleasesModule,
            ],
            providers: [
                ...enterprise_commands_1.ENTERPRISE_COMMANDS,
                ...demo_commands_1.DEMO_COMMANDS,
                ...participant_commands_1.PARTICIPANT_COMMANDS,
                ...data_commands_1.DATA_COMMANDS,
            ],
        };
    }
};
exports.CliModule = CliModule;
exports.CliModule = CliModule = CliModule_1 = __decorate([
    (0, common_1.Module)({})
], CliModule);
//# sourceMappingURL=cli.module.js.map