import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { ParticipantLinksModule } from '../../participant-links/participant-links.module';
import { EMAIL_QUEUE } from '../email-queue';
import { EmailMeasurements } from './email-measurements';
import { EmailSendingRepository } from './email-sending.repository';
import { EmailSender } from './email-sender';
import { EmailProcessor } from './email.processor';
import { EmailSweeper } from './email.sweeper';
import { Mailer } from './mailer';

/**
 * The email worker: the sweeper (queued rows in PostgreSQL → the `emails` queue) and the
 * processor (queue → SMTP), and its figures (EmailMeasurements). Imported by the worker
 * process, and by the API process only with RUN_WORKERS=true. It serves no HTTP route.
 */
@Module({
  imports: [BullModule.registerQueue({ name: EMAIL_QUEUE }), ParticipantLinksModule],
  providers: [
    EmailSendingRepository,
    EmailMeasurements,
    Mailer,
    EmailSender,
    EmailProcessor,
    EmailSweeper,
  ],
})
export class EmailWorkerModule {}
