import { Module } from '@nestjs/common';
import { EventsModule } from './events/events.module';
import { GroupsModule } from '../groups/groups.module';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/**
 * Webhook endpoints and their delivery log, for enterprises (HTTP). Delivery itself is the
 * worker's (delivery/delivery-worker.module.ts): the API only writes deliveries to PostgreSQL.
 */
@Module({
  imports: [GroupsModule, EventsModule],
  controllers: [WebhooksController],
  providers: [WebhooksRepository, WebhooksService],
})
export class WebhooksModule {}
