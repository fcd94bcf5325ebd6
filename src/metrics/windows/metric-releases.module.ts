import { Module } from '@nestjs/common';
import { cryptoRandom } from '../releases/discrete-laplace';
import { RELEASE_RANDOMNESS } from '../releases/release-randomness';
import { CohortCellsRepository } from '../cohorts/cohort-cells.repository';
import { MetricWindowsRepository } from './metric-windows.repository';
import { WindowReleaser } from './window-releaser';

/**
 * What feeds group metrics and releases them (docs/metrics.md), for the modules that add a
 * completed session (ingestion), take a participant out of the live counts (erasure), release
 * (the workers' sweep) or release before reading (metrics), and for the operator's CLI.
 */
@Module({
  providers: [
    CohortCellsRepository,
    MetricWindowsRepository,
    WindowReleaser,
    { provide: RELEASE_RANDOMNESS, useValue: cryptoRandom },
  ],
  exports: [CohortCellsRepository, MetricWindowsRepository, WindowReleaser],
})
export class MetricReleasesModule {}
