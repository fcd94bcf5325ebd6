import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { DELIVERY_CONCURRENCY } from '../webhook-queue';
import { ClaimedDelivery, DeliveryLeaseRepository } from './delivery-lease.repository';
import { sendInSpan } from './delivery-span';
import { DeliveryService, SentDelivery } from './delivery.service';

/** Outcomes are written when this many have gathered… */
const FLUSH_SIZE = 50;
/** …or this long after the first of them. */
const FLUSH_DELAY_MS = 20;

/**
 * A worker process's delivery loop (docs/webhooks.md). It leases due deliveries in batches (one
 * statement leases many, SKIP LOCKED: workers take disjoint rows), keeps DELIVERY_CONCURRENCY
 * sends in flight on keep-alive connections, and records outcomes in batches (one statement writes
 * many attempt rows and delivery states). PostgreSQL stays the truth: a lease outlives the
 * longest wait of a leased delivery (queued behind a full set of sends, then its own send, then
 * the flush delay), so a worker killed mid-batch only leaves leases to expire, after which the
 * deliveries are due again and another worker sends them; two workers never hold one delivery.
 *
 * It is woken by the `webhooks` queue's jobs and by the sweeper after every sweep (so it also
 * runs while Redis is away), and runs until nothing is due.
 */
@Injectable()
export class DeliveryPump {
  private readonly logger = new Logger(DeliveryPump.name);
  /** Sends in flight at most (and the size of a lease batch). */
  private readonly concurrency = DELIVERY_CONCURRENCY;
  /**
   * Leased deliveries wait behind at most one full set of sends (one timeout), then are sent
   * (a second), then recorded: the lease covers that, and no more, so the deliveries of a killed
   * worker are due again soon.
   */
  private readonly leaseMs: number;
  private readonly ready: ClaimedDelivery[] = [];
  private inFlight = 0;
  private leasing = false;
  /** Woken while leasing: lease again even if the last batch was short. */
  private wokenAgain = false;
  private stopping = false;
  /** The last lease came back short: nothing more is due until something wakes the pump. */
  private drained = false;
  private readonly outcomes: SentDelivery[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly flushes = new Set<Promise<void>>();
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly deliveries: DeliveryLeaseRepository,
    private readonly delivery: DeliveryService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.leaseMs = 2 * config.webhooks.timeoutMs + 10_000;
  }

  /** Something may be due: lease and send until nothing is. */
  wake(): void {
    if (this.stopping) return;
    this.drained = false;
    if (this.leasing) {
      this.wokenAgain = true;
      return;
    }
    void this.lease();
  }

  /** Graceful stop: no new leases; sends in flight finish and every outcome is written. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.inFlight > 0 || this.ready.length > 0 || this.leasing) {
      await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    }
    await this.flush();
    await Promise.all(this.flushes);
  }

  /** Leases as many due deliveries as there are free places, and starts sending them. */
  private async lease(): Promise<void> {
    this.leasing = true;
    try {
      for (;;) {
        this.wokenAgain = false;
        // In flight plus leased-and-waiting stays within two sets of sends; a lease takes at
        // least half a set, so each statement leases many.
        const free = this.concurrency * 2 - this.inFlight - this.ready.length;
        if (this.stopping || free < this.concurrency / 2) return;
        let batch: ClaimedDelivery[];
        try {
          batch = await this.deliveries.claimDue(free, this.leaseMs);
        } catch (error) {
          this.logger.error(`Leasing deliveries failed: ${(error as Error).message}`);
          return;
        }
        this.ready.push(...batch);
        this.startSends();
        // A short batch means nothing else is due now, unless a wake-up came meanwhile.
        if (batch.length < free && !this.wokenAgain) {
          this.drained = true;
          return;
        }
      }
    } finally {
      this.leasing = false;
      this.checkIdle();
    }
  }

  private startSends(): void {
    while (this.inFlight < this.concurrency && this.ready.length > 0) {
      const next = this.ready.shift() as ClaimedDelivery;
      this.inFlight += 1;
      void sendInSpan(next, () => this.delivery.send(next)).then((sent) => {
        this.inFlight -= 1;
        this.record(sent);
        this.startSends();
        // Refill before the last leased ones run out, so sends never wait on a lease.
        if (!this.leasing && !this.drained && this.ready.length <= this.concurrency / 2) {
          void this.lease();
        }
        this.checkIdle();
      });
    }
  }

  private record(sent: SentDelivery): void {
    this.outcomes.push(sent);
    if (this.outcomes.length >= FLUSH_SIZE) {
      void this.flush();
    } else if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
      this.flushTimer.unref();
    }
  }

  /** Writes the gathered outcomes (one statement for them all, then the endpoints' streaks). */
  private flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const batch = this.outcomes.splice(0);
    if (batch.length === 0) return Promise.resolve();
    const written = this.delivery.finishBatch(batch, this.leaseMs).catch((error: unknown) => {
      // The leases expire and the deliveries are sent again: at least once, never lost.
      this.logger.error(
        `Recording ${batch.length} delivery outcomes failed (they will be retried when their leases end): ${(error as Error).message}`,
      );
    });
    this.flushes.add(written);
    void written.finally(() => this.flushes.delete(written));
    return written;
  }

  private checkIdle(): void {
    if (this.inFlight > 0 || this.ready.length > 0 || this.leasing) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
