import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { EnterpriseEntity } from '../enterprises/enterprise.entity';
import { EventEntity } from '../events/event.entity';
import { GroupEntity } from '../groups/group.entity';

/** Schema of `webhook_endpoints`; secrets are stored encrypted (they must be usable to sign). */
@Entity({ name: 'webhook_endpoints' })
@Index('webhook_endpoints_group_idx', ['groupId', 'createdAt'])
@Check('webhook_endpoints_id_format', "(id ~ '^we_[0-9A-Za-z]{24}$'::text)")
@Check(
  'webhook_endpoints_status_values',
  "(status = ANY (ARRAY['enabled'::text, 'disabled'::text]))",
)
export class WebhookEndpointEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'webhook_endpoints_pkey' })
  id!: string;

  @Column({ name: 'enterprise_id', type: 'uuid' })
  enterpriseId!: string;

  @ManyToOne(() => EnterpriseEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'enterprise_id',
    foreignKeyConstraintName: 'webhook_endpoints_enterprise_fkey',
  })
  enterprise?: EnterpriseEntity;

  @Column({ name: 'group_id', type: 'bigint' })
  groupId!: string;

  @ManyToOne(() => GroupEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'group_id', foreignKeyConstraintName: 'webhook_endpoints_group_fkey' })
  group?: GroupEntity;

  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'text', default: 'enabled' })
  status!: 'enabled' | 'disabled';

  @Column({ name: 'enabled_events', type: 'text', array: true })
  enabledEvents!: string[];

  @Column({ name: 'secret_ciphertext', type: 'text' })
  secretCiphertext!: string;

  @Column({ name: 'previous_secret_ciphertext', type: 'text', nullable: true })
  previousSecretCiphertext!: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previousSecretExpiresAt!: Date | null;

  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** Schema of `webhook_deliveries`: one row per (event, endpoint). */
@Entity({ name: 'webhook_deliveries' })
@Index('webhook_deliveries_event_endpoint_key', ['eventId', 'endpointId'], { unique: true })
@Index('webhook_deliveries_due_idx', ['nextAttemptAt'], { where: "status = 'pending'" })
@Index('webhook_deliveries_endpoint_idx', ['endpointId', 'createdAt'])
@Check(
  'webhook_deliveries_status_values',
  "(status = ANY (ARRAY['pending'::text, 'delivered'::text, 'failed'::text, 'cancelled'::text]))",
)
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'webhook_deliveries_pkey' })
  id!: string;

  @Column({ name: 'event_id', type: 'text' })
  eventId!: string;

  @ManyToOne(() => EventEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id', foreignKeyConstraintName: 'webhook_deliveries_event_fkey' })
  event?: EventEntity;

  @Column({ name: 'endpoint_id', type: 'text' })
  endpointId!: string;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'webhook_deliveries_endpoint_fkey' })
  endpoint?: WebhookEndpointEntity;

  @Column({ type: 'text', default: 'pending' })
  status!: string;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt!: Date;

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

/** Schema of `delivery_attempts`: what happened at each attempt. */
@Entity({ name: 'delivery_attempts' })
@Index('delivery_attempts_delivery_idx', ['deliveryId', 'startedAt'])
export class DeliveryAttemptEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'delivery_attempts_pkey',
  })
  id!: string;

  @Column({ name: 'delivery_id', type: 'uuid' })
  deliveryId!: string;

  @ManyToOne(() => WebhookDeliveryEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id', foreignKeyConstraintName: 'delivery_attempts_delivery_fkey' })
  delivery?: WebhookDeliveryEntity;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt!: Date;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs!: number;

  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode!: number | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'response_excerpt', type: 'text', nullable: true })
  responseExcerpt!: string | null;
}
