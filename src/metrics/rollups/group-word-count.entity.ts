import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { GroupEntity } from '../../groups/group.entity';

/** Schema of `group_word_counts`: the per-group, per-day rollup read by group word clouds. */
@Entity({ name: 'group_word_counts' })
export class GroupWordCountEntity {
  @ForeignKey(() => GroupEntity, 'bigint', 'group_word_counts_group_fkey', {
    primaryKey: 'group_word_counts_pkey',
  })
  groupId!: number;

  /** The UTC day of completion. */
  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'group_word_counts_pkey' })
  day!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'group_word_counts_pkey' })
  word!: string;

  @Column({ type: 'bigint' })
  count!: number;
}
