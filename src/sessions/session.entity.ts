import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { MAX_PRIVACY_LEVEL, MIN_PRIVACY_LEVEL } from '../common/privacy-model';
import { ForeignKey } from '../database/entity-columns';
import { EnterpriseEntity } from '../enterprises/enterprise.entity';
import { MembershipEntity } from '../participants/membership.entity';

/**
 * `vision` and `audio` are inferred from voice and face: absent from a result recorded with
 * biometric inference off (docs/compliance.md).
 */
export interface Subscores {
  vision?: number;
  audio?: number;
  transcript: number;
  assessment: number;
}

export interface TranscriptTurn {
  role: 'assistant' | 'user';
  content: string;
}

/** Schema of `sessions`: a check-in and, once completed, its result. */
@Entity({ name: 'sessions' })
// Covering partial indexes with INCLUDE columns, which TypeORM cannot describe: the migration
// owns them and schema comparison leaves them alone.
@Index('sessions_group_completed_mhci_idx', { synchronize: false })
@Index('sessions_participant_completed_mhci_idx', { synchronize: false })
@Index('sessions_participant_created_idx', ['participantId', 'createdAt'])
// The retention sweep's work list: completed sessions still holding a transcript, oldest first.
@Index('sessions_transcript_retention_idx', ['completedAt'], { where: 'transcript IS NOT NULL' })
// What the workers' reconciliation of the group comparisons reads (docs/checkin-flow.md): sessions
// shared at level 5 whose features are not counted yet, and counted ones whose level went below
// 5. Both are empty while every change goes through the participant's choices.
@Index('sessions_features_to_share_idx', ['groupId'], {
  where: '((shared_level = 5) AND (NOT features_shared) AND (features IS NOT NULL))',
})
@Index('sessions_features_to_unshare_idx', ['groupId'], {
  where: '(features_shared AND (shared_level < 5))',
})
// The confirm step finds a hand-off by its token (docs/checkin-flow.md, "Hand-off").
@Index('sessions_handoff_token_idx', ['handoffTokenHash'], {
  unique: true,
  where: '(handoff_token_hash IS NOT NULL)',
})
@Check('sessions_session_id_format', "(session_id ~ '^ses_[0-9A-Za-z]{24}$'::text)")
@Check('sessions_status_values', "(status = ANY (ARRAY['created'::text, 'completed'::text]))")
@Check(
  'sessions_completed_consistency',
  "((status = 'completed'::text) = (completed_at IS NOT NULL))",
)
@Check(
  'sessions_shared_level_range',
  `((shared_level >= ${MIN_PRIVACY_LEVEL}) AND (shared_level <= ${MAX_PRIVACY_LEVEL}))`,
)
export class SessionEntity {
  @PrimaryColumn({ name: 'session_id', type: 'text', primaryKeyConstraintName: 'sessions_pkey' })
  sessionId!: string;

  @ForeignKey(() => EnterpriseEntity, 'uuid', 'sessions_enterprise_fkey')
  enterpriseId!: string;

  @Column({ name: 'participant_id', type: 'uuid' })
  participantId!: string;

  @Column({ name: 'group_id', type: 'bigint' })
  groupId!: number;

