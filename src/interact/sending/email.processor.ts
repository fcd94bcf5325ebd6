import { Process, Processor } from '@nestjs/bull';
import { Logger } from '@nestjs/common';
import type { Job } from 'bull';
import {
  EMAIL_JOB_ATTEMPTS,
  EMAIL_QUEUE,
  emailRetryDelayMs,
  SEND_EMAIL_JOB,
  SendEmailJob,
} from '../email-queue';
import { EmailMeasurements } from './email-measurements';
import { EmailSender } from './email-sender';

@Processor(EMAIL_QUEUE)
export class EmailProcessor {
  private readonly logger = new Logger(EmailProcessor.name);

  constructor(
    private readonly sender: EmailSender,
    private readonly measurements: EmailMeasurements,
  ) {}

  /**
   * Sends one mail and counts how it ended. A failure is one warn line (the message id, the
   * reason code kept in email_messages, the attempt and what happens next); a temporary one
   * throws so Bull retries it with backoff.
   */
  @Process({ name: SEND_EMAIL_JOB, concurrency: 10 })
  async send(job: Job<SendEmailJob>): Promise<void> {
    const attempt = job.attemptsMade + 1;
    const attempts = job.opts.attempts ?? EMAIL_JOB_ATTEMPTS;
    const { messageId } = job.data;
    const { outcome, reason } = await this.sender.send(messageId, attempt >= attempts);
    if (outcome === 'sent') this.measurements.sent.inc();
    if (outcome !== 'failed' && outcome !== 'retry') return;
    const nextAttemptAt =
      outcome === 'retry' ? new Date(Date.now() + emailRetryDelayMs(attempt)) : null;
    (outcome === 'retry' ? this.measurements.retried : this.measurements.failed).inc();
    this.logger.warn(
      { messageId, reason, attempt, outcome, nextAttemptAt: nextAttemptAt?.toISOString() ?? null },
      `Mail ${messageId}, attempt ${attempt} of ${attempts}, failed: ${reason}; ` +
        (nextAttemptAt
          ? `next attempt at ${nextAttemptAt.toISOString()}`
          : 'not retried: the mail has failed'),
    );
    if (outcome === 'retry') throw new Error('temporary SMTP failure; retrying');
  }
}
