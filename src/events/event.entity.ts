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
import { GroupEntity } from '../groups/group.entity';

/** Schema of `events`, the transactional outbox (DESIGN §9). */
@Entity({ name: 'events' })
@Index('events_group_created_idx', ['groupId', 'createdAt'])
@Check('events_id_format', "(id ~ '^evt_[0-9a-f]{48}$'::text)")
export class EventEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'events_pkey' })
  id!: string;

  @Column({ name: 'enterprise_id', type: 'uuid' })
  enterpriseId!: string;

  @ManyToOne(() => EnterpriseEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'enterprise_id', foreignKeyConstraintName: 'events_enterprise_fkey' })
  enterprise?: EnterpriseEntity;

  @Column({ name: 'group_id', type: 'bigint', nullable: true })
  groupId!: string | null;

  @ManyToOne(() => GroupEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'group_id', foreignKeyConstraintName: 'events_group_fkey' })
  group?: GroupEntity;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'jsonb' })
  payload!: unknown;

  @Column({ name: 'encrypted_pii', type: 'text', nullable: true })
  encryptedPii!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
