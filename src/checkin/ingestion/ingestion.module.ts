import { Module } from '@nestjs/common';
import { EventsModule } from '../../events/events.module';
import { EngineTokenGuard } from './engine-token.guard';
import { IngestionController } from './ingestion.controller';
import { IngestionRepository } from './ingestion.repository';
import { IngestionService } from './ingestion.service';

@Module({
  imports: [EventsModule],
  controllers: [IngestionController],
  providers: [IngestionRepository, IngestionService, EngineTokenGuard],
  exports: [IngestionService],
})
export class IngestionModule {}
