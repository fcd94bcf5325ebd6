"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var AppConfigModule_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.AppConfigModule = exports.APP_CONFIG = void 0;
const common_1 = require("@nestjs/common");
/** Injection token for the typed configuration: `@Inject(APP_CONFIG) config: AppConfig`. */
exports.APP_CONFIG = Symbol('APP_CONFIG');
/**
 * Provides the already-validated configuration to every module. The process entry points
 * (main.ts, worker.ts, cli.ts) load it once from process.env; tests pass their own.
 */
let AppConfigModule = AppConfigModule_1 = class AppConfigModule {
    static register(config) {
        return {
            module: AppConfigModule_1,
            providers: [{ provide: exports.APP_CONFIG, useValue: config }],
            exports: [exports.APP_CONFIG],
        };
    }
};
exports.AppConfigModule = AppConfigModule;
exports.AppConfigModule = AppConfigModule = AppConfigModule_1 = __decorate([
    (0, common_1.Global)(),
    (0, common_1.Module)({})
], AppConfigModule);
//# sourceMappingURL=config.module.js.map