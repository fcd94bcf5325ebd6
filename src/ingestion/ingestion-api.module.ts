import { Module } from '@nestjs/common';
import { RateLimitModule } from '../common/rate-limit/rate-limit.module';
import { EngineTokenGuard } from './engine-token.guard';
import { IngestionController } from './ingestion.controller';
import { IngestionModule } from './ingestion.module';

/**
 * The ingestion endpoint, in the API process only: its controller and the engine-token guard,
 * which counts refused tokens per client address in Redis (RateLimitModule). Kept apart from
 * IngestionModule so that the CLI, which records simulated results, needs no Redis.
 */
@Module({
  imports: [IngestionModule, RateLimitModule],
  controllers: [IngestionController],
  providers: [EngineTokenGuard],
})
export class IngestionApiModule {}
