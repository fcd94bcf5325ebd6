import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { GroupEntity } from '../groups/group.entity';
import { ParticipantEntity } from './participant.entity';

/** Schema of `memberships`: a participant in a group, with the participant's own privacy level. */
@Entity({ name: 'memberships' })
@Index('memberships_group_idx', ['groupId', 'joinDate'])
@Check('memberships_privacy_level_range', '((privacy_level >= 0) AND (privacy_level <= 5))')
export class MembershipEntity {
  @PrimaryColumn({
    name: 'participant_id',
    type: 'uuid',
    primaryKeyConstraintName: 'memberships_pkey',
  })
  participantId!: string;

  @PrimaryColumn({ name: 'group_id', type: 'bigint', primaryKeyConstraintName: 'memberships_pkey' })
  groupId!: string;

  @ManyToOne(() => ParticipantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'participant_id', foreignKeyConstraintName: 'memberships_participant_fkey' })
  participant?: ParticipantEntity;

  @ManyToOne(() => GroupEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'group_id', foreignKeyConstraintName: 'memberships_group_fkey' })
  group?: GroupEntity;

  @Column({ name: 'join_date', type: 'timestamptz', default: () => 'now()' })
  joinDate!: Date;

  @Column({ name: 'privacy_level', type: 'smallint', default: 0 })
  privacyLevel!: number;

  @Column({ name: 'consented_at', type: 'timestamptz', nullable: true })
  consentedAt!: Date | null;
}
