import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerStorage,
  SkipThrottle,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
  ThrottlerGuard,
} from '@nestjs/throttler';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { IS_PUBLIC } from '../auth/public.decorator';
import { presentsBearer, sha256 } from '../crypto/secrets';
import { clientAddress } from './client-address';
import { tooManyRequests } from './too-many-requests';

/** The throttler name of the per-address counters (part of their Redis keys). */
export const PUBLIC_THROTTLER = 'public';

/** This guard's throttler options (the per-key guard has ThrottlerModule's own). */
export const PUBLIC_THROTTLER_OPTIONS = Symbol('PUBLIC_THROTTLER_OPTIONS');

/** Exempts a public route from the limit per client address (health checks). */
export const SkipPublicRateLimit = (): MethodDecorator & ClassDecorator =>
  SkipThrottle({ [PUBLIC_THROTTLER]: true });

/**
 * Unauthenticated traffic limited per client address (DESIGN §15), registered as an APP_GUARD:
 * every route reachable without an API key (`@Public()`: the participant pages, unsubscribe, the
 * ingestion endpoint) counts against one budget per address, PUBLIC_RATE_LIMIT_REQUESTS per
 * minute, in Redis shared by every API process and failing open like the per-key limit. Secure
 * by default: a new public route is limited unless it says `@SkipPublicRateLimit()` (/health).
 * It runs before the routes' own guards, so requests with a wrong engine token count too; a
 * request presenting the right one is the analysis engine, authenticated traffic, and is not
 * counted (an engine posting more than the budget from one address must not be refused).
 * Refused: 429 with Retry-After, as JSON on the API and as an HTML page on the pages (the
 * filters render it).
 */
@Injectable()
export class PublicRateLimitGuard extends ThrottlerGuard {
  private readonly engineToken: Buffer;

  constructor(
    @Inject(PUBLIC_THROTTLER_OPTIONS) options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super(options, storage, reflector);
    this.engineToken = sha256(config.engineToken);
  }

  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!isPublic) return Promise.resolve(true);
    const request = context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>();
    return Promise.resolve(presentsBearer(request.headers.authorization, this.engineToken));
  }

  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    return Promise.resolve(clientAddress(request as { ip?: string }));
  }

  /** One budget per address, whichever public route it calls. */
  protected override generateKey(_context: ExecutionContext, tracker: string): string {
    return `address:${tracker}`;
  }

  protected override throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    return Promise.reject(tooManyRequests(detail.timeToBlockExpire));
  }
}
