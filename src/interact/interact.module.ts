import { Module } from '@nestjs/common';
import { GroupsModule } from '../groups/groups.module';
import { ParticipantLinksModule } from '../participant-links/participant-links.module';
import { ParticipantsModule } from '../participants/participants.module';
import { InteractController } from './interact.controller';
import { InteractRepository } from './interact.repository';
import { InteractService } from './interact.service';
import { UnsubscribeController } from './unsubscribe.controller';

/**
 * Email requests (HTTP: they queue mails in PostgreSQL) and the one-click unsubscribe page.
 * Sending is the worker's (sending/email-worker.module.ts).
 */
@Module({
  imports: [GroupsModule, ParticipantLinksModule, ParticipantsModule],
  controllers: [InteractController, UnsubscribeController],
  providers: [InteractRepository, InteractService],
  exports: [InteractRepository],
})
export class InteractModule {}
