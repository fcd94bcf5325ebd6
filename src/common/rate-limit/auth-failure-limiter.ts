import { Inject, Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { LRUCache } from 'lru-cache';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { ApiError } from '../errors/api-error';
import { CommonErrors } from '../errors/common.errors';
import { tooManyRequests } from './too-many-requests';

/** Addresses remembered as blocked; past this, the least recently seen one is forgotten. */
export const MAX_BLOCKED_ADDRESSES = 10_000;

/** The throttler name of the failure counters (part of their Redis keys). */
const THROTTLER_NAME = 'auth-failures';

/**
 * Requests that fail authentication, limited per client address (AUTH_FAILURE_LIMIT per minute,
 * docs/api.md): every API request from an address over the limit is answered 429 until its block
 * ends, with a valid key too, and without looking the key up.
 *
 * The two paths cost differently on purpose. A failure (401 from the API-key or engine-token
 * guard) increments the address's counter in Redis, shared by every API process, through the
 * same fail-open throttler storage as the per-key limit; when the answer says the address is
 * over the limit, this process remembers the block in memory until it ends. A request that is
 * about to authenticate only reads that memory: a valid request never pays a Redis round trip
 * for this limit, and a blocked address's flood of random keys costs no hash and no query.
 *
 * Bounds: the memory holds at most MAX_BLOCKED_ADDRESSES blocks (least recently seen forgotten
 * first; an entry exists only after AUTH_FAILURE_LIMIT failures). With several API processes,
 * each learns of a block on the next failure it sees itself (Redis then answers "blocked"): until
 * then it still serves valid keys from that address, and it processes at most one more failure
 * from it. When Redis does not answer, nothing is counted and requests pass (fail open).
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
  ) {
    this.limit = config.addressLimits.authFailures;
    this.windowMs = config.addressLimits.windowMs;
  }

  /** Throws 429 when this process knows `address` is blocked. In memory only. */
  assertNotBlocked(address: string): void {
    if (this.limit === 0) return;
    const until = this.blockedUntil.get(address);
    if (until === undefined) return;
    const remainingMs = until - Date.now();
    if (remainingMs > 0) throw tooManyRequests(remainingMs / 1000);
    this.blockedUntil.delete(address);
  }

  /**
   * Counts a refused credential from `address` and returns what to answer: 401, or 429 when
   * this failure put the address over the limit (or it already was, as another process saw).
   */
  async refusal(address: string): Promise<ApiError> {
    const unauthorized = new ApiError(401, CommonErrors.Unauthorized);
    if (this.limit === 0) return unauthorized;
    const { isBlocked, timeToBlockExpire } = await this.storage.increment(
      `auth-failures:${address}`,
      this.windowMs,
      this.limit,
      this.windowMs,
      THROTTLER_NAME,
    );
    if (!isBlocked || timeToBlockExpire <= 0) return unauthorized;
    this.blockedUntil.set(address, Date.now() + timeToBlockExpire * 1000);
    return tooManyRequests(timeToBlockExpire);
  }
}
