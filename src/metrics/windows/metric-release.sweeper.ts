import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { SharedFeatures } from '../rollups/shared-features';
import { WindowReleaser } from './window-releaser';

/** How often a worker looks for windows to release. A read releases what it needs itself. */
export const RELEASE_SWEEP_INTERVAL_MS = 5 * 60_000;

/** Sessions per transaction of the shared-features pass. */
export const SHARED_FEATURES_BATCH = 500;

/**
 * Releases group metrics in every worker (docs/metrics.md, "Release windows"): at start-up and
 * every five minutes, each enterprise with results waiting or a window due. Two workers at once
 * are safe: each enterprise is released under its advisory lock, and the second finds it done.
 * Then it brings the group comparisons in line with the sessions shown at level 5
 * (SharedFeatures), for whatever a transaction skipped.
 */
@Injectable()
export class MetricReleaseSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(MetricReleaseSweeper.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly releaser: WindowReleaser,
    private readonly sharedFeatures: SharedFeatures,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), RELEASE_SWEEP_INTERVAL_MS);
    void this.sweep();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One sweep now (or the one in progress); resolves with how many windows it released. */
  sweep(): Promise<number> {
    this.running ??= this.releaser
      .releaseDue()
      .then(async (released) => {
        if (released > 0) this.logger.log(`Released ${released} metric windows`);
        let reconciled = 0;
        for (let batch = SHARED_FEATURES_BATCH; batch === SHARED_FEATURES_BATCH;) {
          batch = await this.sharedFeatures.reconcileSome(SHARED_FEATURES_BATCH);
          reconciled += batch;
        }
        if (reconciled > 0) this.logger.log(`Group comparisons: ${reconciled} sessions reconciled`);
        return released;
      })
      .catch((error: unknown) => {
        this.logger.warn(`Metric release failed: ${(error as Error).message}`);
        return 0;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
