import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { EMAIL_JOB_ATTEMPTS, EMAIL_QUEUE, SEND_EMAIL_JOB, SendEmailJob } from '../email-queue';
import { EmailSender } from './email-sender';

@Processor(EMAIL_QUEUE)
export class EmailProcessor {
  constructor(private readonly sender: EmailSender) {}

  /** Throws on a temporary failure so Bull retries it with backoff. */
  @Process({ name: SEND_EMAIL_JOB, concurrency: 10 })
  async send(job: Job<SendEmailJob>): Promise<void> {
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? EMAIL_JOB_ATTEMPTS);
    const outcome = await this.sender.send(job.data.messageId, lastAttempt);
    if (outcome === 'retry') throw new Error('temporary SMTP failure; retrying');
  }
}
