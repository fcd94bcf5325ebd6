import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ForeignKey } from '../database/entity-columns';
import { EnterpriseEntity } from '../enterprises/enterprise.entity';
import { GroupEntity } from '../groups/group.entity';

export type EndpointStatus = 'enabled' | 'disabled';

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

  @ForeignKey(() => EnterpriseEntity, 'uuid', 'webhook_endpoints_enterprise_fkey')
  enterpriseId!: string;

  @ForeignKey(() => GroupEntity, 'bigint', 'webhook_endpoints_group_fkey')
  groupId!: number;

  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'text', default: 'enabled' })
  status!: EndpointStatus;

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
