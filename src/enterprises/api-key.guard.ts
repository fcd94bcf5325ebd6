import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { API_KEY_HEADER, RequestWithCaller } from '../common/auth/enterprise.decorator';
import { IS_PUBLIC } from '../common/auth/public.decorator';
import { AuthFailureLimiter } from '../common/rate-limit/auth-failure-limiter';
import { clientAddress } from '../common/rate-limit/client-address';
import { ApiKeysService } from './api-keys.service';

/**
 * Global, deny-by-default authentication (registered as APP_GUARD). Guards run before pipes and
 * interceptors, so a missing, unknown or revoked key is answered 401 before any validation.
 * A client address over the authentication failure limit is answered 429 before its key is even
 * looked up (AuthFailureLimiter: an in-memory check, no Redis round trip); every 401 counts.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
    private readonly authFailures: AuthFailureLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;

    const request = context
      .switchToHttp()
      .getRequest<
        RequestWithCaller & { ip: string; headers: Record<string, string | string[] | undefined> }
      >();
    const address = clientAddress(request);
    this.authFailures.assertNotBlocked(address);
    const header = request.headers[API_KEY_HEADER];
    const presented = Array.isArray(header) ? undefined : header;
    const key = await this.apiKeys.authenticate(presented);
    if (!key) throw await this.authFailures.refusal(address);
    request.caller = {
      enterpriseId: key.enterpriseId,
      apiKeyId: key.apiKeyId,
      sandbox: key.sandbox,
    };
    return true;
  }
}
