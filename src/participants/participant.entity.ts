import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { PRIVACY_NAMES_CHECK, type PrivacyName } from '../common/privacy-model';
import { ForeignKey } from '../database/entity-columns';
import { EnterpriseEntity } from '../enterprises/enterprise.entity';

/** Schema of `participants` (see migrations/). The email is stored encrypted, found by its HMAC. */
@Entity({ name: 'participants' })
@Index('participants_enterprise_email_key', ['enterpriseId', 'emailHash'], { unique: true })
@Check('participants_external_id_format', "(external_id ~ '^ok_[0-9a-f]{48}$'::text)")
@Check('participants_requested_privacy_names', PRIVACY_NAMES_CHECK)
@Check(
  'participants_language_format',
  "(language ~ '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8}){0,3}$'::text)",
)
export class ParticipantEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index('participants_external_id_key', { unique: true })
  @Column({ name: 'external_id', type: 'text' })
  externalId!: string;

  @ForeignKey(() => EnterpriseEntity, 'uuid', 'participants_enterprise_fkey')
  enterpriseId!: string;

  @Column({ name: 'email_ciphertext', type: 'text' })
  emailCiphertext!: string;

  @Column({ name: 'email_hash', type: 'text' })
  emailHash!: string;

  @Column({ name: 'pref_checkin_reminder', type: 'boolean', default: true })
  prefCheckinReminder!: boolean;

  @Column({ name: 'pref_privacy_request', type: 'boolean', default: true })
  prefPrivacyRequest!: boolean;

  /** The participant's own privacy request, overriding their groups' (null = none). */
  @Column({ name: 'requested_privacy', type: 'text', array: true, nullable: true })
  requestedPrivacy!: PrivacyName[] | null;

  /**
   * The language the participant chose on their pages (docs/i18n.md): their pages' and mails'
   * language. Null = never chosen. Never shown to the enterprise.
   */
  @Column({ type: 'text', nullable: true })
  language!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
