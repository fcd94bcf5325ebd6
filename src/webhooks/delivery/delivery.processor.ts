import { Process, Processor } from '@nestjs/bull';
import { BeforeApplicationShutdown } from '@nestjs/common';
import type { Job } from 'bull';
import { DeliveryService } from './delivery.service';
import { DELIVER_JOB, DeliverJob, DELIVERY_CONCURRENCY, WEBHOOK_QUEUE } from '../webhook-queue';

/** Deliveries a job's slot may send from PostgreSQL after its own (bounded: Bull renews locks). */
const DRAIN_PER_JOB = 50;

/** Runs in worker processes (and in the API process with RUN_WORKERS=true). */
@Processor(WEBHOOK_QUEUE)
export class DeliveryProcessor implements BeforeApplicationShutdown {
  private stopping = false;

  constructor(private readonly delivery: DeliveryService) {}

  @Process({ name: DELIVER_JOB, concurrency: DELIVERY_CONCURRENCY })
  async deliver(job: Job<DeliverJob>): Promise<void> {
    await this.delivery.attempt(job.data.deliveryId);
    await this.delivery.drain(DRAIN_PER_JOB, () => this.stopping);
  }

  /** Shutting down: in-flight sends finish, no slot takes more from PostgreSQL. */
  beforeApplicationShutdown(): void {
    this.stopping = true;
  }
}
