import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ForeignKey } from '../database/entity-columns';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

/** Schema of `delivery_attempts`: what happened at each attempt. */
@Entity({ name: 'delivery_attempts' })
@Index('delivery_attempts_delivery_idx', ['deliveryId', 'startedAt'])
export class DeliveryAttemptEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'delivery_attempts_pkey',
  })
  id!: number;

  @ForeignKey(() => WebhookDeliveryEntity, 'uuid', 'delivery_attempts_delivery_fkey')
  deliveryId!: string;

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
