import type { ExecutionContext } from '@nestjs/common';
import type { AuthenticatedCaller } from '../common/auth/enterprise.decorator';
import { ApiError } from '../common/errors/api-error';
import { CommonErrors } from '../common/errors/common.errors';
import { toErrorResponse } from '../common/http/error-response';
import { SandboxEnterpriseGuard } from './sandbox-enterprise.guard';

const contextFor = (caller?: AuthenticatedCaller): ExecutionContext =>
  ({
    switchToHttp: () => ({ getRequest: () => ({ caller }) }),
  }) as unknown as ExecutionContext;

const caller = (sandbox: boolean): AuthenticatedCaller => ({
  enterpriseId: '00000000-0000-4000-8000-000000000001',
  apiKeyId: '00000000-0000-4000-8000-000000000002',
  sandbox,
});

describe('SandboxEnterpriseGuard', () => {
  const guard = new SandboxEnterpriseGuard();

  it('lets a sandbox enterprise through', () => {
    expect(guard.canActivate(contextFor(caller(true)))).toBe(true);
  });

  it('answers any other caller as an unknown route: 404 {"error":"Not found"}', () => {
    for (const context of [contextFor(caller(false)), contextFor(undefined)]) {
      let thrown: unknown;
      try {
        guard.canActivate(context);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ApiError);
      const response = toErrorResponse(thrown);
      expect({ status: response.status, body: response.body }).toEqual({
        status: 404,
        body: { error: CommonErrors.NotFound },
      });
    }
  });
});
