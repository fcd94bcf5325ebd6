import { Module } from '@nestjs/common';
import { CohortCellsModule } from '../cohorts/cohort-cells.module';
import { MetricRollupsModule } from '../rollups/metric-rollups.module';
import { MetricReleaseMeasurements } from './metric-release-measurements';
import { MetricReleaseSweeper } from './metric-release.sweeper';

/**
 * Group metrics, worker side: the sweep that releases due windows, and its lag (a figure on the
 * operations port). Imported by the worker process, and by the API process only with
 * RUN_WORKERS=true. No HTTP route, no queue.
 */
@Module({
  imports: [CohortCellsModule, MetricRollupsModule],
  providers: [MetricReleaseSweeper, MetricReleaseMeasurements],
})
export class MetricReleaseWorkerModule {}
