import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../database/entity-columns';
import { EnterpriseEntity } from '../enterprises/enterprise.entity';

/** Schema of `idempotency_keys`: the first response to an `Idempotency-Key`, replayed for 24 h. */
@Entity({ name: 'idempotency_keys' })
// Retention deletes records older than 24 h, oldest first.
@Index('idempotency_keys_created_idx', ['createdAt'])
export class IdempotencyKeyEntity {
  @ForeignKey(() => EnterpriseEntity, 'uuid', 'idempotency_keys_enterprise_fkey', {
    primaryKey: 'idempotency_keys_pkey',
  })
  enterpriseId!: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'idempotency_keys_pkey' })
  key!: string;

  @Column({ name: 'request_hash', type: 'text' })
  requestHash!: string;

  /** `json`, not `jsonb`: a replay must be byte-identical, key order included. */
  @Column({ type: 'json' })
  response!: unknown;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
