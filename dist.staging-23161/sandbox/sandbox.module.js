"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.SandboxModule = void 0;
const common_1 = require("@nestjs/common");
const ingestion_module_1 = require("../ingestion/ingestion.module");
const sessions_module_1 = require("../sessions/sessions.module");
const sandbox_controller_1 = require("./sandbox.controller");
const sandbox_enterprise_guard_1 = require("./sandbox-enterprise.guard");
const sandbox_repository_1 = require("./sandbox.repository");
const sandbox_service_1 = require("./sandbox.service");
/**
 * Sandbox enterprises (docs/integrating.md): `POST /sandbox/sessions/{sessionID}/complete` and
 * `GET /sandbox/emails`, for sandbox enterprises only (404 for the others). The mails themselves
 * are captured by the email worker (interact/sending/), which knows a sandbox's mails apart.
 */
let SandboxModule = class SandboxModule {
};
exports.SandboxModule = SandboxModule;
exports.SandboxModule = SandboxModule = __decorate([
    (0, common_1.Module)({
        imports: [sessions_module_1.SessionsModule, ingestion_module_1.IngestionModule],
        controllers: [sandbox_controller_1.SandboxController],
        providers: [sandbox_service_1.SandboxService, sandbox_repository_1.SandboxRepository, sandbox_enterprise_guard_1.SandboxEnterpriseGuard],
    })
], SandboxModule);
//# sourceMappingURL=sandbox.module.js.map