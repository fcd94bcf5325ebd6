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
exports.AuthFailureLimiter = exports.MAX_BLOCKED_ADDRESSES = void 0;
const common_1 = require("@nestjs/common");
const throttler_1 = require("@nestjs/throttler");
const lru_cache_1 = require("lru-cache");
const config_module_1 = require("../../config/config.module");
const api_error_1 = require("../errors/api-error");
const common_errors_1 = require("../errors/common.errors");
const rate_limit_refusals_1 = require("./rate-limit-refusals");
const too_many_requests_1 = require("./too-many-requests");
/** Addresses remembered as blocked; past this, the least recently seen one is forgotten. */
exports.MAX_BLOCKED_ADDRESSES = 10_000;
/** The throttler name of the failure counters (part of their Redis keys). */
const THROTTLER_NAME = 'auth-failures';
/**
 * Requests that fail authentication, limited per client address (AUTH_FAILURE_LIMIT per minute,
 * docs/api.md): past the limit, an address's failures are answered 429 with Retry-After instead
 * of 401 until its block ends. Only failures are limited: every request is authenticated first, so
 * a valid key or engine token is never refused because of other clients' failures from the same
 * address — behind a proxy, every tenant may share one (docs/security.md).
 *
 * A failure (401 from the API-key or engine-token guard) increments the address's counter in
 * Redis, shared by every API process, through the same fail-open throttler storage as the per-key
 * limit; when the answer says the address is over the limit, this process remembers the block in
 * memory until it ends, and answers its later failures 429 without a Redis round trip. A blocked
 * address's flood of random keys still costs what any wrong key costs (a shape check; for a
 * well-formed key a hash and an indexed lookup whose miss is cached), no more.
 *
 * Bounds: the memory holds at most MAX_BLOCKED_ADDRESSES blocks (least recently seen forgotten
 * first; an entry exists only after AUTH_FAILURE_LIMIT failures). With several API processes,
 * each learns of a block on the next failure it sees itself (Redis then answers "blocked"). When
 * Redis does not answer, nothing is counted and failures stay 401 (fail open).
 */
let AuthFailureLimiter = class AuthFailureLimiter {
    storage;
    refusals;
    limit;
    windowMs;
    /** Blocked address → when its block ends (epoch ms). */
    blockedUntil = new lru_cache_1.LRUCache({ max: exports.MAX_BLOCKED_ADDRESSES });
    constructor(config, storage, refusals) {
        this.storage = storage;
        this.refusals = refusals;
        this.limit = config.addressLimits.authFailures;
        this.windowMs = config.addressLimits.windowMs;
    }
    /**
     * Counts a refused credential from `address` and returns what to answer: 401, or 429 when
     * this failure put the address over the limit (or it already was, as this process remembers or
     * another process saw).
     */
    async refusal(address) {
        const unauthorized = new api_error_1.ApiError(401, common_errors_1.CommonErrors.Unauthorized);
        if (this.limit === 0)
            return unauthorized;
        const until = this.blockedUntil.get(address);
        if (until !== undefined) {
            const remainingMs = until - Date.now();
            if (remainingMs > 0)
                return this.tooMany(remainingMs / 1000);
            this.blockedUntil.delete(address);
        }
        const { isBlocked, timeToBlockExpire } = await this.storage.increment(`auth-failures:${address}`, this.windowMs, this.limit, this.windowMs, THROTTLER_NAME);
        if (!isBlocked || timeToBlockExpire <= 0)
            return unauthorized;
        this.blockedUntil.set(address, Date.now() + timeToBlockExpire * 1000);
        return this.tooMany(timeToBlockExpire);
    }
    tooMany(retryAfterSeconds) {
        this.refusals.refused('auth_failures');
        return (0, too_many_requests_1.tooManyRequests)(retryAfterSeconds);
    }
};
exports.AuthFailureLimiter = AuthFailureLimiter;
exports.AuthFailureLimiter = AuthFailureLimiter = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __param(1, (0, throttler_1.InjectThrottlerStorage)()),
    __metadata("design:paramtypes", [Object, Object, rate_limit_refusals_1.RateLimitRefusals])
], AuthFailureLimiter);
//# sourceMappingURL=auth-failure-limiter.js.map