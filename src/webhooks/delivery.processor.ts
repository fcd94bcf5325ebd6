import { Process, Processor } from '@nestjs/bull';
import type { Job } from 'bull';
import { DeliveryService } from './delivery.service';
import { DELIVER_JOB, DeliverJob, DELIVERY_CONCURRENCY, WEBHOOK_QUEUE } from './webhook-queue';

/** Runs in worker processes (and in the API process with RUN_WORKERS=true). */
@Processor(WEBHOOK_QUEUE)
export class DeliveryProcessor {
  constructor(private readonly delivery: DeliveryService) {}

  @Process({ name: DELIVER_JOB, concurrency: DELIVERY_CONCURRENCY })
  async deliver(job: Job<DeliverJob>): Promise<void> {
    await this.delivery.attempt(job.data.deliveryId);
  }
}
