"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var CoreModule_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.CoreModule = void 0;
const common_1 = require("@nestjs/common");
const nestjs_pino_1 = require("nestjs-pino");
const crypto_module_1 = require("./common/crypto/crypto.module");
const measurements_1 = require("./common/measurements/measurements");
const tracing_shutdown_1 = require("./common/telemetry/tracing-shutdown");
const logger_options_1 = require("./common/logging/logger-options");
const config_module_1 = require("./config/config.module");
const database_module_1 = require("./database/database.module");
/**
 * What every process (API, worker, CLI) is built on, each piece global: the validated
 * configuration, PostgreSQL, the PII cipher, the registry of measurements (docs/operations.md)
 * and, except for the CLI, structured logs; and the last spans sent at shutdown when tracing is
 * on (docs/operations.md, "Traces").
 */
let CoreModule = CoreModule_1 = class CoreModule {
    static register(config, options = {}) {
        return {
            module: CoreModule_1,
            imports: [
                config_module_1.AppConfigModule.register(config),
                ...(options.logs === false ? [] : [nestjs_pino_1.LoggerModule.forRoot((0, logger_options_1.buildLoggerOptions)(config))]),
                database_module_1.DatabaseModule.forRoot(config, { poolSize: options.poolSize }),
                crypto_module_1.CryptoModule,
                measurements_1.MeasurementsModule,
            ],
            providers: [tracing_shutdown_1.TracingShutdown],
        };
    }
};
exports.CoreModule = CoreModule;
exports.CoreModule = CoreModule = CoreModule_1 = __decorate([
    (0, common_1.Module)({})
], CoreModule);
//# sourceMappingURL=core.module.js.map