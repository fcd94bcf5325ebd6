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
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.EngineTokenGuard = void 0;
const common_1 = require("@nestjs/common");
const secrets_1 = require("../common/crypto/secrets");
const auth_failure_limiter_1 = require("../common/rate-limit/auth-failure-limiter");
const client_address_1 = require("../common/rate-limit/client-address");
const config_module_1 = require("../config/config.module");
/**
 * The analysis engine's credential: `Authorization: Bearer <ENGINE_TOKEN>`. Enterprise API keys
 * are not accepted here (the route is outside the ApiKeyGuard), and this token opens nothing else.
 * Like the ApiKeyGuard, it counts every refused token against its client address (429 past the
 * authentication failure limit); the right token is always accepted.
 */
let EngineTokenGuard = class EngineTokenGuard {
    authFailures;
    expected;
    constructor(config, authFailures) {
        this.authFailures = authFailures;
        this.expected = (0, secrets_1.sha256)(config.engineToken);
    }
    async canActivate(context) {
        const request = context
            .switchToHttp()
            .getRequest();
        if (!(0, secrets_1.presentsBearer)(request.headers.authorization, this.expected)) {
            throw await this.authFailures.refusal((0, client_address_1.clientAddress)(request));
        }
        return true;
    }
};
exports.EngineTokenGuard = EngineTokenGuard;
exports.EngineTokenGuard = EngineTokenGuard = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [Object, auth_failure_limiter_1.AuthFailureLimiter])
], EngineTokenGuard);
//# sourceMappingURL=engine-token.guard.js.map