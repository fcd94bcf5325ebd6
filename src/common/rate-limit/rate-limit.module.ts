import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import Redis from 'ioredis';
import { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { FailOpenThrottlerStorage } from './fail-open-storage';

const RATE_LIMIT_REDIS = Symbol('RATE_LIMIT_REDIS');

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

/** Per-API-key rate limiting (DESIGN §5); the guard is registered in AppModule. */
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
  exports: [ThrottlerModule],
})
export class RateLimitModule {}
