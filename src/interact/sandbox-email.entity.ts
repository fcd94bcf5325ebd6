import { Column, CreateDateColumn, Entity, Index } from 'typeorm';
import { ForeignKey } from '../database/entity-columns';
import { EnterpriseEntity } from '../enterprises/enterprise.entity';
import { EmailMessageEntity } from './email-message.entity';

/**
 * Schema of `sandbox_emails` (docs/integrating.md): a mail of a sandbox enterprise, captured by the email
 * worker instead of being sent — rendered exactly as it would have been sent. The text carries
 * the participant's signed links, so it is stored encrypted like other personal data; the
 * recipient is the participant's (encrypted) email. Deleted with its `email_messages` row
 * (erasure), with its enterprise, and past the newest SANDBOX_EMAILS_KEPT of its enterprise. Read by `GET /sandbox/emails` (src/sandbox/).
 */
/**
 * How many captured mails a sandbox keeps: each capture removes the enterprise's older ones past
 * this many, so a sandbox holds a bounded number of (encrypted) mails and links, and
 * `GET /sandbox/emails` lists every one it keeps.
 */
export const SANDBOX_EMAILS_KEPT = 100;

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
