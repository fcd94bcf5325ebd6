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
import { GroupEntity } from '../groups/group.entity';
import { ParticipantEntity } from '../participants/participant.entity';

/** Schema of `email_messages`, the email log (DESIGN §10). */
@Entity({ name: 'email_messages' })
@Index('email_messages_participant_type_idx', ['participantId', 'type', 'createdAt'])
@Index('email_messages_queued_idx', ['createdAt'], { where: "status = 'queued'" })
@Check(
  'email_messages_type_values',
  "(type = ANY (ARRAY['checkinReminder'::text, 'privacyRequest'::text]))",
)
@Check(
  'email_messages_status_values',
  "(status = ANY (ARRAY['queued'::text, 'sent'::text, 'failed'::text, 'skipped'::text]))",
)
export class EmailMessageEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'email_messages_pkey' })
  id!: string;

  @Column({ name: 'enterprise_id', type: 'uuid' })
  enterpriseId!: string;

  @ManyToOne(() => EnterpriseEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'enterprise_id', foreignKeyConstraintName: 'email_messages_enterprise_fkey' })
  enterprise?: EnterpriseEntity;

  @Column({ name: 'participant_id', type: 'uuid' })
  participantId!: string;

  @ManyToOne(() => ParticipantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'participant_id',
    foreignKeyConstraintName: 'email_messages_participant_fkey',
  })
  participant?: ParticipantEntity;

  @Column({ name: 'group_id', type: 'bigint' })
  groupId!: string;

  @ManyToOne(() => GroupEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'group_id', foreignKeyConstraintName: 'email_messages_group_fkey' })
  group?: GroupEntity;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'text', default: 'queued' })
  status!: string;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt!: Date | null;
}
