import { BullModule } from '@nestjs/bull';
import { DynamicModule, Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { GroupsModule } from '../groups/groups.module';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryProcessor } from './delivery.processor';
import { DeliveryService } from './delivery.service';
import { DeliverySweeper } from './delivery.sweeper';
import { WEBHOOK_QUEUE, WEBHOOK_QUEUE_SETTINGS } from './webhook-queue';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/**
 * Webhook endpoints (HTTP) and their delivery pipeline. With `workers`, this process also runs
 * the sweeper (PostgreSQL → queue) and the processor (queue → HTTP POST).
 */
@Module({})
export class WebhooksModule {
  static register(options: { workers: boolean }): DynamicModule {
    return {
      module: WebhooksModule,
      imports: [
        BullModule.registerQueue({ name: WEBHOOK_QUEUE, settings: WEBHOOK_QUEUE_SETTINGS }),
        GroupsModule,
        EventsModule,
      ],
      controllers: [WebhooksController],
      providers: [
        WebhooksRepository,
        DeliveriesRepository,
        WebhooksService,
        DeliveryService,
        ...(options.workers ? [DeliveryProcessor, DeliverySweeper] : []),
      ],
      exports: [DeliveryService, DeliveriesRepository],
    };
  }
}