  /** The session belongs to a membership: (participant_id, group_id). */
  @ManyToOne(() => MembershipEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    {
      name: 'participant_id',
      referencedColumnName: 'participantId',
      foreignKeyConstraintName: 'sessions_membership_fkey',
    },
    {
      name: 'group_id',
      referencedColumnName: 'groupId',
      foreignKeyConstraintName: 'sessions_membership_fkey',
    },
  ])
  membership?: MembershipEntity;

  @Column({ type: 'text', default: 'created' })
  status!: 'created' | 'completed';

  /**
   * The check-in's own privacy level (docs/privacy.md): set at the hand-off to the engine (or when
   * a result is recorded without one) to the member's level then; raised only from a page in the
   * browser that did the check-in; lowered with every lowering of the member's level. What the API
   * shows of the session is the lower of this and the member's level now. Null until then.
   */
  @Column({ name: 'shared_level', type: 'smallint', nullable: true })
  sharedLevel!: number | null;

  /**
   * When the participant consented to this check-in, on its own page (docs/privacy.md): in a
   * group that requires consent, a result is recorded only for a check-in consented to, by a
   * member whose consent stands. Consent given on another check-in's page does not count.
   */
  @Column({ name: 'consented_at', type: 'timestamptz', nullable: true })
  consentedAt!: Date | null;

  /**
   * Whether a result needs the member's consent to this check-in (docs/privacy.md): the group's
   * `consentRequired` when the session was created, fixed again when it is handed off. Switching
   * the group's flag off later never lets in a result she withdrew from or never consented to.
   */
  @Column({ name: 'consent_required', type: 'boolean', default: false })
  consentRequired!: boolean;

  /**
   * The SHA-256 of the one-time token of the latest hand-off to the engine (docs/checkin-flow.md,
   * "Hand-off"): the engine's address carries the token, the confirm step and the result name it.
   * Null until a page hands the check-in off; a new hand-off replaces it.
   */
  @Column({ name: 'handoff_token_hash', type: 'text', nullable: true })
  handoffTokenHash!: string | null;

  /**
   * When the browser that handed the check-in off confirmed the hand-off (`GET /checkin/confirm`):
   * only then does the result count at the handed-off level.
   */
  @Column({ name: 'handoff_confirmed_at', type: 'timestamptz', nullable: true })
  handoffConfirmedAt!: Date | null;

  /**
   * Whether the engine was allowed to infer from voice and face, fixed at the last hand-off from
   * the enterprise's declared programme (docs/compliance.md): false for `eu` + `wellbeing`. Null
   * until a hand-off (and for sessions handed off before declarations existed).
   */
  @Column({ type: 'boolean', nullable: true })
  biometric!: boolean | null;

  /**
   * The result was recorded at level 0 because no confirmed hand-off led to it (docs/privacy.md):
   * no page can raise it afterwards, as no browser provably did the check-in.
   */
  @Column({ name: 'level_pinned', type: 'boolean', default: false })
  levelPinned!: boolean;

  @Column({ name: 'return_url', type: 'text' })
  returnUrl!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;

  /** The analysis engine's version that scored the session (null while pending). */
  @Column({ type: 'text', nullable: true })
  version!: string | null;

  @Column({ type: 'double precision', nullable: true })
  mhci!: number | null;

  @Column({ type: 'jsonb', nullable: true })
  subscores!: Subscores | null;

  @Column({ name: 'group_percentiles', type: 'jsonb', nullable: true })
  groupPercentiles!: Record<string, number> | null;

  @Column({ name: 'user_percentiles', type: 'jsonb', nullable: true })
  userPercentiles!: Record<string, number> | null;

  /**
   * The turns' JSON, encrypted (transcript-codec.ts); null while pending and once retention has
   * removed it. Not jsonb: the database never sees the text.
   */
  @Column({ type: 'text', nullable: true })
  transcript!: string | null;

  /**
   * The features' JSON (name → value), encrypted like the transcript; null while pending and once
   * retention has removed them.
   */
  @Column({ type: 'text', nullable: true })
  features!: string | null;

  /**
   * The features are counted in the group's comparisons (group_feature_histograms and
   * group_feature_values): the session is shown at level 5 (docs/checkin-flow.md).
   */
  @Column({ name: 'features_shared', type: 'boolean', default: false })
  featuresShared!: boolean;

  /**
   * The counted words of the participant's turns as JSON (word → count), encrypted like the
   * transcript: for their own word cloud and for the words releases of group metrics (docs/metrics.md). Null while
   * pending and once retention has removed the transcript.
   */
  @Column({ name: 'word_counts', type: 'text', nullable: true })
  wordCounts!: string | null;

  /** How many words were counted (not which): whether the session gives a word cloud anything. */
  @Column({ name: 'counted_words', type: 'integer', nullable: true })
  countedWords!: number | null;

  /** SHA-256 of the result as posted: a repeated post is told apart from a different one. */
  @Column({ name: 'result_hash', type: 'text', nullable: true })
  resultHash!: string | null;

  @Column({ type: 'boolean', default: false })
  synthetic!: boolean;
}
