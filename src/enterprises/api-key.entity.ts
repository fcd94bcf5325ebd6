import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ForeignKey } from '../database/entity-columns';
import { EnterpriseEntity } from './enterprise.entity';

/** An enterprise API key. Only the SHA-256 of the key is stored; `prefix` is its public part. */
@Entity({ name: 'api_keys' })
@Check('api_keys_key_hash_format', "(key_hash ~ '^[0-9a-f]{64}$'::text)")
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index('api_keys_enterprise_idx')
  @ForeignKey(() => EnterpriseEntity, 'uuid', 'api_keys_enterprise_fkey')
  enterpriseId!: string;

  @Index('api_keys_prefix_key', { unique: true })
  @Column({ type: 'text' })
  prefix!: string;

  @Index('api_keys_key_hash_key', { unique: true })
  @Column({ name: 'key_hash', type: 'text' })
  keyHash!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
