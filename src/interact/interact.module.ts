import { BullModule } from '@nestjs/bull';
import { DynamicModule, Module } from '@nestjs/common';
import { CheckinPagesModule } from '../checkin/pages/checkin-pages.module';
import { GroupsModule } from '../groups/groups.module';
import { SessionsModule } from '../sessions/sessions.module';
import { EMAIL_QUEUE } from './email-queue';
import { EmailProcessor } from './email.processor';
import { EmailSweeper } from './email.sweeper';
import { EmailSender } from './email-sender';
import { InteractController } from './interact.controller';
import { InteractRepository } from './interact.repository';
import { InteractService } from './interact.service';
import { Mailer } from './mailer';
import { UnsubscribeController } from './unsubscribe.controller';

/** Email requests (HTTP), unsubscribe, and with `workers` the sending pipeline. */
@Module({})
export class InteractModule {
  static register(options: { workers: boolean }): DynamicModule {
    return {
      module: InteractModule,
      imports: [
        BullModule.registerQueue({ name: EMAIL_QUEUE }),
        GroupsModule,
        SessionsModule,
        CheckinPagesModule,
      ],
      controllers: [InteractController, UnsubscribeController],
      providers: [
        InteractRepository,
        InteractService,
        ...(options.workers ? [Mailer, EmailSender, EmailProcessor, EmailSweeper] : []),
      ],
    };
  }
}
