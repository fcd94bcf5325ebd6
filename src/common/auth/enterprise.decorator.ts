import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** The header carrying the enterprise API key. */
export const API_KEY_HEADER = 'x-api-key';

/** What the API key guard (enterprises/api-key.guard.ts) attaches to an authenticated request. */
export interface AuthenticatedCaller {
  enterpriseId: string;
  apiKeyId: string;
  /**
   * The enterprise is a sandbox (docs/integrating.md); read with the key (and cached with it), so the
   * `/sandbox/*` routes need no query of their own to know.
   */
  sandbox: boolean;
}

export interface RequestWithCaller {
  caller?: AuthenticatedCaller;
}

/**
 * `@EnterpriseId() enterpriseId: string` — the calling enterprise, set by the ApiKeyGuard.
 * Every repository method that reads tenant data takes it as a parameter.
 */
export const EnterpriseId = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const request = ctx.switchToHttp().getRequest<RequestWithCaller>();
  if (!request.caller) throw new Error('EnterpriseId used on a route without ApiKeyGuard');
  return request.caller.enterpriseId;
});
