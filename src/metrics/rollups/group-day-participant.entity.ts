import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { GroupEntity } from '../../groups/group.entity';
import { ParticipantEntity } from '../../participants/participant.entity';

/**
 * Schema of `group_day_participants`: who completed sessions in a group on a UTC day, and how
 * many of those sessions gave counted words. The exact distinct-participant count of a metric
 * bucket that spans several days (privacy floor, docs/metrics.md) is read from here; so is one
 * participant's share of the rollups.
 */
@Entity({ name: 'group_day_participants' })
// One participant's rows (erasure's share, the cascade when a participant is deleted): without it
// deleting a participant scans the whole table.
@Index('group_day_participants_participant_idx', ['participantId'])
@Check(
  'group_day_participants_counts',
  '((sessions >= 1) AND (word_sessions >= 0) AND (word_sessions <= sessions))',
)
export class GroupDayParticipantEntity {
  @ForeignKey(() => GroupEntity, 'bigint', 'group_day_participants_group_fkey', {
    primaryKey: 'group_day_participants_pkey',
  })
  groupId!: number;

  /** The UTC day of completion. */
  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'group_day_participants_pkey' })
  day!: string;

  @ForeignKey(() => ParticipantEntity, 'uuid', 'group_day_participants_participant_fkey', {
    primaryKey: 'group_day_participants_pkey',
  })
  participantId!: string;

  /** The participant's completed sessions in the group that day. */
  @Column({ type: 'integer' })
  sessions!: number;

  /** How many of them gave at least one counted word (the word cloud's cohort). */
  @Column({ name: 'word_sessions', type: 'integer' })
  wordSessions!: number;
}
