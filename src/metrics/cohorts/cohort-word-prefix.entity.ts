import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { GroupEntity } from '../../groups/group.entity';

/**
 * Schema of `cohort_word_prefixes` (the second version's, no longer written: docs/metrics.md, "Upgrade"): for each sealed
 * words cell (by its last day), the running count of every word its group's word cells hold up to
 * and including it. The words of the cells between two days are the difference of two days' rows,
 * so a year's cloud reads two sets of rows, not a year of cells. Holds only words the cells hold
 * (said by enough speakers).
 */
@Entity({ name: 'cohort_word_prefixes' })
export class CohortWordPrefixEntity {
  @ForeignKey(() => GroupEntity, 'bigint', 'cohort_word_prefixes_group_fkey', {
    primaryKey: 'cohort_word_prefixes_pkey',
  })
  groupId!: number;

  @PrimaryColumn({
    name: 'last_day',
    type: 'date',
    primaryKeyConstraintName: 'cohort_word_prefixes_pkey',
  })
  lastDay!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'cohort_word_prefixes_pkey' })
  word!: string;

  @Column({ type: 'bigint' })
  count!: number;
}
