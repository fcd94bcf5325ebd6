import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Schema of `browsers` (docs/privacy.md): every browser identity the server minted, as the SHA-256
 * of the cookie value it set. A cookie value not listed here was never minted by the server (a
 * planted or forged one) and is never adopted: the browser gets a fresh identity instead.
 */
@Entity({ name: 'browsers' })
export class BrowserEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'browsers_pkey' })
  hash!: string;

  @Column({ name: 'minted_at', type: 'timestamptz', default: () => 'now()' })
  mintedAt!: Date;
}
