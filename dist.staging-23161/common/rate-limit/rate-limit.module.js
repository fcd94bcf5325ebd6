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
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.RateLimitModule = exports.RATE_LIMIT_REDIS = void 0;
const throttler_storage_redis_1 = require("@nest-lab/throttler-storage-redis");
const common_1 = require("@nestjs/common");
const throttler_1 = require("@nestjs/throttler");
const ioredis_1 = __importDefault(require("ioredis"));
const config_module_1 = require("../../config/config.module");
const auth_failure_limiter_1 = require("./auth-failure-limiter");
const batched_throttler_storage_1 = require("./batched-throttler-storage");
const fail_open_storage_1 = require("./fail-open-storage");
const public_rate_limit_guard_1 = require("./public-rate-limit.guard");
const rate_limit_refusals_1 = require("./rate-limit-refusals");
/** The rate limits' Redis client (tests take it away to check that the limits fail open). */
exports.RATE_LIMIT_REDIS = Symbol('RATE_LIMIT_REDIS');
/**
 * The rate limit's Redis connection: keys under `<QUEUE_PREFIX>:rate:`, and commands fail at once
 * (no offline queue, no retries, 500 ms timeout) while Redis is away, so requests never wait on it.
 */
const redisProvider = {
    provide: exports.RATE_LIMIT_REDIS,
    inject: [config_module_1.APP_CONFIG],
    useFactory: (config) => new ioredis_1.default(config.redis.url, {
        keyPrefix: `${config.redis.queuePrefix}:rate:`,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: 500,
        connectionName: 'checkin-rate-limit',
    }),
};
/** Owns the connection: one client, closed when the application shuts down. */
let RateLimitRedisModule = class RateLimitRedisModule {
    redis;
    constructor(redis) {
        this.redis = redis;
    }
    onApplicationShutdown() {
        this.redis.disconnect();
    }
};
RateLimitRedisModule = __decorate([
    (0, common_1.Module)({ providers: [redisProvider], exports: [exports.RATE_LIMIT_REDIS] }),
    __param(0, (0, common_1.Inject)(exports.RATE_LIMIT_REDIS)),
    __metadata("design:paramtypes", [ioredis_1.default])
], RateLimitRedisModule);
/**
 * The per-key limit's storage: counted in process, settled with Redis in batches (docs/performance.md).
 * The limits per address keep the plain storage below: a round trip per request is what an
 * anonymous flood should pay, and their blocks must be seen by every process at once.
 */
const apiKeyStorage = {
    provide: batched_throttler_storage_1.BatchedThrottlerStorage,
    inject: [exports.RATE_LIMIT_REDIS],
    useFactory: (redis) => new batched_throttler_storage_1.BatchedThrottlerStorage((0, batched_throttler_storage_1.redisCounters)(redis)),
};
/** The limit per client address on public routes (PublicRateLimitGuard's own throttler). */
const publicThrottlerOptions = {
    provide: public_rate_limit_guard_1.PUBLIC_THROTTLER_OPTIONS,
    inject: [config_module_1.APP_CONFIG],
    useFactory: (config) => ({
        throttlers: [
            {
                name: public_rate_limit_guard_1.PUBLIC_THROTTLER,
                ttl: config.addressLimits.windowMs,
                limit: config.addressLimits.publicRequests,
            },
        ],
        // Retry-After is sent with the 429 (too-many-requests.ts); no X-RateLimit-* on pages.
        setHeaders: false,
    }),
};
/**
 * Rate limiting, all counters in one Redis, failing open: per API key (docs/api.md; batched, see
 * BatchedThrottlerStorage) and per client address (docs/api.md: public routes, and authentication
 * failures; ThrottlerModule's storage, one round trip per count). The guards are registered in
 * AppModule; the engine-token guard uses the AuthFailureLimiter too.
 */
let RateLimitModule = class RateLimitModule {
};
exports.RateLimitModule = RateLimitModule;
exports.RateLimitModule = RateLimitModule = __decorate([
    (0, common_1.Module)({
        imports: [
            throttler_1.ThrottlerModule.forRootAsync({
                imports: [RateLimitRedisModule],
                // The module provides the storage of the limits per address (one Redis round trip per
                // count); their throttler is PublicRateLimitGuard's own, and the per-key limit is
                // RateLimitGuard over BatchedThrottlerStorage, so no throttler is declared here.
                inject: [exports.RATE_LIMIT_REDIS],
                useFactory: (redis) => ({
                    throttlers: [],
                    storage: new fail_open_storage_1.FailOpenThrottlerStorage(new throttler_storage_redis_1.ThrottlerStorageRedisService(redis)),
                }),
            }),
            RateLimitRedisModule,
        ],
        providers: [apiKeyStorage, publicThrottlerOptions, auth_failure_limiter_1.AuthFailureLimiter, rate_limit_refusals_1.RateLimitRefusals],
        exports: [
            throttler_1.ThrottlerModule,
            batched_throttler_storage_1.BatchedThrottlerStorage,
            public_rate_limit_guard_1.PUBLIC_THROTTLER_OPTIONS,
            auth_failure_limiter_1.AuthFailureLimiter,
            rate_limit_refusals_1.RateLimitRefusals,
        ],
    })
], RateLimitModule);
//# sourceMappingURL=rate-limit.module.js.map