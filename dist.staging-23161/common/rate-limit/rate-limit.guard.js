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
exports.RateLimitGuard = void 0;
const common_1 = require("@nestjs/common");
const config_module_1 = require("../../config/config.module");
const batched_throttler_storage_1 = require("./batched-throttler-storage");
const rate_limit_refusals_1 = require("./rate-limit-refusals");
const too_many_requests_1 = require("./too-many-requests");
/**
 * Per-API-key rate limit (docs/api.md), registered as the second APP_GUARD, after the ApiKeyGuard:
 * only authenticated requests count, every route of one key shares one counter, and the counter
 * is shared by every API process through Redis, counted in process and settled in batches
 * (BatchedThrottlerStorage: no Redis round trip per request). Public routes (pages, ingestion,
 * health) are not limited here. Successful answers carry X-RateLimit-Limit/-Remaining/-Reset; a
 * refused one is 429 `{"error":"Too many requests"}` with Retry-After (seconds to the window's
 * end).
 *
 * A plain synchronous guard rather than @nestjs/throttler's ThrottlerGuard (which the limits per
 * address keep): this one runs on every authenticated request, and the generic shell's per-request
 * work (six metadata lookups and five awaits per request) showed in GET /groups' benchmark ratio.
 * No route overrides the per-key limit, so there is nothing to look up.
 */
let RateLimitGuard = class RateLimitGuard {
    storage;
    refusals;
    limit;
    windowMs;
    constructor(config, storage, refusals) {
        this.storage = storage;
        this.refusals = refusals;
        this.limit = config.rateLimit.requests;
        this.windowMs = config.rateLimit.windowMs;
    }
    canActivate(context) {
        if (this.limit === 0)
            return true;
        const http = context.switchToHttp();
        const caller = http.getRequest().caller;
        if (!caller)
            return true;
        const record = this.storage.hit(`api-key:${caller.apiKeyId}`, this.windowMs, this.limit);
        if (record.isBlocked) {
            this.refusals.refused('api_key');
            throw (0, too_many_requests_1.tooManyRequests)(record.timeToBlockExpire);
        }
        http
            .getResponse()
            .header('X-RateLimit-Limit', this.limit)
            .header('X-RateLimit-Remaining', Math.max(0, this.limit - record.totalHits))
            .header('X-RateLimit-Reset', record.timeToExpire);
        return true;
    }
};
exports.RateLimitGuard = RateLimitGuard;
exports.RateLimitGuard = RateLimitGuard = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [Object, batched_throttler_storage_1.BatchedThrottlerStorage,
        rate_limit_refusals_1.RateLimitRefusals])
], RateLimitGuard);
//# sourceMappingURL=rate-limit.guard.js.map