import { Module } from '@nestjs/common';
import { GroupsModule } from '../groups/groups.module';
import { ParticipantsModule } from '../participants/participants.module';
import { MetricsController } from './metrics.controller';
import { MetricsRepository } from './metrics.repository';
import { MetricsService } from './metrics.service';

@Module({
  imports: [GroupsModule, ParticipantsModule],
  controllers: [MetricsController],
  providers: [MetricsRepository, MetricsService],
})
export class MetricsModule {}
