import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { SharedFeatures } from '../rollups/shared-features';
import { CohortSealer } from './cohort-sealer';

/** How often a worker looks for closed days to seal. A read seals what it needs itself. */
export const SEALING_SWEEP_INTERVAL_MS = 5 * 60_000;

/** Sessions per transaction of the shared-features pass. */
export const SHARED_FEATURES_BATCH = 500;

/**
 * Seals cohort cells in every worker (docs/metrics.md): at start-up and every five minutes, each
 * group with a newly closed day or a stale check. Two workers at once are safe: each group is
 * sealed under its advisory lock, and the second finds it done. Then it brings the group
 * comparisons in line with the sessions shown at level 5 (SharedFeatures), for whatever a
 * transaction skipped.
 */
@Injectable()
export class CohortSealingSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(CohortSealingSweeper.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly sealer: CohortSealer,
    private readonly sharedFeatures: SharedFeatures,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), SEALING_SWEEP_INTERVAL_MS);
    void this.sweep();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One sweep now (or the one in progress); resolves with how many cells it sealed. */
  sweep(): Promise<number> {
    this.running ??= this.sealer
      .sealDue()
      .then(async (sealed) => {
        if (sealed > 0) this.logger.log(`Sealed ${sealed} cohort cells`);
        let reconciled = 0;
        for (let batch = SHARED_FEATURES_BATCH; batch === SHARED_FEATURES_BATCH;) {
          batch = await this.sharedFeatures.reconcileSome(SHARED_FEATURES_BATCH);
          reconciled += batch;
        }
        if (reconciled > 0) this.logger.log(`Group comparisons: ${reconciled} sessions reconciled`);
        return sealed;
      })
      .catch((error: unknown) => {
        this.logger.warn(`Cohort sealing failed: ${(error as Error).message}`);
        return 0;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
