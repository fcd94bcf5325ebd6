import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { CohortSealer } from './cohort-sealer';

/** How often a worker looks for closed days to seal. A read seals what it needs itself. */
export const SEALING_SWEEP_INTERVAL_MS = 5 * 60_000;

/**
 * Seals cohort cells in every worker (docs/metrics.md): at start-up and every five minutes, each
 * group with a newly closed day. Two workers at once are safe: each group is sealed under its
 * advisory lock, and the second finds it done.
 */
@Injectable()
export class CohortSealingSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(CohortSealingSweeper.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(private readonly sealer: CohortSealer) {}

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
      .then((sealed) => {
        if (sealed > 0) this.logger.log(`Sealed ${sealed} cohort cells`);
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
