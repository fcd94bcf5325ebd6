import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { PRIVACY_NAMES_CHECK, type PrivacyName } from '../common/privacy-model';
import { ForeignKey } from '../database/entity-columns';
import { EnterpriseEntity } from '../enterprises/enterprise.entity';

/** Schema of `groups` (see migrations/); the repository reads and writes it with plain SQL. */
@Entity({ name: 'groups' })
@Index('groups_enterprise_idx', ['enterpriseId', 'groupId'])
@Check('groups_requested_privacy_names', PRIVACY_NAMES_CHECK)
export class GroupEntity {
  /** A JSON number (docs/design.md): bigint ids fit in 2^53 and are read as numbers. */
  @PrimaryGeneratedColumn('identity', {
    name: 'group_id',
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
  })
  groupId!: number;

  @ForeignKey(() => EnterpriseEntity, 'uuid', 'groups_enterprise_fkey')
  enterpriseId!: string;

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

  /** The group's privacy request, canonical names (`[]` = none). */
  @Column({ name: 'requested_privacy', type: 'text', array: true, default: () => "'{}'" })
  requestedPrivacy!: PrivacyName[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
