import { Check, Column, Entity, Index } from 'typeorm';
import { MAX_PRIVACY_LEVEL, MIN_PRIVACY_LEVEL } from '../common/privacy-model';
import { ForeignKey } from '../database/entity-columns';
import { GroupEntity } from '../groups/group.entity';
import { ParticipantEntity } from './participant.entity';

/** Schema of `memberships`: a participant in a group, with the participant's own privacy level. */
@Entity({ name: 'memberships' })
@Index('memberships_group_idx', ['groupId', 'joinDate'])
// The memberships whose pending raise a browser made: moved when its identity is replaced.
@Index('memberships_raised_in_idx', ['raisedIn'], { where: '(raised_in IS NOT NULL)' })
@Check(
  'memberships_privacy_level_range',
  `((privacy_level >= ${MIN_PRIVACY_LEVEL}) AND (privacy_level <= ${MAX_PRIVACY_LEVEL}))`,
)
export class MembershipEntity {
  @ForeignKey(() => ParticipantEntity, 'uuid', 'memberships_participant_fkey', {
    primaryKey: 'memberships_pkey',
  })
  participantId!: string;

  @ForeignKey(() => GroupEntity, 'bigint', 'memberships_group_fkey', {
    primaryKey: 'memberships_pkey',
  })
  groupId!: number;

  @Column({ name: 'join_date', type: 'timestamptz', default: () => 'now()' })
  joinDate!: Date;

  /** 0–5, set by the participant only (docs/privacy.md). */
  @Column({ name: 'privacy_level', type: 'smallint', default: 0 })
  privacyLevel!: number;

  /**
   * The browser (the SHA-256 of its identity) whose page made the last raise of the level, while
   * that raise is unconfirmed elsewhere: a check-in in another browser asks "keep it or go back"
   * before its hand-off (docs/privacy.md). Null when nothing is pending.
   */
  @Column({ name: 'raised_in', type: 'text', nullable: true })
  raisedIn!: string | null;

  /** The level before that browser's raises: what "Go back" returns to. */
  @Column({ name: 'level_before_raise', type: 'smallint', nullable: true })
  levelBeforeRaise!: number | null;

  @Column({ name: 'consented_at', type: 'timestamptz', nullable: true })
  consentedAt!: Date | null;

  /**
   * Carried by the membership's settings and unsubscribe links; bumping it invalidates every
   * earlier link (docs/security.md: sign-out, consent withdrawal).
   */
  @Column({ name: 'link_version', type: 'integer', default: 0 })
  linkVersion!: number;
}
