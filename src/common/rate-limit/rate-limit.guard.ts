import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { RequestWithCaller } from '../auth/enterprise.decorator';
import { BatchedThrottlerStorage } from './batched-throttler-storage';
import { RateLimitRefusals } from './rate-limit-refusals';
import { tooManyRequests } from './too-many-requests';

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
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly limit: number;
  private readonly windowMs: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly storage: BatchedThrottlerStorage,
    private readonly refusals: RateLimitRefusals,
  ) {
    this.limit = config.rateLimit.requests;
    this.windowMs = config.rateLimit.windowMs;
  }

  canActivate(context: ExecutionContext): boolean {
    if (this.limit === 0) return true;
    const http = context.switchToHttp();
    const caller = http.getRequest<RequestWithCaller>().caller;
    if (!caller) return true;
    const record = this.storage.hit(`api-key:${caller.apiKeyId}`, this.windowMs, this.limit);
    if (record.isBlocked) {
      this.refusals.refused('api_key');
      throw tooManyRequests(record.timeToBlockExpire);
    }
    http
      .getResponse<FastifyReply>()
      .header('X-RateLimit-Limit', this.limit)
      .header('X-RateLimit-Remaining', Math.max(0, this.limit - record.totalHits))
      .header('X-RateLimit-Reset', record.timeToExpire);
    return true;
  }
}
