import { CanActivate, ExecutionContext, Inject, Injectable, OnModuleInit } from '@nestjs/common';
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
import { RateLimitRefusals } from './rate-limit-refusals';
import { tooManyRequests } from './too-many-requests';

/** The throttler name of the per-address counters (part of their Redis keys). */
export const PUBLIC_THROTTLER = 'public';

/** This guard's throttler options (the per-key guard has ThrottlerModule's own). */
export const PUBLIC_THROTTLER_OPTIONS = Symbol('PUBLIC_THROTTLER_OPTIONS');

/** Exempts a public route from the limit per client address (health checks). */
export const SkipPublicRateLimit = (): MethodDecorator & ClassDecorator =>
  SkipThrottle({ [PUBLIC_THROTTLER]: true });

/**
 * Unauthenticated traffic limited per client address (docs/api.md), registered as an APP_GUARD:
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
export class PublicRateLimitGuard implements CanActivate, OnModuleInit {
  private readonly throttler: AddressThrottler;
  private readonly engineToken: Buffer;
  private readonly disabled: boolean;

  constructor(
    @Inject(PUBLIC_THROTTLER_OPTIONS) options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) config: AppConfig,
    refusals: RateLimitRefusals,
  ) {
    this.throttler = new AddressThrottler(options, storage, reflector, refusals);
    this.engineToken = sha256(config.engineToken);
    this.disabled = config.addressLimits.publicRequests === 0;
  }

  onModuleInit(): Promise<void> {
    return this.throttler.onModuleInit();
  }

  /**
   * Every authenticated API request passes here too: it is let through synchronously, before any
   * of the throttler's per-request work (metadata lookups, awaits), unless the route is public.
   */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (this.disabled) return true;
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!isPublic) return true;
    const request = context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>();
    if (presentsBearer(request.headers.authorization, this.engineToken)) return true;
    return this.throttler.canActivate(context);
  }
}

/** @nestjs/throttler's guard, counting per client address with one budget for every route. */
class AddressThrottler extends ThrottlerGuard {
  constructor(
    options: ThrottlerModuleOptions,
    storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly refusals: RateLimitRefusals,
  ) {
    super(options, storage, reflector);
  }

  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    return Promise.resolve(clientAddress(request as { ip?: string }));
  }

  protected override generateKey(_context: ExecutionContext, tracker: string): string {
    return `address:${tracker}`;
  }

  protected override throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    this.refusals.refused('client_address');
    return Promise.reject(tooManyRequests(detail.timeToBlockExpire));
  }
}
