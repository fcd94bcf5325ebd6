import { Module } from '@nestjs/common';
import { GroupsModule } from '../groups/groups.module';
import { MetricReleasesModule } from '../metrics/windows/metric-releases.module';
import { MetricRollupsModule } from '../metrics/rollups/metric-rollups.module';
import { SessionRecordsModule } from '../sessions/session-records.module';
import { EventsModule } from '../webhooks/events/events.module';
import { IngestionRepository } from './ingestion.repository';
import { IngestionService } from './ingestion.service';

/**
 * Recording results: the service the endpoint (IngestionApiModule, API process) and the CLI's
 * `sessions:simulate-result` both use.
 */
@Module({
  imports: [
    SessionRecordsModule,
    MetricRollupsModule,
    MetricReleasesModule,
    GroupsModule,
    EventsModule,
  ],
  providers: [IngestionRepository, IngestionService],
  exports: [IngestionService],
})
export class IngestionModule {}
