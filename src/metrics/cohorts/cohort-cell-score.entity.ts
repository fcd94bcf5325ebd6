import { Check, Column, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { CohortCellEntity } from './cohort-cell.entity';

/**
 * Schema of `cohort_cell_scores`: a sealed cell's exact MHCI histogram (value → how many sessions),
 * so min, max, mean and continuous percentiles over any union of cells are exact.
 */
@Entity({ name: 'cohort_cell_scores' })
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
}
