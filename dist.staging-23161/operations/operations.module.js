"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.OperationsModule = void 0;
const common_1 = require("@nestjs/common");
const process_measurements_1 = require("./process-measurements");
const readiness_1 = require("./readiness");
/**
 * What the operations port serves from the application (docs/operations.md, "Monitoring"): the
 * readiness checks and the process's own figures. The API and the worker import it while their
 * operations port is on; the port itself (OpsServer) is opened by their entry points.
 */
let OperationsModule = class OperationsModule {
};
exports.OperationsModule = OperationsModule;
exports.OperationsModule = OperationsModule = __decorate([
    (0, common_1.Module)({ providers: [readiness_1.Readiness, process_measurements_1.ProcessMeasurements], exports: [readiness_1.Readiness] })
], OperationsModule);
//# sourceMappingURL=operations.module.js.map