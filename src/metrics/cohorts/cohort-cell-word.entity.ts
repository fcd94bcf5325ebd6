import { Check, Column, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { CohortCellEntity } from './cohort-cell.entity';

/**
 * Schema of `cohort_cell_words`: the words a cell released (word-release.ts), each with its noisy
 * count of speakers. A word that did not pass the release's threshold is never stored.
 */
@Entity({ name: 'cohort_cell_words' })
@Check('cohort_cell_words_count', '(count >= 1)')
export class CohortCellWordEntity {
  @ForeignKey(() => CohortCellEntity, 'bigint', 'cohort_cell_words_cell_fkey', {
    primaryKey: 'cohort_cell_words_pkey',
  })
  cellId!: number;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'cohort_cell_words_pkey' })
  word!: string;

  @Column({ type: 'bigint' })
  count!: number;
}
