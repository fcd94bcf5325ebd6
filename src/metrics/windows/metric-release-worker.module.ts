import { Module } from '@nestjs/common';
import { MetricReleasesModule } from './metric-releases.module';
import { MetricRollupsModule } from '../rollups/metric-rollups.module';
import { MetricReleaseMeasurements } from './metric-release-measurements';
import { MetricReleaseSweeper } from './metric-release.sweeper';

/**
 * Group metrics, worker side: the sweep that releases due windows, and its lag (a figure on the
 * operations port). Imported by the worker process, and by the API process only with
 * RUN_WORKERS=true. No HTTP route, no queue.
 */
@Module({
  imports: [MetricReleasesModule, MetricRollupsModule],
  providers: [MetricReleaseSweeper, MetricReleaseMeasurements],
})
export class MetricReleaseWorkerModule {}
