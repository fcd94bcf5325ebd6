import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { RequestWithCaller } from '../auth/enterprise.decorator';
import { ApiError } from '../errors/api-error';
import { CommonErrors } from '../errors/common.errors';

/**
 * Per-API-key rate limit (DESIGN §5), registered as the second APP_GUARD, after the ApiKeyGuard:
 * only authenticated requests count, every route of one key shares one counter, and the counter
 * lives in Redis so every API process shares it. Public routes (pages, ingestion, health) are not
 * limited here. Successful answers carry X-RateLimit-Limit/-Remaining/-Reset; a refused one is
 * 429 `{"error":"Too many requests"}` with Retry-After (seconds).
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
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
