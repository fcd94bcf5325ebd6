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
import { EnterpriseEntity } from '../enterprises/enterprise.entity';
import { MembershipEntity } from '../participants/membership.entity';

/** Schema of `sessions`: a check-in and, once completed, its result. */
@Entity({ name: 'sessions' })
// Covering partial indexes with INCLUDE columns, which TypeORM cannot describe: the migration
// owns them and schema comparison leaves them alone.
@Index('sessions_group_completed_mhci_idx', { synchronize: false })
@Index('sessions_participant_completed_mhci_idx', { synchronize: false })
@Index('sessions_participant_created_idx', ['participantId', 'createdAt'])
@Check('sessions_session_id_format', "(session_id ~ '^ses_[0-9A-Za-z]{24}$'::text)")
@Check('sessions_status_values', "(status = ANY (ARRAY['created'::text, 'completed'::text]))")
@Check(
  'sessions_completed_consistency',
  "((status = 'completed'::text) = (completed_at IS NOT NULL))",
)
export class SessionEntity {
  @PrimaryColumn({ name: 'session_id', type: 'text', primaryKeyConstraintName: 'sessions_pkey' })
  sessionId!: string;

  @Column({ name: 'enterprise_id', type: 'uuid' })
  enterpriseId!: string;

  @ManyToOne(() => EnterpriseEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'enterprise_id', foreignKeyConstraintName: 'sessions_enterprise_fkey' })
  enterprise?: EnterpriseEntity;

  @Column({ name: 'participant_id', type: 'uuid' })
  participantId!: string;

  @Column({ name: 'group_id', type: 'bigint' })
  groupId!: string;

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

  @Column({ name: 'return_url', type: 'text' })
  returnUrl!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;

  @Column({ type: 'text', nullable: true })
  version!: string | null;

  @Column({ type: 'double precision', nullable: true })
  mhci!: number | null;

  @Column({ type: 'jsonb', nullable: true })
  subscores!: unknown;

  @Column({ name: 'group_percentiles', type: 'jsonb', nullable: true })
  groupPercentiles!: unknown;

  @Column({ name: 'user_percentiles', type: 'jsonb', nullable: true })
  userPercentiles!: unknown;

  @Column({ type: 'jsonb', nullable: true })
  transcript!: unknown;

  @Column({ type: 'jsonb', nullable: true })
  features!: unknown;

  @Column({ name: 'result_hash', type: 'text', nullable: true })
  resultHash!: string | null;

  @Column({ type: 'boolean', default: false })
  synthetic!: boolean;
}
