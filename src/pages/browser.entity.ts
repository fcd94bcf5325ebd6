import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Schema of `browsers` (docs/privacy.md): every browser identity the server minted, as the SHA-256
 * of the cookie value it set. A cookie value not listed here was never minted by the server (a
 * planted or forged one) and is never adopted: the browser gets a fresh identity instead. Every
 * Start replaces the browser's identity with a new one (`replaced_by`, what it held moves there):
 * a replaced value that comes back is an unknown browser.
 */
@Entity({ name: 'browsers' })
// Whether a device cookie is one the server minted.
@Index('browsers_device_idx', ['deviceHash'], { where: '(device_hash IS NOT NULL)' })
export class BrowserEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'browsers_pkey' })
  hash!: string;

  @Column({ name: 'minted_at', type: 'timestamptz', default: () => 'now()' })
  mintedAt!: Date;

  /** The identity that replaced this one at a Start; null while it is the browser's. */
  @Column({ name: 'replaced_by', type: 'text', nullable: true })
  replacedBy!: string | null;

  @Column({ name: 'replaced_at', type: 'timestamptz', nullable: true })
  replacedAt!: Date | null;

  /**
   * The device this identity was minted for: the SHA-256 of the browser's device cookie, which
   * never rotates (browser-binding.ts). The identity is that browser's only when it comes with the
   * same device cookie; null for identities minted before devices were recorded (any device).
   */
  @Column({ name: 'device_hash', type: 'text', nullable: true })
  deviceHash!: string | null;
}
