import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ForeignKey } from '../../database/entity-columns';
import { EnterpriseEntity } from '../enterprise.entity';

/**
 * Schema of `programme_declarations`, the ledger of programme declarations (docs/compliance.md):
 * one row per change, never updated — who declared, when, what it replaced and what it is.
 * Deleted with its enterprise.
 */
@Entity({ name: 'programme_declarations' })
@Index('programme_declarations_enterprise_idx', ['enterpriseId', 'declaredAt'])
export class ProgrammeDeclarationEntity {
  @PrimaryGeneratedColumn('identity', {
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'programme_declarations_pkey',
  })
  id!: number;

  @ForeignKey(() => EnterpriseEntity, 'uuid', 'programme_declarations_enterprise_fkey')
  enterpriseId!: string;

  @Column({ name: 'declared_at', type: 'timestamptz' })
  declaredAt!: Date;

  /** The operator who declared (`--by`, else the account the CLI ran as). */
  @Column({ name: 'declared_by', type: 'text' })
  declaredBy!: string;

  /** The declaration it replaced, {jurisdiction, purpose, basis, contact}; null: there was none. */
  @Column({ type: 'jsonb', nullable: true })
  previous!: Record<string, string> | null;

  /** The declaration, {jurisdiction, purpose, basis, contact}. */
  @Column({ type: 'jsonb' })
  declaration!: Record<string, string>;
}
