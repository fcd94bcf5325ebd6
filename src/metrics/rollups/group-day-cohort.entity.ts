import { Check, Column, Entity, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { GroupEntity } from '../../groups/group.entity';

/**
 * Schema of `group_day_cohorts`: per group and UTC day, how many distinct participants completed
 * sessions, and how many of them gave counted words. A metric bucket whose busiest day already
 * reaches the privacy floor (docs/metrics.md) is decided from these rows alone, so a year of a large
 * group costs 365 rows, not a scan of its sessions.
 */
@Entity({ name: 'group_day_cohorts' })
@Check(
  'group_day_cohorts_counts',
  '((participants >= 1) AND (word_participants >= 0) AND (word_participants <= participants))',
)
export class GroupDayCohortEntity {
  @ForeignKey(() => GroupEntity, 'bigint', 'group_day_cohorts_group_fkey', {
    primaryKey: 'group_day_cohorts_pkey',
  })
  groupId!: number;

  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'group_day_cohorts_pkey' })
  day!: string;

  @Column({ type: 'integer' })
  participants!: number;

  @Column({ name: 'word_participants', type: 'integer' })
  wordParticipants!: number;
}
