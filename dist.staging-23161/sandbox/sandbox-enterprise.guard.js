"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.SandboxEnterpriseGuard = void 0;
const common_1 = require("@nestjs/common");
const api_error_1 = require("../common/errors/api-error");
const sandbox_errors_1 = require("./sandbox.errors");
/**
 * The `/sandbox/*` routes exist for sandbox enterprises only (docs/integrating.md). For any other
 * enterprise they answer exactly as an unknown route does, `404 {"error":"Not found"}`, before
 * anything else of the request is read. It runs after the global guards: without a valid key the
 * answer is 401, as everywhere; the sandbox flag came with the key (ApiKeyGuard).
 */
let SandboxEnterpriseGuard = class SandboxEnterpriseGuard {
    canActivate(context) {
        const { caller } = context.switchToHttp().getRequest();
        if (!caller?.sandbox)
            throw new api_error_1.ApiError(404, sandbox_errors_1.SandboxErrors.NotASandbox);
        return true;
    }
};
exports.SandboxEnterpriseGuard = SandboxEnterpriseGuard;
exports.SandboxEnterpriseGuard = SandboxEnterpriseGuard = __decorate([
    (0, common_1.Injectable)()
], SandboxEnterpriseGuard);
//# sourceMappingURL=sandbox-enterprise.guard.js.map