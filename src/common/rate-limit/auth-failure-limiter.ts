import { Inject, Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { LRUCache } from 'lru-cache';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { ApiError } from '../errors/api-error';
import { CommonErrors } from '../errors/common.errors';
import { RateLimitRefusals } from './rate-limit-refusals';
import { tooManyRequests } from './too-many-requests';

/** Addresses remembered as blocked; past this, the least recently seen one is forgotten. */
export const MAX_BLOCKED_ADDRESSES = 10_000;

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
@Injectable()
export class AuthFailureLimiter {
  private readonly limit: number;
  private readonly windowMs: number;
  /** Blocked address → when its block ends (epoch ms). */
  private readonly blockedUntil = new LRUCache<string, number>({ max: MAX_BLOCKED_ADDRESSES });

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly refusals: RateLimitRefusals,
  ) {
    this.limit = config.addressLimits.authFailures;
    this.windowMs = config.addressLimits.windowMs;
  }

  /**
   * Counts a refused credential from `address` and returns what to answer: 401, or 429 when
   * this failure put the address over the limit (or it already was, as this process remembers or
   * another process saw).
   */
  async refusal(address: string): Promise<ApiError> {
    const unauthorized = new ApiError(401, CommonErrors.Unauthorized);
    if (this.limit === 0) return unauthorized;
    const until = this.blockedUntil.get(address);
    if (until !== undefined) {
      const remainingMs = until - Date.now();
      if (remainingMs > 0) return this.tooMany(remainingMs / 1000);
      this.blockedUntil.delete(address);
    }
    const { isBlocked, timeToBlockExpire } = await this.storage.increment(
      `auth-failures:${address}`,
      this.windowMs,
      this.limit,
      this.windowMs,
      THROTTLER_NAME,
    );
    if (!isBlocked || timeToBlockExpire <= 0) return unauthorized;
    this.blockedUntil.set(address, Date.now() + timeToBlockExpire * 1000);
    return this.tooMany(timeToBlockExpire);
  }

  private tooMany(retryAfterSeconds: number): ApiError {
    this.refusals.refused('auth_failures');
    return tooManyRequests(retryAfterSeconds);
  }
}
