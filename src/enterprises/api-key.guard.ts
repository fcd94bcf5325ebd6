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
 * Every refused key counts against its client address; past AUTH_FAILURE_LIMIT the address's
 * failures are answered 429 (AuthFailureLimiter). A valid key is always served: only failures
 * are limited.
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
    const header = request.headers[API_KEY_HEADER];
    const presented = Array.isArray(header) ? undefined : header;
    const key = await this.apiKeys.authenticate(presented);
    if (!key) throw await this.authFailures.refusal(clientAddress(request));
    request.caller = {
      enterpriseId: key.enterpriseId,
      apiKeyId: key.apiKeyId,
      sandbox: key.sandbox,
    };
    return true;
  }
}
