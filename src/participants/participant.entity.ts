import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { EnterpriseEntity } from '../enterprises/enterprise.entity';

/** Schema of `participants` (see migrations/). The email is stored encrypted, found by its HMAC. */
@Entity({ name: 'participants' })
@Index('participants_enterprise_email_key', ['enterpriseId', 'emailHash'], { unique: true })
@Check('participants_external_id_format', "(external_id ~ '^ok_[0-9a-f]{48}$'::text)")
@Check(
  'participants_requested_privacy_names',
  "(requested_privacy <@ ARRAY['mhci'::text, 'groupPerecntiles'::text, 'userPercentiles'::text, 'transcript'::text, 'features'::text])",
)
export class ParticipantEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index('participants_external_id_key', { unique: true })
  @Column({ name: 'external_id', type: 'text' })
  externalId!: string;

  @Column({ name: 'enterprise_id', type: 'uuid' })
  enterpriseId!: string;

  @ManyToOne(() => EnterpriseEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'enterprise_id', foreignKeyConstraintName: 'participants_enterprise_fkey' })
  enterprise?: EnterpriseEntity;

  @Column({ name: 'email_ciphertext', type: 'text' })
  emailCiphertext!: string;

  @Column({ name: 'email_hash', type: 'text' })
  emailHash!: string;

  @Column({ name: 'pref_checkin_reminder', type: 'boolean', default: true })
  prefCheckinReminder!: boolean;

  @Column({ name: 'pref_privacy_request', type: 'boolean', default: true })
  prefPrivacyRequest!: boolean;

  @Column({ name: 'requested_privacy', type: 'text', array: true, nullable: true })
  requestedPrivacy!: string[] | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
