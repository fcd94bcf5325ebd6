import { Module } from '@nestjs/common';
import { GroupsModule } from '../groups/groups.module';
import { InteractController } from './interact.controller';
import { InteractRepository } from './interact.repository';
import { InteractService } from './interact.service';

/**
 * Email requests (HTTP: they queue mails in PostgreSQL). Sending is the worker's
 * (sending/email-worker.module.ts); the one-click unsubscribe page is a participant page
 * (pages/unsubscribe.controller.ts).
 */
@Module({
  imports: [GroupsModule],
  controllers: [InteractController],
  providers: [InteractRepository, InteractService],
  exports: [InteractRepository],
})
export class InteractModule {}
