import { CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MembershipEntity } from './membership.entity';

/**
 * Schema of `membership_raise_answers` (docs/privacy.md, "Keep level N / Go back"): the browsers
 * (the SHA-256 of their identity) that answered "Keep" to the membership's pending raise. An
 * answer holds only in the browser that gave it: every other browser still asks, so a "Keep"
 * the enterprise gives in a browser of its own silences nothing in the member's. A new raise
 * clears them; so does a lowering that undoes the raise.
 */
@Entity({ name: 'membership_raise_answers' })
// A browser's answers: moved when its identity is replaced.
@Index('membership_raise_answers_browser_idx', ['browserHash'])
export class MembershipRaiseAnswerEntity {
  @PrimaryColumn({
    name: 'participant_id',
    type: 'uuid',
    primaryKeyConstraintName: 'membership_raise_answers_pkey',
  })
  participantId!: string;

  @PrimaryColumn({
    name: 'group_id',
    type: 'bigint',
    primaryKeyConstraintName: 'membership_raise_answers_pkey',
  })
  groupId!: number;

  @PrimaryColumn({
    name: 'browser_hash',
    type: 'text',
    primaryKeyConstraintName: 'membership_raise_answers_pkey',
  })
  browserHash!: string;

  @ManyToOne(() => MembershipEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    {
      name: 'participant_id',
      referencedColumnName: 'participantId',
      foreignKeyConstraintName: 'membership_raise_answers_membership_fkey',
    },
    {
      name: 'group_id',
      referencedColumnName: 'groupId',
      foreignKeyConstraintName: 'membership_raise_answers_membership_fkey',
    },
  ])
  membership?: MembershipEntity;

  @CreateDateColumn({ name: 'answered_at', type: 'timestamptz' })
  answeredAt!: Date;
}
