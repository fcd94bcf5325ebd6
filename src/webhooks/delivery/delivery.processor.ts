import { Process, Processor } from '@nestjs/bull';
import { BeforeApplicationShutdown, Inject } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { withTimeout } from '../../queues/outbox-sweeper';
import { DELIVER_JOB, DELIVERY_CONCURRENCY, WEBHOOK_QUEUE } from '../webhook-queue';
import { DeliveryPump } from './delivery-pump';

/**
 * Runs in worker processes (and in the API process with RUN_WORKERS=true). A job says that
 * something is due: it wakes this process's DeliveryPump, which leases and sends in batches
 * (the job's own delivery among them, or already taken by another worker).
 */
@Processor(WEBHOOK_QUEUE)
export class DeliveryProcessor implements BeforeApplicationShutdown {
  constructor(
    private readonly pump: DeliveryPump,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Process({ name: DELIVER_JOB, concurrency: DELIVERY_CONCURRENCY })
  deliver(): void {
    this.pump.wake();
  }

  /** Shutting down: sends in flight finish and their outcomes are written; no new leases. */
  async beforeApplicationShutdown(): Promise<void> {
    await withTimeout(this.pump.stop(), this.config.webhooks.timeoutMs + 2_000);
  }
}
