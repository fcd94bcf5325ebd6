import { Module } from '@nestjs/common';
import { MetricReleasesModule } from '../metrics/windows/metric-releases.module';
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
    MetricReleasesModule,
    EventsModule,
  ],
  controllers: [ErasureController],
  providers: [ErasureService],
  exports: [ErasureService],
})
export class ErasureModule {}
