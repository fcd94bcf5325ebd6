import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { isRunnableJobState, OutboxSweeper } from '../../queues/outbox-sweeper';
import {
  EMAIL_BACKOFF_MS,
  EMAIL_JOB_ATTEMPTS,
  EMAIL_QUEUE,
  EMAILS_CHANNEL,
  SEND_EMAIL_JOB,
  SendEmailJob,
} from '../email-queue';
import { EmailSendingRepository } from './email-sending.repository';

const BATCH = 1_000;
/** How old a still-queued mail must be before its Bull job is checked (and how often). */
const RECHECK_AFTER_MS = 30_000;

/**
 * Queued mails that are due → the `emails` queue, in bulk (job id = message id, so a mail already
 * in Redis is not queued twice). An SMTP outage only delays mail: rows stay `queued` until sent. A
 * notice waiting for its window's end (`send_after`, docs/emails.md) is found by the first sweep
 * after it, on the interval: nothing notifies at that time.
 */
@Injectable()
export class EmailSweeper extends OutboxSweeper {
  private lastRecheck = 0;

  constructor(
    private readonly repository: EmailSendingRepository,
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
    await this.queue.addBulk(ids.map((messageId) => emailJob(messageId)));
    if (Date.now() - this.lastRecheck >= RECHECK_AFTER_MS) {
      this.lastRecheck = Date.now();
      await this.requeueStranded();
    }
  }

  /**
   * A mail queued long ago whose job Bull holds in a state that will never run (after a Redis
   * crash the id can linger, and re-adding an id Bull still holds is a silent no-op): remove that
   * job and queue it again. Mails still waiting, delayed (backoff) or active are left alone.
   */
  private async requeueStranded(): Promise<void> {
    for (const messageId of await this.repository.queuedBefore(RECHECK_AFTER_MS, BATCH)) {
      const job = await this.queue.getJob(messageId);
      if (!job) continue; // gone: the bulk add above has queued it again
      const state = await job.getState();
      if (isRunnableJobState(state)) continue;
      this.logger.warn(`Mail ${messageId} had a stranded job (${state}); queued again`);
      await job.remove().catch(() => undefined);
      const { name, data, opts } = emailJob(messageId);
      await this.queue.add(name, data, opts);
    }
  }
}

const emailJob = (messageId: string) => ({
  name: SEND_EMAIL_JOB,
  data: { messageId },
  opts: {
    jobId: messageId,
    attempts: EMAIL_JOB_ATTEMPTS,
    backoff: { type: 'exponential', delay: EMAIL_BACKOFF_MS },
    removeOnComplete: true,
    removeOnFail: true,
  },
});
