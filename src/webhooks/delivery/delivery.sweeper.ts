import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { DELIVERIES_CHANNEL } from '../events/events';
import { isRunnableJobState, OutboxSweeper, withTimeout } from '../../queues/outbox-sweeper';
import {
  DELIVER_JOB,
  deliverJobId,
  DeliverJob,
  DELIVERY_CONCURRENCY,
  WEBHOOK_QUEUE,
} from '../webhook-queue';
import { DeliveryLeaseRepository } from './delivery-lease.repository';
import { DeliveryPump } from './delivery-pump';

/** Jobs queued per sweep at most: wake-ups for every worker's pump, not one per delivery. */
const WAKE_JOBS = DELIVERY_CONCURRENCY;
/**
 * A delivery still pending this long after it was queued (and not leased) is checked against
 * Redis: its job may have been lost (Redis restarted or flushed) or stranded (seen: 3–6 of 1 000
 * after Redis was killed mid-stream under load, never attempted).
 */
const RECHECK_AFTER_MS = 10_000;
/** Redis being down must not stall the sweep: an enqueue that takes longer is abandoned. */
const ENQUEUE_TIMEOUT_MS = 2_000;

/**
 * Wakes the delivery pumps when deliveries are due: this process's directly, every worker's
 * through the `webhooks` queue (a job per due delivery, up to WAKE_JOBS a sweep). PostgreSQL
 * decides what is due; Bull only schedules. Each take is stamped (`queued_at`), so concurrent
 * sweepers split the work. A worker killed mid-attempt leaves its lease to expire; the delivery
 * is then due again and any pump leases it. Duplicate or stale jobs are harmless: a job only
 * wakes a pump, which sends what it leases.
 */
@Injectable()
export class DeliverySweeper extends OutboxSweeper {
  constructor(
    private readonly deliveries: DeliveryLeaseRepository,
    private readonly pump: DeliveryPump,
    @InjectQueue(WEBHOOK_QUEUE) private readonly queue: Queue<DeliverJob>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super(
      DeliverySweeper.name,
      DELIVERIES_CHANNEL,
      config.database.url,
      config.webhooks.sweepIntervalMs,
    );
  }

  protected async sweepOnce(): Promise<void> {
    // This process's own pump leases what is due straight from PostgreSQL, Redis or not. The
    // jobs below wake the other workers' pumps: a set of them is enough (each pump then leases
    // until nothing is due), so a backlog of thousands costs a few jobs, not one each.
    this.pump.wake();
    const due = await this.deliveries.takeDue(WAKE_JOBS, RECHECK_AFTER_MS);
    const queued = await Promise.all(due.map((delivery) => this.enqueue(delivery)));
    await this.deliveries.recordQueued(
      queued.filter((job): job is { id: string; jobId: string | null } => job !== undefined),
    );
  }

  /**
   * New deliveries were committed: this process's pump leases them at once, and that is all. Every
   * worker process listens on the channel itself, so every pump wakes without a job; the jobs are
   * for what a NOTIFY does not announce (retries coming due, leases expiring, a worker whose LISTEN
   * connection was down), which the sweep finds every WEBHOOK_SWEEP_INTERVAL_MS. A sweep per
   * NOTIFY used to queue jobs for deliveries the pumps were already leasing: at 200 events/s,
   * two more row updates and a Bull job a delivery, and PostgreSQL's share of commit-to-receipt
   * (docs/performance.md, "Fourth pass").
   */
  protected override notified(): void {
    this.pump.wake();
  }

  /**
   * Queues one delivery under a fresh job id, unless a previous sweep's job for it is still
   * live in Redis. Returns what to record: the new job id, null to take the row again at once
   * (Redis did not answer), or undefined when the existing job stands.
   */
  private async enqueue(delivery: {
    id: string;
    queueJobId: string | null;
  }): Promise<{ id: string; jobId: string | null } | undefined> {
    try {
      if (delivery.queueJobId && (await this.isLive(delivery.queueJobId))) return undefined;
      const jobId = deliverJobId(delivery.id);
      const added = await withTimeout(
        this.queue.add(
          DELIVER_JOB,
          { deliveryId: delivery.id },
          { jobId, removeOnComplete: true, removeOnFail: true },
        ),
        ENQUEUE_TIMEOUT_MS,
      );
      return { id: delivery.id, jobId: added ? jobId : null };
    } catch {
      return { id: delivery.id, jobId: null };
    }
  }

  /** Whether Bull will still run this job (waiting, delayed, or active under a live lock). */
  private async isLive(jobId: string): Promise<boolean> {
    const job = await withTimeout(this.queue.getJob(jobId), ENQUEUE_TIMEOUT_MS);
    if (!job) return false;
    return isRunnableJobState(await withTimeout(job.getState(), ENQUEUE_TIMEOUT_MS));
  }

  /**
   * Graceful stop: let this process's in-flight deliveries finish (a local pause waits for active
   * jobs) before Bull and the pools close. One that cannot finish keeps its lease and is retried.
   */
  protected override async afterStop(): Promise<void> {
    await withTimeout(
      this.queue.pause(true).catch(() => undefined),
      this.config.webhooks.timeoutMs + 2_000,
    );
  }
}
