import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { CohortCellEntity } from './cohort-cell.entity';

/**
 * Schema of `cohort_cell_scores`: a sealed cell's exact MHCI histogram (value → how many sessions),
 * so min, max, mean and continuous percentiles over any union of cells are exact. With the cell's
 * group, last day and the value's bin (cohort-score-prefix.entity.ts), so the exact values of a
 * bin across a run of cells are one index range.
 */
@Entity({ name: 'cohort_cell_scores' })
@Index('cohort_cell_scores_group_bin_idx', ['groupId', 'bin', 'lastDay', 'mhci', 'count'])
@Check('cohort_cell_scores_count', '(count >= 1)')
export class CohortCellScoreEntity {
  @ForeignKey(() => CohortCellEntity, 'bigint', 'cohort_cell_scores_cell_fkey', {
    primaryKey: 'cohort_cell_scores_pkey',
  })
  cellId!: number;

  @PrimaryColumn({ type: 'double precision', primaryKeyConstraintName: 'cohort_cell_scores_pkey' })
  mhci!: number;

  @Column({ type: 'integer' })
  count!: number;

  @Column({ name: 'group_id', type: 'bigint' })
  groupId!: number;

  @Column({ name: 'last_day', type: 'date' })
  lastDay!: string;

  @Column({ type: 'smallint' })
  bin!: number;
}
