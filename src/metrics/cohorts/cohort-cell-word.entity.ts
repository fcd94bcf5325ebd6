import { Check, Column, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { CohortCellEntity } from './cohort-cell.entity';

/**
 * Schema of `cohort_cell_words`: a sealed cell's word counts, only of words said by at least the
 * enterprise's `minWordSpeakers` participants of the cell (rarer words are never stored).
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
