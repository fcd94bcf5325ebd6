import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { EnterpriseEntity } from '../enterprises/enterprise.entity';

/** Schema of `groups` (see migrations/); the repository reads and writes it with plain SQL. */
@Entity({ name: 'groups' })
@Index('groups_enterprise_idx', ['enterpriseId', 'groupId'])
@Check(
  'groups_requested_privacy_names',
  "(requested_privacy <@ ARRAY['mhci'::text, 'groupPerecntiles'::text, 'userPercentiles'::text, 'transcript'::text, 'features'::text])",
)
export class GroupEntity {
  @PrimaryGeneratedColumn('identity', {
    name: 'group_id',
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
  })
  groupId!: string;

  @Column({ name: 'enterprise_id', type: 'uuid' })
  enterpriseId!: string;

  @ManyToOne(() => EnterpriseEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'enterprise_id', foreignKeyConstraintName: 'groups_enterprise_fkey' })
  enterprise?: EnterpriseEntity;

  @Column({ type: 'text' })
  name!: string;

  @Index('groups_key_key', { unique: true })
  @Column({ type: 'text' })
  key!: string;

  @Index('groups_invite_code_key', { unique: true })
  @Column({ name: 'invite_code', type: 'text' })
  inviteCode!: string;

  @Column({ name: 'consent_required', type: 'boolean', default: false })
  consentRequired!: boolean;

  @Column({ type: 'integer', default: 0 })
  credits!: number;

  @Column({ name: 'requested_privacy', type: 'text', array: true, default: () => "'{}'" })
  requestedPrivacy!: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
