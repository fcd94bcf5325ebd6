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
exports.PublicRateLimitGuard = exports.SkipPublicRateLimit = exports.PUBLIC_THROTTLER_OPTIONS = exports.PUBLIC_THROTTLER = void 0;
const common_1 = require("@nestjs/common");
const core_1 = require("@nestjs/core");
const throttler_1 = require("@nestjs/throttler");
const config_module_1 = require("../../config/config.module");
const public_decorator_1 = require("../auth/public.decorator");
const secrets_1 = require("../crypto/secrets");
const client_address_1 = require("./client-address");
const rate_limit_refusals_1 = require("./rate-limit-refusals");
const too_many_requests_1 = require("./too-many-requests");
/** The throttler name of the per-address counters (part of their Redis keys). */
exports.PUBLIC_THROTTLER = 'public';
/** This guard's throttler options (the per-key guard has ThrottlerModule's own). */
exports.PUBLIC_THROTTLER_OPTIONS = Symbol('PUBLIC_THROTTLER_OPTIONS');
/** Exempts a public route from the limit per client address (health checks). */
const SkipPublicRateLimit = () => (0, throttler_1.SkipThrottle)({ [exports.PUBLIC_THROTTLER]: true });
exports.SkipPublicRateLimit = SkipPublicRateLimit;
/**
 * Unauthenticated traffic limited per client address (docs/api.md), registered as an APP_GUARD:
 * every route reachable without an API key (`@Public()`: the participant pages, unsubscribe, the
 * ingestion endpoint) counts against one budget per address, PUBLIC_RATE_LIMIT_REQUESTS per
 * minute, in Redis shared by every API process and failing open like the per-key limit. Secure
 * by default: a new public route is limited unless it says `@SkipPublicRateLimit()` (/health).
 * It runs before the routes' own guards, so requests with a wrong engine token count too; a
 * request presenting the right one is the analysis engine, authenticated traffic, and is not
 * counted (an engine posting more than the budget from one address must not be refused).
 * Refused: 429 with Retry-After, as JSON on the API and as an HTML page on the pages (the
 * filters render it).
 */
let PublicRateLimitGuard = class PublicRateLimitGuard {
    reflector;
    throttler;
    engineToken;
    disabled;
    constructor(options, storage, reflector, config, refusals) {
        this.reflector = reflector;
        this.throttler = new AddressThrottler(options, storage, reflector, refusals);
        this.engineToken = (0, secrets_1.sha256)(config.engineToken);
        this.disabled = config.addressLimits.publicRequests === 0;
    }
    onModuleInit() {
        return this.throttler.onModuleInit();
    }
    /**
     * Every authenticated API request passes here too: it is let through synchronously, before any
     * of the throttler's per-request work (metadata lookups, awaits), unless the route is public.
     */
    canActivate(context) {
        if (this.disabled)
            return true;
        const isPublic = this.reflector.getAllAndOverride(public_decorator_1.IS_PUBLIC, [
            context.getHandler(),
            context.getClass(),
        ]);
        if (!isPublic)
            return true;
        const request = context.switchToHttp().getRequest();
        if ((0, secrets_1.presentsBearer)(request.headers.authorization, this.engineToken))
            return true;
        return this.throttler.canActivate(context);
    }
};
exports.PublicRateLimitGuard = PublicRateLimitGuard;
exports.PublicRateLimitGuard = PublicRateLimitGuard = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(exports.PUBLIC_THROTTLER_OPTIONS)),
    __param(1, (0, throttler_1.InjectThrottlerStorage)()),
    __param(3, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [Object, Object, core_1.Reflector, Object, rate_limit_refusals_1.RateLimitRefusals])
], PublicRateLimitGuard);
/** @nestjs/throttler's guard, counting per client address with one budget for every route. */
class AddressThrottler extends throttler_1.ThrottlerGuard {
    refusals;
    constructor(options, storage, reflector, refusals) {
        super(options, storage, reflector);
        this.refusals = refusals;
    }
    getTracker(request) {
        return Promise.resolve((0, client_address_1.clientAddress)(request));
    }
    generateKey(_context, tracker) {
        return `address:${tracker}`;
    }
    throwThrottlingException(_context, detail) {
        this.refusals.refused('client_address');
        return Promise.reject((0, too_many_requests_1.tooManyRequests)(detail.timeToBlockExpire));
    }
}
//# sourceMappingURL=public-rate-limit.guard.js.map