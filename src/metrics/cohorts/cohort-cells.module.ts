import { Module } from '@nestjs/common';
import { CohortCellsRepository } from './cohort-cells.repository';
import { cryptoRandom } from '../releases/discrete-laplace';
import { CohortSealer, RELEASE_RANDOMNESS } from './cohort-sealer';

/**
 * The sealed cohort cells' owner (docs/metrics.md), for the modules that add a completed session
 * (ingestion), take a participant out of the live counts (erasure), seal (the workers' sweep) or
 * seal before reading (metrics).
 */
@Module({
  providers: [
    CohortCellsRepository,
    CohortSealer,
    { provide: RELEASE_RANDOMNESS, useValue: cryptoRandom },
  ],
  exports: [CohortCellsRepository, CohortSealer],
})
export class CohortCellsModule {}
