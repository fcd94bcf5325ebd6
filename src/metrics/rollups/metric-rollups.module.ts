import { Module } from '@nestjs/common';
import { SessionRecordsModule } from '../../sessions/session-records.module';
import { MetricRollupsRepository } from './metric-rollups.repository';
import { SharedFeatures } from './shared-features';

/**
 * The feature histograms' owner, for the modules that add to them or take out (ingestion, the
 * participant's choices, erasure, retention, the workers' sweep: SharedFeatures).
 */
@Module({
  imports: [SessionRecordsModule],
  providers: [MetricRollupsRepository, SharedFeatures],
  exports: [MetricRollupsRepository, SharedFeatures],
})
export class MetricRollupsModule {}
