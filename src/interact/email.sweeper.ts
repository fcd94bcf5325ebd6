import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { OutboxSweeper } from '../queues/outbox-sweeper';
import {
  EMAIL_BACKOFF_MS,
  EMAIL_JOB_ATTEMPTS,
  EMAIL_QUEUE,
  EMAILS_CHANNEL,
  SEND_EMAIL_JOB,
  SendEmailJob,
} from './email-queue';
import { InteractRepository } from './interact.repository';

const BATCH = 1_000;

/**
 * Queued mails → the `emails` queue, in bulk (job id = message id, so a mail already in Redis is
 * not queued twice). An SMTP outage only delays mail: rows stay `queued` until sent.
 */
@Injectable()
export class EmailSweeper extends OutboxSweeper {
  constructor(
    private readonly repository: InteractRepository,
    @InjectQueue(EMAIL_QUEUE) private readonly queue: Queue<SendEmailJob>,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super(
      EmailSweeper.name,
      EMAILS_CHANNEL,
      config.database.url,
      Math.max(config.webhooks.sweepIntervalMs, 1_000),
    );
  }

  protected async sweepOnce(): Promise<void> {
    const ids = await this.repository.queued(BATCH);
    if (ids.length === 0) return;
    await this.queue.addBulk(
      ids.map((messageId) => ({
        name: SEND_EMAIL_JOB,
        data: { messageId },
        opts: {
          jobId: messageId,
          attempts: EMAIL_JOB_ATTEMPTS,
          backoff: { type: 'exponential', delay: EMAIL_BACKOFF_MS },
          removeOnComplete: true,
          removeOnFail: true,
        },
      })),
    );
  }
}
