import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Database } from '../database/database';
import { Public } from '../common/auth/public.decorator';
import { ApiError } from '../common/errors/api-error';
import { CommonErrors } from '../common/errors/common.errors';
import { ShutdownState } from '../common/lifecycle/shutdown-state';
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
  @ApiOkResponse({
    schema: { type: 'object', properties: { status: { type: 'string', example: 'ok' } } },
  })
  async check(): Promise<{ status: 'ok' }> {
    if (this.shutdown.draining) throw new ApiError(503, CommonErrors.ServiceUnavailable);
    await this.db.rows('SELECT 1');
    return { status: 'ok' };
  }
}
