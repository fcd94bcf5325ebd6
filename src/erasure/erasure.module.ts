import { Module } from '@nestjs/common';
import { CohortCellsModule } from '../metrics/cohorts/cohort-cells.module';
import { MetricRollupsModule } from '../metrics/rollups/metric-rollups.module';
import { ParticipantsModule } from '../participants/participants.module';
import { SessionRecordsModule } from '../sessions/session-records.module';
import { EventsModule } from '../webhooks/events/events.module';
import { ErasureController } from './erasure.controller';
import { ErasureService } from './erasure.service';

/**
 * Erasure of a participant (docs/privacy.md): `DELETE /participants/{externalID}` for the enterprise,
 * the settings page's "Delete my data" for the participant, `participants:erase` for the operator.
 */
@Module({
  imports: [
    ParticipantsModule,
    SessionRecordsModule,
    MetricRollupsModule,
    CohortCellsModule,
    EventsModule,
  ],
  controllers: [ErasureController],
  providers: [ErasureService],
  exports: [ErasureService],
})
export class ErasureModule {}
