import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { EnterpriseEntity } from '../../enterprises/enterprise.entity';

/** Schema of `idempotency_keys`: the first response to an `Idempotency-Key`, replayed for 24 h. */
@Entity({ name: 'idempotency_keys' })
export class IdempotencyKeyEntity {
  @PrimaryColumn({
    name: 'enterprise_id',
    type: 'uuid',
    primaryKeyConstraintName: 'idempotency_keys_pkey',
  })
  enterpriseId!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'idempotency_keys_pkey' })
  key!: string;

  @ManyToOne(() => EnterpriseEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'enterprise_id',
    foreignKeyConstraintName: 'idempotency_keys_enterprise_fkey',
  })
  enterprise?: EnterpriseEntity;

  @Column({ name: 'request_hash', type: 'text' })
  requestHash!: string;

  /** `json`, not `jsonb`: a replay must be byte-identical, key order included. */
  @Column({ type: 'json' })
  response!: unknown;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
