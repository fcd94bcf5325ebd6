import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { presentsBearer, sha256 } from '../common/crypto/secrets';
import { AuthFailureLimiter } from '../common/rate-limit/auth-failure-limiter';
import { clientAddress } from '../common/rate-limit/client-address';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';

/**
 * The analysis engine's credential: `Authorization: Bearer <ENGINE_TOKEN>`. Enterprise API keys
 * are not accepted here (the route is outside the ApiKeyGuard), and this token opens nothing else.
 * Like the ApiKeyGuard, it counts every refused token against its client address (429 past the
 * authentication failure limit); the right token is always accepted.
 */
@Injectable()
export class EngineTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly authFailures: AuthFailureLimiter,
  ) {
    this.expected = sha256(config.engineToken);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context
      .switchToHttp()
      .getRequest<{ ip: string; headers: Record<string, unknown> }>();
    if (!presentsBearer(request.headers.authorization, this.expected)) {
      throw await this.authFailures.refusal(clientAddress(request));
    }
    return true;
  }
}
