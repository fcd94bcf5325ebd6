import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Database } from '../database/database';
import { Public } from '../common/auth/public.decorator';
import { ApiError } from '../common/errors/api-error';
import { CommonErrors } from '../common/errors/common.errors';
import { ShutdownState } from '../common/lifecycle/shutdown-state';
import { ApiErrorResponse } from '../common/swagger/api-errors.decorator';
import { SkipPublicRateLimit } from '../common/rate-limit/public-rate-limit.guard';

/**
 * Readiness for load balancers and orchestrators: answers 200 only when PostgreSQL answers and
 * the process is not shutting down. Not limited per address: a load balancer polls it from one.
 */
@ApiTags('Operations')
@Controller('health')
export class HealthController {
  constructor(
    private readonly db: Database,
    private readonly shutdown: ShutdownState,
  ) {}

  @Get()
  @Public()
  @SkipPublicRateLimit()
  @ApiOperation({
    summary: 'Readiness: 200 when the API can reach PostgreSQL and is not draining, else 503',
  })
  // Public: an empty requirement says so (no key, no token), as linters ask of every operation.
  @ApiSecurity({})
  @ApiOkResponse({
    schema: {
      type: 'object',
      required: ['status'],
      properties: { status: { type: 'string', enum: ['ok'] } },
      example: { status: 'ok' },
    },
  })
  @ApiErrorResponse(
    503,
    'PostgreSQL does not answer (then with `Retry-After`, seconds), or the process is draining ' +
      'before it stops.',
    [CommonErrors.ServiceUnavailable],
    {
      headers: {
        'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } },
      },
    },
  )
  async check(): Promise<{ status: 'ok' }> {
    if (this.shutdown.draining) throw new ApiError(503, CommonErrors.ServiceUnavailable);
    await this.db.rows('SELECT 1');
    return { status: 'ok' };
  }
}
