import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { DELIVERIES_CHANNEL } from '../events/events';
import { OutboxSweeper, withTimeout } from '../queues/outbox-sweeper';
import { DeliveriesRepository } from './deliveries.repository';
import { DELIVER_JOB, deliverJobId, DeliverJob, WEBHOOK_QUEUE } from './webhook-queue';

const BATCH = 500;
/** Redis being down must not stall the sweep: an enqueue that takes longer is abandoned. */
const ENQUEUE_TIMEOUT_MS = 2_000;

/**
 * Webhook deliveries due now → the `webhooks` queue. A worker killed mid-attempt leaves its
 * lease to expire; the delivery is then due again and queued under a new job id.
 */
@Injectable()
export class DeliverySweeper extends OutboxSweeper {
  constructor(
    private readonly deliveries: DeliveriesRepository,
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
    for (;;) {
      const due = await this.deliveries.due(BATCH);
      await Promise.all(
        due.map((delivery) =>
          withTimeout(
            this.queue.add(
              DELIVER_JOB,
              { deliveryId: delivery.id },
              {
                jobId: deliverJobId(delivery.id, delivery.attempts, delivery.locked_until),
                removeOnComplete: true,
                removeOnFail: true,
              },
            ),
            ENQUEUE_TIMEOUT_MS,
          ),
        ),
      );
      // Queued jobs keep their rows "due" until a worker leases them; do not spin on them.
      if (due.length < BATCH) return;
    }
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
