import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { StoredTraceContext } from '../common/telemetry/trace-context';
import { ForeignKey } from '../database/entity-columns';
import { EnterpriseEntity } from '../enterprises/enterprise.entity';
import { GroupEntity } from '../groups/group.entity';
import { ParticipantEntity } from '../participants/participant.entity';
import { MAIL_TYPES, type MailType } from './interact.errors';
import type { StoredNoticeDetails } from './privacy-notice';

export type EmailStatus = 'queued' | 'sent' | 'failed' | 'skipped';

/** Schema of `email_messages`, the email log (docs/emails.md). */
@Entity({ name: 'email_messages' })
@Index('email_messages_participant_type_idx', ['participantId', 'type', 'createdAt'])
@Index('email_messages_queued_idx', ['createdAt'], { where: "status = 'queued'" })
@Check(
  'email_messages_type_values',
  `(type = ANY (ARRAY[${MAIL_TYPES.map((type) => `'${type}'::text`).join(', ')}]))`,
)
@Check(
  'email_messages_status_values',
  "(status = ANY (ARRAY['queued'::text, 'sent'::text, 'failed'::text, 'skipped'::text]))",
)
export class EmailMessageEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'email_messages_pkey' })
  id!: string;

  @ForeignKey(() => EnterpriseEntity, 'uuid', 'email_messages_enterprise_fkey')
  enterpriseId!: string;

  @ForeignKey(() => ParticipantEntity, 'uuid', 'email_messages_participant_fkey')
  participantId!: string;

  @ForeignKey(() => GroupEntity, 'bigint', 'email_messages_group_fkey')
  groupId!: number;

  @Column({ type: 'text' })
  type!: MailType;

  /** What a `privacyNotice` says: the raises it carries (privacy-notice.ts); null for other types. */
  @Column({ type: 'jsonb', nullable: true })
  details!: StoredNoticeDetails | null;

  /**
   * Not to be sent before this time; null: at once. A notice of raises made within
   * EMAIL_DEDUP_WINDOW of the previous notice's sending waits for the window's end (docs/emails.md).
   */
  @Column({ name: 'send_after', type: 'timestamptz', nullable: true })
  sendAfter!: Date | null;

  @Column({ type: 'text', default: 'queued' })
  status!: EmailStatus;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt!: Date | null;

  /**
   * The trace context of the request that queued the mail, the parent of its sending span
   * (docs/operations.md, "Traces"); null when tracing was off.
   */
  @Column({ name: 'trace_context', type: 'jsonb', nullable: true })
  traceContext!: StoredTraceContext | null;
}
