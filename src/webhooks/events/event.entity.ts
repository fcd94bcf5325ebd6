import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { EnterpriseEntity } from '../../enterprises/enterprise.entity';
import type { StoredTraceContext } from '../../common/telemetry/trace-context';
import { GroupEntity } from '../../groups/group.entity';

/** Schema of `events`, the transactional outbox (docs/webhooks.md). */
@Entity({ name: 'events' })
@Index('events_group_created_idx', ['groupId', 'createdAt'])
// Retention's work list: events still holding personal data (cleared once delivered).
@Index('events_pii_held_idx', ['createdAt'], { where: 'encrypted_pii IS NOT NULL' })
@Check('events_id_format', "(id ~ '^evt_[0-9a-f]{48}$'::text)")
export class EventEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'events_pkey' })
  id!: string;

  @ForeignKey(() => EnterpriseEntity, 'uuid', 'events_enterprise_fkey')
  enterpriseId!: string;

  @ForeignKey(() => GroupEntity, 'bigint', 'events_group_fkey', { nullable: true })
  groupId!: number | null;

  @Column({ type: 'text' })
  type!: string;

  /** The event's data object, without personal data (that is `encryptedPii`). */
  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  /** Cleared by the retention sweep once every delivery of the event is final. */
  @Column({ name: 'encrypted_pii', type: 'text', nullable: true })
  encryptedPii!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /**
   * The trace context of the request that wrote the event, the parent of its deliveries' spans
   * (docs/operations.md, "Traces"); null when tracing was off.
   */
  @Column({ name: 'trace_context', type: 'jsonb', nullable: true })
  traceContext!: StoredTraceContext | null;
}
