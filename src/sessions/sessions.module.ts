import { Module } from '@nestjs/common';
import { CheckinTokens } from '../checkin/checkin-tokens';
import { IdempotencyRepository } from '../common/idempotency/idempotency.repository';
import { EventsModule } from '../events/events.module';
import { GroupsModule } from '../groups/groups.module';
import { ParticipantsModule } from '../participants/participants.module';
import { SessionsController } from './sessions.controller';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';

@Module({
  imports: [GroupsModule, ParticipantsModule, EventsModule],
  controllers: [SessionsController],
  providers: [SessionsRepository, SessionsService, IdempotencyRepository, CheckinTokens],
  exports: [SessionsRepository, SessionsService, CheckinTokens],
})
export class SessionsModule {}
