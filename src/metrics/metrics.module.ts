import { Module } from '@nestjs/common';
import { GroupsModule } from '../groups/groups.module';
import { ParticipantsModule } from '../participants/participants.module';
import { MetricReleasesModule } from './windows/metric-releases.module';
import { MetricsController } from './metrics.controller';
import { MetricsRepository } from './metrics.repository';
import { MetricsService } from './metrics.service';
import { GroupReleasesReader } from './windows/group-releases.reader';

@Module({
  imports: [GroupsModule, ParticipantsModule, MetricReleasesModule],
  controllers: [MetricsController],
  providers: [MetricsRepository, MetricsService, GroupReleasesReader],
})
export class MetricsModule {}
