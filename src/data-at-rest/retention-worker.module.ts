import { Module } from '@nestjs/common';
import { SessionRecordsModule } from '../sessions/session-records.module';
import { MetricRollupsModule } from '../metrics/rollups/metric-rollups.module';
import { EventsModule } from '../webhooks/events/events.module';
import { RetentionSweeper } from './retention.sweeper';
import { SessionRetention } from './session-retention';

/**
 * Data at rest, worker side: the retention sweeps (RetentionSweeper). Imported by the worker process, and by the API process
 * only with RUN_WORKERS=true. It serves no HTTP route and consumes no queue.
 */
@Module({
  imports: [SessionRecordsModule, EventsModule, MetricRollupsModule],
  providers: [SessionRetention, RetentionSweeper],
})
export class RetentionWorkerModule {}
