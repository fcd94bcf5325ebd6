import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { sameSecret, sha256 } from '../../common/crypto/secrets';
import { ApiError } from '../../common/errors/api-error';
import { CommonErrors } from '../../common/errors/common.errors';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';

/**
 * The analysis engine's credential: `Authorization: Bearer <ENGINE_TOKEN>`. Enterprise API keys
 * are not accepted here (the route is outside the ApiKeyGuard), and this token opens nothing else.
 */
@Injectable()
export class EngineTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.expected = sha256(config.engineToken);
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>()
      .headers.authorization;
    const match = typeof header === 'string' ? /^Bearer (\S+)$/.exec(header) : null;
    if (!match || !sameSecret(match[1], this.expected)) {
      throw new ApiError(401, CommonErrors.Unauthorized);
    }
    return true;
  }
}
