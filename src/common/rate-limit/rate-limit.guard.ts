import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
} from '@nestjs/throttler';
import { RequestWithCaller } from '../auth/enterprise.decorator';
import { ApiError } from '../errors/api-error';
import { CommonErrors } from '../errors/common.errors';
import { BatchedThrottlerStorage } from './batched-throttler-storage';

/**
 * Per-API-key rate limit (DESIGN §5), registered as the second APP_GUARD, after the ApiKeyGuard:
 * only authenticated requests count, every route of one key shares one counter, and the counter
 * is shared by every API process through Redis, counted in process and settled in batches
 * (BatchedThrottlerStorage: no Redis round trip per request). Public routes (pages, ingestion,
 * health) are not limited here. Successful answers carry X-RateLimit-Limit/-Remaining/-Reset; a
 * refused one is 429 `{"error":"Too many requests"}` with Retry-After (seconds to the window's
 * end). @nestjs/throttler stays the shell (options, skip, headers); only the storage differs from
 * the limits per address.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    // Explicit: an undecorated parameter would inherit ThrottlerGuard's @InjectThrottlerStorage().
    @Inject(BatchedThrottlerStorage) storage: BatchedThrottlerStorage,
    reflector: Reflector,
  ) {
    super(options, storage, reflector);
  }

  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    return Promise.resolve(!context.switchToHttp().getRequest<RequestWithCaller>().caller);
  }

  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    return Promise.resolve((request as RequestWithCaller).caller!.apiKeyId);
  }

  protected override generateKey(_context: ExecutionContext, tracker: string): string {
    return `api-key:${tracker}`;
  }

  protected override throwThrottlingException(): Promise<void> {
    return Promise.reject(new ApiError(429, CommonErrors.TooManyRequests));
  }
}
