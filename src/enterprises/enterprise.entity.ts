import { Check, Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A tenant. Everything an enterprise owns hangs off this row (ON DELETE CASCADE). */
@Entity({ name: 'enterprises' })
@Check('enterprises_name_not_blank', '(length(btrim(name)) > 0)')
export class EnterpriseEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
