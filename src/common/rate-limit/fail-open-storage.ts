import { Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';

type StorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

const WARN_INTERVAL_MS = 10_000;

/**
 * Wraps the Redis throttler storage so that a Redis outage lets requests through instead of
 * failing them: the rate limit protects the service, it must not take it down. The outage is
 * logged at most every 10 s.
 */
export class FailOpenThrottlerStorage implements ThrottlerStorage {
  private readonly logger = new Logger('RateLimit');
  private lastWarning = 0;

  constructor(private readonly inner: ThrottlerStorage) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<StorageRecord> {
    try {
      return await this.inner.increment(key, ttl, limit, blockDuration, throttlerName);
    } catch (error) {
      const now = Date.now();
      if (now - this.lastWarning >= WARN_INTERVAL_MS) {
        this.lastWarning = now;
        this.logger.warn(
          `Rate limit not enforced: Redis did not answer (${(error as Error).message})`,
        );
      }
      return { totalHits: 0, timeToExpire: 0, isBlocked: false, timeToBlockExpire: 0 };
    }
  }
}
