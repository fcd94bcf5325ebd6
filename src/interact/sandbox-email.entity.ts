import { Column, CreateDateColumn, Entity, Index } from 'typeorm';
import { ForeignKey } from '../database/entity-columns';
import { EnterpriseEntity } from '../enterprises/enterprise.entity';
import { EmailMessageEntity } from './email-message.entity';

/**
 * Schema of `sandbox_emails` (DESIGN §17): a mail of a sandbox enterprise, captured by the email
 * worker instead of being sent — rendered exactly as it would have been sent. The text carries
 * the participant's signed links, so it is stored encrypted like other personal data; the
 * recipient is the participant's (encrypted) email. Deleted with its `email_messages` row
 * (erasure) and with its enterprise. Read by `GET /sandbox/emails` (src/sandbox/).
 */
@Entity({ name: 'sandbox_emails' })
@Index('sandbox_emails_enterprise_created_idx', ['enterpriseId', 'createdAt'])
export class SandboxEmailEntity {
  @ForeignKey(() => EmailMessageEntity, 'uuid', 'sandbox_emails_email_message_fkey', {
    primaryKey: 'sandbox_emails_pkey',
  })
  emailMessageId!: string;

  @ForeignKey(() => EnterpriseEntity, 'uuid', 'sandbox_emails_enterprise_fkey')
  enterpriseId!: string;

  @Column({ type: 'text' })
  subject!: string;

  /** The text part, encrypted with the data keys (PiiCipher). */
  @Column({ name: 'text_ciphertext', type: 'text' })
  textCiphertext!: string;

  /** When the mail was captured (when it would have been sent). */
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
