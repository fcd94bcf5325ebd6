"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.IngestionApiModule = void 0;
const common_1 = require("@nestjs/common");
const rate_limit_module_1 = require("../common/rate-limit/rate-limit.module");
const engine_token_guard_1 = require("./engine-token.guard");
const ingestion_controller_1 = require("./ingestion.controller");
const ingestion_module_1 = require("./ingestion.module");
/**
 * The ingestion endpoint, in the API process only: its controller and the engine-token guard,
 * which counts refused tokens per client address in Redis (RateLimitModule). Kept apart from
 * IngestionModule so that the CLI, which records simulated results, needs no Redis.
 */
let IngestionApiModule = class IngestionApiModule {
};
exports.IngestionApiModule = IngestionApiModule;
exports.IngestionApiModule = IngestionApiModule = __decorate([
    (0, common_1.Module)({
        imports: [ingestion_module_1.IngestionModule, rate_limit_module_1.RateLimitModule],
        controllers: [ingestion_controller_1.IngestionController],
        providers: [engine_token_guard_1.EngineTokenGuard],
    })
], IngestionApiModule);
//# sourceMappingURL=ingestion-api.module.js.map