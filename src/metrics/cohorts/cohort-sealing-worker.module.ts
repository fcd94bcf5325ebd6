import { Module } from '@nestjs/common';
import { MetricRollupsModule } from '../rollups/metric-rollups.module';
import { CohortCellsModule } from './cohort-cells.module';
import { CohortSealingMeasurements } from './cohort-sealing-measurements';
import { CohortSealingSweeper } from './cohort-sealing.sweeper';

/**
 * Group metrics, worker side: the sweep that seals cohort cells, and its lag (a figure on the
 * operations port). Imported by the worker process, and by the API process only with
 * RUN_WORKERS=true. No HTTP route, no queue.
 */
@Module({
  imports: [CohortCellsModule, MetricRollupsModule],
  providers: [CohortSealingSweeper, CohortSealingMeasurements],
})
export class CohortSealingWorkerModule {}
