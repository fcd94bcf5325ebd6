import { Module } from '@nestjs/common';
import { EventsModule } from '../webhooks/events/events.module';
import { GroupsModule } from '../groups/groups.module';
import { ParticipantLinksModule } from '../participant-links/participant-links.module';
import { ParticipantsModule } from '../participants/participants.module';
import { SessionRecordsModule } from './session-records.module';
import { SessionsController } from './sessions.controller';
import { SessionsService } from './sessions.service';

@Module({
  imports: [
    GroupsModule,
    ParticipantsModule,
    EventsModule,
    ParticipantLinksModule,
    SessionRecordsModule,
  ],
  controllers: [SessionsController],
  providers: [SessionsService],
  exports: [SessionsService, SessionRecordsModule],
})
export class SessionsModule {}
