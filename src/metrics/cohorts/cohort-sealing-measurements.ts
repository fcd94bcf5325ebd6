import { Inject, Injectable } from '@nestjs/common';
import { Measurements, scrapeReading } from '../../common/measurements/measurements';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { CohortCellsRepository } from './cohort-cells.repository';

/**
 * `checkin_cohort_sealing_lag_seconds`, exposed by the processes that seal (docs/operations.md):
 * how far behind the sealing of cohort cells is, read from the cohort tables when Prometheus
 * scrapes (CohortCellsRepository.sealingLagSeconds).
 */
@Injectable()
export class CohortSealingMeasurements {
  constructor(
    measurements: Measurements,
    cells: CohortCellsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const lag = scrapeReading(() => cells.sealingLagSeconds(config.metrics.sealDelayMinutes));
    measurements.gauge({
      name: 'checkin_cohort_sealing_lag_seconds',
      help: 'How long the oldest closed day not yet looked at by sealing has been closed, over groups with pending results (0: sealing is up to date).',
      async collect() {
        this.set((await lag()) ?? NaN);
      },
    });
  }
}
