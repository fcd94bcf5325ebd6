import { Inject, Injectable } from '@nestjs/common';
import { Measurements, scrapeReading } from '../../common/measurements/measurements';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { MetricWindowsRepository } from './metric-windows.repository';

/**
 * `checkin_metric_release_lag_seconds`, exposed by the processes that release (docs/operations.md):
 * how long the oldest window due for release has waited, read when Prometheus scrapes.
 */
@Injectable()
export class MetricReleaseMeasurements {
  constructor(
    measurements: Measurements,
    windows: MetricWindowsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const lag = scrapeReading(() => windows.releaseLagSeconds(config.metrics.releaseGraceHours));
    measurements.gauge({
      name: 'checkin_metric_release_lag_seconds',
      help: 'How long the oldest release window that is due (its end and grace period passed) has waited for its release (0: releases are up to date).',
      async collect() {
        this.set((await lag()) ?? NaN);
      },
    });
  }
}
