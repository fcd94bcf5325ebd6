import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Database } from '../database/database';
import { Public } from '../common/auth/public.decorator';

/** Readiness for load balancers and orchestrators: answers 200 only when PostgreSQL answers. */
@ApiTags('Operations')
@Controller('health')
export class HealthController {
  constructor(private readonly db: Database) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'Readiness: 200 when the API can reach PostgreSQL, else 503' })
  @ApiOkResponse({
    schema: { type: 'object', properties: { status: { type: 'string', example: 'ok' } } },
  })
  async check(): Promise<{ status: 'ok' }> {
    await this.db.rows('SELECT 1');
    return { status: 'ok' };
  }
}
