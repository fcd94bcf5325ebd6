import { Module } from '@nestjs/common';
import { EventsModule } from '../webhooks/events/events.module';
import { GroupsModule } from '../groups/groups.module';
import { ParticipantLinksModule } from '../participant-links/participant-links.module';
import { ParticipantsModule } from '../participants/participants.module';
import { IdempotencyRepository } from './idempotency.repository';
import { SessionsController } from './sessions.controller';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';

@Module({
  imports: [GroupsModule, ParticipantsModule, EventsModule, ParticipantLinksModule],
  controllers: [SessionsController],
  providers: [SessionsRepository, SessionsService, IdempotencyRepository],
  exports: [SessionsService, SessionsRepository],
})
export class SessionsModule {}
