import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerModule, type ThrottlerModuleOptions } from '@nestjs/throttler';
import Redis from 'ioredis';
import { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { BatchedThrottlerStorage, redisCounters } from './batched-throttler-storage';
import { FailOpenThrottlerStorage } from './fail-open-storage';
import { PUBLIC_THROTTLER, PUBLIC_THROTTLER_OPTIONS } from './public-rate-limit.guard';
import { RateLimitRefusals } from './rate-limit-refusals';

/** The rate limits' Redis client (tests take it away to check that the limits fail open). */
export const RATE_LIMIT_REDIS = Symbol('RATE_LIMIT_REDIS');

/**
 * The rate limit's Redis connection: keys under `<QUEUE_PREFIX>:rate:`, and commands fail at once
 * (no offline queue, no retries, 500 ms timeout) while Redis is away, so requests never wait on it.
 */
const redisProvider = {
  provide: RATE_LIMIT_REDIS,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) =>
    new Redis(config.redis.url, {
      keyPrefix: `${config.redis.queuePrefix}:rate:`,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 500,
      connectionName: 'checkin-rate-limit',
    }),
};

/** Owns the connection: one client, closed when the application shuts down. */
@Module({ providers: [redisProvider], exports: [RATE_LIMIT_REDIS] })
class RateLimitRedisModule implements OnApplicationShutdown {
  constructor(@Inject(RATE_LIMIT_REDIS) private readonly redis: Redis) {}

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}

/**
 * The per-key limit's storage: counted in process, settled with Redis in batches (docs/performance.md).
 * The limits per address keep the plain storage below: a round trip per request is what an
 * anonymous flood should pay, and their blocks must be seen by every process at once.
 */
const apiKeyStorage = {
  provide: BatchedThrottlerStorage,
  inject: [RATE_LIMIT_REDIS],
  useFactory: (redis: Redis) => new BatchedThrottlerStorage(redisCounters(redis)),
};

/** The limit per client address on public routes (PublicRateLimitGuard's own throttler). */
const publicThrottlerOptions = {
  provide: PUBLIC_THROTTLER_OPTIONS,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig): ThrottlerModuleOptions => ({
    throttlers: [
      {
        name: PUBLIC_THROTTLER,
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
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      imports: [RateLimitRedisModule],
      // The module provides the storage of the limits per address (one Redis round trip per
      // count); their throttler is PublicRateLimitGuard's own, and the per-key limit is
      // RateLimitGuard over BatchedThrottlerStorage, so no throttler is declared here.
      inject: [RATE_LIMIT_REDIS],
      useFactory: (redis: Redis) => ({
        throttlers: [],
        storage: new FailOpenThrottlerStorage(new ThrottlerStorageRedisService(redis)),
      }),
    }),
    RateLimitRedisModule,
  ],
  providers: [apiKeyStorage, publicThrottlerOptions, AuthFailureLimiter, RateLimitRefusals],
  exports: [
    ThrottlerModule,
    BatchedThrottlerStorage,
    PUBLIC_THROTTLER_OPTIONS,
    AuthFailureLimiter,
    RateLimitRefusals,
  ],
})
export class RateLimitModule {}
