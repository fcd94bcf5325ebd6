import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ForeignKey } from '../database/entity-columns';
import { EventEntity } from './events/event.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

/** Schema of `webhook_deliveries`: one row per (event, endpoint). */
@Entity({ name: 'webhook_deliveries' })
@Index('webhook_deliveries_event_endpoint_idx', ['eventId', 'endpointId'])
// One original delivery per (event, endpoint); replays (POST …/replay) add more.
@Index('webhook_deliveries_original_key', ['eventId', 'endpointId'], {
  unique: true,
  where: 'NOT replay',
})
@Index('webhook_deliveries_due_idx', ['nextAttemptAt'], { where: "status = 'pending'" })
// The oldest pending delivery's age, a figure scraped every few seconds (docs/operations.md).
@Index('webhook_deliveries_pending_created_idx', ['createdAt'], { where: "status = 'pending'" })
@Index('webhook_deliveries_endpoint_idx', ['endpointId', 'createdAt'])
@Check(
  'webhook_deliveries_status_values',
  "(status = ANY (ARRAY['pending'::text, 'delivered'::text, 'failed'::text, 'cancelled'::text]))",
)
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'webhook_deliveries_pkey' })
  id!: string;

  @ForeignKey(() => EventEntity, 'text', 'webhook_deliveries_event_fkey')
  eventId!: string;

  @ForeignKey(() => WebhookEndpointEntity, 'text', 'webhook_deliveries_endpoint_fkey')
  endpointId!: string;

  @Column({ type: 'text', default: 'pending' })
  status!: DeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  /** Made by POST /webhooks/{groupID}/{webhookID}/replay rather than by the event's outbox write. */
  @Column({ type: 'boolean', default: false })
  replay!: boolean;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt!: Date;

  /** A worker's lease: nobody else sends this delivery before then. */
  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil!: Date | null;

  /** When a sweeper last queued (or checked) this delivery's Bull job; null once a worker claims it. */
  @Column({ name: 'queued_at', type: 'timestamptz', nullable: true })
  queuedAt!: Date | null;

  @Column({ name: 'queue_job_id', type: 'text', nullable: true })
  queueJobId!: string | null;

  @Column({ name: 'last_status_code', type: 'integer', nullable: true })
  lastStatusCode!: number | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
