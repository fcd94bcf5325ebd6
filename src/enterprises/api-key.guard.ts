import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { API_KEY_HEADER, RequestWithCaller } from '../common/auth/enterprise.decorator';
import { IS_PUBLIC } from '../common/auth/public.decorator';
import { ApiError } from '../common/errors/api-error';
import { CommonErrors } from '../common/errors/common.errors';
import { ApiKeysService } from './api-keys.service';

/**
 * Global, deny-by-default authentication (registered as APP_GUARD). Guards run before pipes and
 * interceptors, so a missing, unknown or revoked key is answered 401 before any validation.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;

    const request = context
      .switchToHttp()
      .getRequest<RequestWithCaller & { headers: Record<string, string | string[] | undefined> }>();
    const header = request.headers[API_KEY_HEADER];
    const presented = Array.isArray(header) ? undefined : header;
    const key = await this.apiKeys.authenticate(presented);
    if (!key) throw new ApiError(401, CommonErrors.Unauthorized);
    request.caller = { enterpriseId: key.enterpriseId, apiKeyId: key.apiKeyId };
    return true;
  }
}
