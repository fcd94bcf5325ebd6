import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { RequestWithCaller } from '../common/auth/enterprise.decorator';
import { ApiError } from '../common/errors/api-error';
import { SandboxErrors } from './sandbox.errors';

/**
 * The `/sandbox/*` routes exist for sandbox enterprises only (docs/integrating.md). For any other
 * enterprise they answer exactly as an unknown route does, `404 {"error":"Not found"}`, before
 * anything else of the request is read. It runs after the global guards: without a valid key the
 * answer is 401, as everywhere; the sandbox flag came with the key (ApiKeyGuard).
 */
@Injectable()
export class SandboxEnterpriseGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const { caller } = context.switchToHttp().getRequest<RequestWithCaller>();
    if (!caller?.sandbox) throw new ApiError(404, SandboxErrors.NotASandbox);
    return true;
  }
}
