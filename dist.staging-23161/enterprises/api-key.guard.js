"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.ApiKeyGuard = void 0;
const common_1 = require("@nestjs/common");
const core_1 = require("@nestjs/core");
const enterprise_decorator_1 = require("../common/auth/enterprise.decorator");
const public_decorator_1 = require("../common/auth/public.decorator");
const auth_failure_limiter_1 = require("../common/rate-limit/auth-failure-limiter");
const client_address_1 = require("../common/rate-limit/client-address");
const api_keys_service_1 = require("./api-keys.service");
/**
 * Global, deny-by-default authentication (registered as APP_GUARD). Guards run before pipes and
 * interceptors, so a missing, unknown or revoked key is answered 401 before any validation.
 * Every refused key counts against its client address; past AUTH_FAILURE_LIMIT the address's
 * failures are answered 429 (AuthFailureLimiter). A valid key is always served: only failures
 * are limited.
 */
let ApiKeyGuard = class ApiKeyGuard {
    reflector;
    apiKeys;
    authFailures;
    constructor(reflector, apiKeys, authFailures) {
        this.reflector = reflector;
        this.apiKeys = apiKeys;
        this.authFailures = authFailures;
    }
    async canActivate(context) {
        const isPublic = this.reflector.getAllAndOverride(public_decorator_1.IS_PUBLIC, [
            context.getHandler(),
            context.getClass(),
        ]);
        if (isPublic)
            return true;
        const request = context
            .switchToHttp()
            .getRequest();
        const header = request.headers[enterprise_decorator_1.API_KEY_HEADER];
        const presented = Array.isArray(header) ? undefined : header;
        const key = await this.apiKeys.authenticate(presented);
        if (!key)
            throw await this.authFailures.refusal((0, client_address_1.clientAddress)(request));
        request.caller = {
            enterpriseId: key.enterpriseId,
            apiKeyId: key.apiKeyId,
            sandbox: key.sandbox,
        };
        return true;
    }
};
exports.ApiKeyGuard = ApiKeyGuard;
exports.ApiKeyGuard = ApiKeyGuard = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [core_1.Reflector,
        api_keys_service_1.ApiKeysService,
        auth_failure_limiter_1.AuthFailureLimiter])
], ApiKeyGuard);
//# sourceMappingURL=api-key.guard.js.map