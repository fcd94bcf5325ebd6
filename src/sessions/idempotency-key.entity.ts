import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { ForeignKey } from '../database/entity-columns';
import { EnterpriseEntity } from '../enterprises/enterprise.entity';

/**
 * Schema of `idempotency_keys`: the first response to an `Idempotency-Key`, replayed for 24 h
 * (docs/data-at-rest.md: sealed).
 */
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

  /**
   * The first answer's JSON, encrypted with the data keys (it holds a live check-in link); null
   * while the first request runs.
   */
  @Column({ name: 'response_ciphertext', type: 'text', nullable: true })
  responseCiphertext!: string | null;

  /** The participant the answer names, for erasure (the answer itself is sealed). */
  @Column({ name: 'external_id', type: 'text', nullable: true })
  externalId!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
