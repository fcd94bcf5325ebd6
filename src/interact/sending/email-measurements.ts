import { Injectable } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { Measurements, scrapeReading } from '../../common/measurements/measurements';
import { EmailSendingRepository } from './email-sending.repository';

/**
 * The email figures of a process that sends mail (docs/operations.md, "Metrics"): mails sent,
 * failed for good and retried, counted as they happen; the mails still queued in PostgreSQL and
 * how long the oldest due one has waited, read when Prometheus scrapes (the `emails` queue in Redis
 * may hold less; a notice waiting for its window's end is pending but not late).
 */
@Injectable()
export class EmailMeasurements {
  readonly sent: Counter;
  readonly failed: Counter;
  readonly retried: Counter;

  constructor(measurements: Measurements, repository: EmailSendingRepository) {
    this.sent = measurements.counter({
      name: 'checkin_emails_sent_total',
      help: 'Mails sent (handed to SMTP, written as a file, or captured for a sandbox enterprise).',
    });
    this.failed = measurements.counter({
      name: 'checkin_emails_failed_total',
      help: 'Mails that failed for good: a permanent SMTP refusal (5xx), an unusable address, or the last of 12 attempts.',
    });
    this.retried = measurements.counter({
      name: 'checkin_email_retries_total',
      help: 'Temporary mail failures (SMTP 4xx, connection errors), each retried later.',
    });
    const backlog = scrapeReading(() => repository.backlog());
    measurements.gauge({
      name: 'checkin_emails_pending',
      help: 'Mails queued in PostgreSQL and not yet sent, failed or skipped (retries and notices waiting for their time included).',
      async collect() {
        this.set((await backlog())?.pending ?? NaN);
      },
    });
    measurements.gauge({
      name: 'checkin_email_oldest_pending_age_seconds',
      help: 'How long the oldest due queued mail has waited since it became due (0 when none is due).',
      async collect() {
        this.set((await backlog())?.oldestPendingSeconds ?? NaN);
      },
    });
  }
}
