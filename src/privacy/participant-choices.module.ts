import { Module } from '@nestjs/common';
import { InteractModule } from '../interact/interact.module';
import { MetricRollupsModule } from '../metrics/rollups/metric-rollups.module';
import { ParticipantsModule } from '../participants/participants.module';
import { SessionRecordsModule } from '../sessions/session-records.module';
import { EventsModule } from '../webhooks/events/events.module';
import { ParticipantChoices } from './participant-choices';

/** The participant's choices (participant-choices.ts), for the pages that offer them. */
@Module({
  imports: [
    ParticipantsModule,
    SessionRecordsModule,
    EventsModule,
    InteractModule,
    MetricRollupsModule,
  ],
  providers: [ParticipantChoices],
  exports: [ParticipantChoices],
})
export class ParticipantChoicesModule {}
