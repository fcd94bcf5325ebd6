import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerModule, type ThrottlerModuleOptions } from '@nestjs/throttler';
import Redis from 'ioredis';
import { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { FailOpenThrottlerStorage } from './fail-open-storage';
import { PUBLIC_THROTTLER, PUBLIC_THROTTLER_OPTIONS } from './public-rate-limit.guard';

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
    skipIf: () => config.addressLimits.publicRequests === 0,
    // Retry-After is sent with the 429 (too-many-requests.ts); no X-RateLimit-* on pages.
    setHeaders: false,
  }),
};

/**
 * Rate limiting, all counters in one Redis through one fail-open storage: per API key (DESIGN §5)
 * and per client address (DESIGN §15: public routes, and authentication failures). The guards
 * are registered in AppModule; the engine-token guard uses the AuthFailureLimiter too.
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      imports: [RateLimitRedisModule],
      inject: [APP_CONFIG, RATE_LIMIT_REDIS],
      useFactory: (config: AppConfig, redis: Redis) => ({
        throttlers: [
          { name: 'default', ttl: config.rateLimit.windowMs, limit: config.rateLimit.requests },
        ],
        skipIf: () => config.rateLimit.requests === 0,
        storage: new FailOpenThrottlerStorage(new ThrottlerStorageRedisService(redis)),
      }),
    }),
  ],
  providers: [publicThrottlerOptions, AuthFailureLimiter],
  exports: [ThrottlerModule, PUBLIC_THROTTLER_OPTIONS, AuthFailureLimiter],
})
export class RateLimitModule {}
