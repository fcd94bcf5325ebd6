import { Column, Entity, Index } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { CohortCellEntity } from './cohort-cell.entity';

/**
 * Schema of `cohort_score_prefixes` (the second version's, no longer written: docs/metrics.md, "Upgrade"): for each released
 * scores cell, the running totals of its group's releases up to and including it — cells,
 * participants, noisy sum, noisy bins and the bins' noise variance. Releases never change and are
 * made in order, so the union of the cells between two days is the difference of two rows: an
 * answer over a year reads two rows, whatever the group's size. Sums of releases are releases
 * too (post-processing): no exact aggregate is stored here either.
 */
@Entity({ name: 'cohort_score_prefixes' })
@Index('cohort_score_prefixes_group_day_key', ['groupId', 'lastDay'], { unique: true })
export class CohortScorePrefixEntity {
  @ForeignKey(() => CohortCellEntity, 'bigint', 'cohort_score_prefixes_cell_fkey', {
    primaryKey: 'cohort_score_prefixes_pkey',
  })
  cellId!: number;

  @Column({ name: 'group_id', type: 'bigint' })
  groupId!: number;

  @Column({ name: 'last_day', type: 'date' })
  lastDay!: string;

  @Column({ type: 'integer' })
  cells!: number;

  @Column({ type: 'bigint' })
  participants!: number;

  /** Hundredths of MHCI. */
  @Column({ name: 'noisy_sum', type: 'bigint' })
  noisySum!: number;

  /** SCORE_MECHANISM.bins running noisy counts. */
  @Column({ name: 'noisy_bins', type: 'integer', array: true })
  noisyBins!: number[];

  @Column({ name: 'bin_noise_variance', type: 'double precision' })
  binNoiseVariance!: number;
}
