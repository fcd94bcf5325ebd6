import { Module } from '@nestjs/common';
import { GroupsModule } from '../groups/groups.module';
import { ParticipantsModule } from '../participants/participants.module';
import { CohortCellsModule } from './cohorts/cohort-cells.module';
import { MetricsController } from './metrics.controller';
import { MetricsRepository } from './metrics.repository';
import { MetricsService } from './metrics.service';
import { GroupReleasesReader } from './windows/group-releases.reader';

@Module({
  imports: [GroupsModule, ParticipantsModule, CohortCellsModule],
  controllers: [MetricsController],
  providers: [MetricsRepository, MetricsService, GroupReleasesReader],
})
export class MetricsModule {}
