import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { IdempotencyRepository } from '../sessions/idempotency.repository';
import { EventsRepository } from '../webhooks/events/events.repository';
import { SessionRetention } from './session-retention';

/** Rows per statement: every statement of a sweep is bounded. */
export const RETENTION_BATCH = 1_000;
/**
 * A process's first sweep waits this long after start-up (or one interval, if shorter): the
 * deliveries and mails waiting for a restarted worker go first, as the key check does
 * (src/worker.ts). Run at once, it cleared the events a worker's predecessor had delivered
 * beside the backlog it had come to drain (docs/performance.md, "Fourth pass").
 */
export const FIRST_SWEEP_DELAY_MS = 60_000;
const DAY_MS = 86_400_000;

/** What one sweep did, per step (rows). */
export interface SweepReport {
  transcriptsRemoved: number;
  idempotencyRecordsDeleted: number;
  eventPiiCleared: number;
}

/**
 * Data at rest, in every worker (docs/data-at-rest.md): a minute after start-up and every
 * RETENTION_SWEEP_INTERVAL_MS, remove transcripts and features of sessions completed more than
 * TRANSCRIPT_RETENTION_DAYS ago (0: never), idempotency records after 24 h, and events' personal
 * data once all their deliveries are final — each through its table's owner (SessionRetention,
 * IdempotencyRepository, EventsRepository). Each step runs bounded batches until one comes back
 * short; sweeps in one process never overlap, and two workers sweeping at once take disjoint rows
 * (SKIP LOCKED). Email logs need no sweep: they never store the SMTP server's text (mailer.ts
 * `smtpFailureCode`).
 */
@Injectable()
export class RetentionSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(RetentionSweeper.name);
  private timer: NodeJS.Timeout | null = null;
  private firstSweep: NodeJS.Timeout | null = null;
  private running: Promise<SweepReport> | null = null;
  private stopped = false;

  constructor(
    private readonly sessionRetention: SessionRetention,
    private readonly idempotency: IdempotencyRepository,
    private readonly events: EventsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const intervalMs = this.config.retention.sweepIntervalMs;
    this.timer = setInterval(() => void this.sweep(), intervalMs);
    if (FIRST_SWEEP_DELAY_MS < intervalMs) {
      this.firstSweep = setTimeout(() => void this.sweep(), FIRST_SWEEP_DELAY_MS);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.firstSweep) clearTimeout(this.firstSweep);
    // A batch in flight finishes (each is one short statement); no new one starts.
    await this.running?.catch(() => undefined);
  }

  /** One sweep now (or the one in progress); resolves with what it did. */
  sweep(): Promise<SweepReport> {
    this.running ??= this.sweepOnce()
      .catch((error: unknown) => {
        this.logger.warn(`Retention sweep failed: ${(error as Error).message}`);
        return emptyReport();
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async sweepOnce(): Promise<SweepReport> {
    const report = emptyReport();
    const days = this.config.retention.transcriptDays;
    if (days > 0) {
      const completedBefore = new Date(Date.now() - days * DAY_MS);
      report.transcriptsRemoved = await this.drain(() =>
        this.sessionRetention.removeExpired(completedBefore, RETENTION_BATCH),
      );
    }
    report.idempotencyRecordsDeleted = await this.drain(() =>
      this.idempotency.deleteExpired(RETENTION_BATCH),
    );
    report.eventPiiCleared = await this.drain(() => this.events.clearDeliveredPii(RETENTION_BATCH));
    if (Object.values(report).some((count) => count > 0)) {
      this.logger.log(`Retention sweep: ${JSON.stringify(report)}`);
    }
    return report;
  }

  /** Runs `batch` until it handles fewer rows than a full batch (or the process stops). */
  private async drain(batch: () => Promise<number>): Promise<number> {
    let total = 0;
    while (!this.stopped) {
      const count = await batch();
      total += count;
      if (count < RETENTION_BATCH) break;
    }
    return total;
  }
}

const emptyReport = (): SweepReport => ({
  transcriptsRemoved: 0,
  idempotencyRecordsDeleted: 0,
  eventPiiCleared: 0,
});
