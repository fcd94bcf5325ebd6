import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { WEBHOOK_QUEUE, WEBHOOK_QUEUE_SETTINGS } from '../webhook-queue';
import { DeliveryLeaseRepository } from './delivery-lease.repository';
import { DeliveryMeasurements } from './delivery-measurements';
import { DeliveryProcessor } from './delivery.processor';
import { DeliveryPump } from './delivery-pump';
import { DeliveryService } from './delivery.service';
import { DeliverySweeper } from './delivery.sweeper';

/**
 * The webhook delivery worker: the sweeper (due deliveries in PostgreSQL → the `webhooks` queue),
 * the processor (a job wakes the pump) and the pump (leases in batches → signed HTTP POSTs on
 * keep-alive connections → outcomes in batches), and its figures (DeliveryMeasurements).
 * Imported by the worker process, and by the API process only with RUN_WORKERS=true. It serves
 * no HTTP route.
 */
@Module({
  imports: [BullModule.registerQueue({ name: WEBHOOK_QUEUE, settings: WEBHOOK_QUEUE_SETTINGS })],
  providers: [
    DeliveryLeaseRepository,
    DeliveryMeasurements,
    DeliveryService,
    DeliveryPump,
    DeliveryProcessor,
    DeliverySweeper,
  ],
})
export class WebhookDeliveryWorkerModule {}
