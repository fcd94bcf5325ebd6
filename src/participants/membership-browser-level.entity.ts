import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MAX_PRIVACY_LEVEL, MIN_PRIVACY_LEVEL } from '../common/privacy-model';
import { MembershipEntity } from './membership.entity';

/**
 * Schema of `membership_browser_levels` (docs/privacy.md, "Keep level N / Go back"): for each
 * browser (the SHA-256 of its identity) that chose a level of the membership on a page, the
 * level it last chose itself — or kept, answering "Keep" — lowered by every lowering made since,
 * from anywhere. "Go back" in that browser returns to it; in a browser without a row, to 0 (the
 * level nobody chose). So a raise made in one browser and another made in a second never becomes
 * the level a third browser "goes back" to.
 */
@Entity({ name: 'membership_browser_levels' })
// A browser's rows: moved when its identity is replaced at a Start.
@Index('membership_browser_levels_browser_idx', ['browserHash'])
@Check(
  'membership_browser_levels_level_range',
  `((own_level >= ${MIN_PRIVACY_LEVEL}) AND (own_level <= ${MAX_PRIVACY_LEVEL}))`,
)
export class MembershipBrowserLevelEntity {
  @PrimaryColumn({
    name: 'participant_id',
    type: 'uuid',
    primaryKeyConstraintName: 'membership_browser_levels_pkey',
  })
  participantId!: string;

  @PrimaryColumn({
    name: 'group_id',
    type: 'bigint',
    primaryKeyConstraintName: 'membership_browser_levels_pkey',
  })
  groupId!: number;

  @PrimaryColumn({
    name: 'browser_hash',
    type: 'text',
    primaryKeyConstraintName: 'membership_browser_levels_pkey',
  })
  browserHash!: string;

  @ManyToOne(() => MembershipEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    {
      name: 'participant_id',
      referencedColumnName: 'participantId',
      foreignKeyConstraintName: 'membership_browser_levels_membership_fkey',
    },
    {
      name: 'group_id',
      referencedColumnName: 'groupId',
      foreignKeyConstraintName: 'membership_browser_levels_membership_fkey',
    },
  ])
  membership?: MembershipEntity;

  /** The level this browser last chose or kept, lowered by every lowering since. */
  @Column({ name: 'own_level', type: 'smallint' })
  ownLevel!: number;

  @Column({ name: 'chosen_at', type: 'timestamptz', default: () => 'now()' })
  chosenAt!: Date;
}
