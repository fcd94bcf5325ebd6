import { Check, Column, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { GroupEntity } from '../../groups/group.entity';

/**
 * Schema of `group_day_counts`: a group's completed sessions per UTC day. Group `count` is exact
 * and live (docs/metrics.md): ingestion adds, erasure subtracts; a year is 365 rows, whatever the
 * group's size.
 */
@Entity({ name: 'group_day_counts' })
@Check('group_day_counts_sessions', '(sessions >= 1)')
export class GroupDayCountEntity {
  @ForeignKey(() => GroupEntity, 'bigint', 'group_day_counts_group_fkey', {
    primaryKey: 'group_day_counts_pkey',
  })
  groupId!: number;

  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'group_day_counts_pkey' })
  day!: string;

  @Column({ type: 'integer' })
  sessions!: number;
}
