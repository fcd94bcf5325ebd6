import { Injectable } from '@nestjs/common';
import { Database, Sql } from '../database/database';

/** What the server knows of a browser identity (the SHA-256 of a cookie value it set). */
export interface BrowserIdentity {
  /** Replaced at a later Start: the identity that took its place, and when; null while current. */
  replacedBy: string | null;
  replacedAt: Date | null;
  /** The device it was minted for (SHA-256 of the device cookie); null: minted before devices. */
  deviceHash: string | null;
}

/** `browsers`' SQL: the browser identities the server minted (browser-binding.ts). */
@Injectable()
export class BrowsersRepository {
  constructor(private readonly db: Database) {}

  /** Records a freshly minted identity (the SHA-256 of its cookie value). */
  async mint(hash: string, deviceHash: string, sql: Sql = this.db): Promise<void> {
    await sql.rows('INSERT INTO browsers (hash, device_hash) VALUES ($1, $2)', [hash, deviceHash]);
  }

  /**
   * The identity as the server knows it; null when the server never minted it. `lock`: its row
   * stays locked for the rest of the transaction `sql` (a Start's).
   */
  async identityOf(
    hash: string,
    sql: Sql = this.db,
    options: { lock?: boolean } = {},
  ): Promise<BrowserIdentity | null> {
    const [row] = await sql.rows<BrowserIdentity>(
      `SELECT replaced_by AS "replacedBy", replaced_at AS "replacedAt", device_hash AS "deviceHash"
         FROM browsers WHERE hash = $1${options.lock ? ' FOR UPDATE' : ''}`,
      [hash],
    );
    return row ?? null;
  }

  /** Whether the server minted an identity for this device (the SHA-256 of its cookie). */
  async deviceKnown(deviceHash: string): Promise<boolean> {
    const rows = await this.db.rows('SELECT 1 FROM browsers WHERE device_hash = $1 LIMIT 1', [
      deviceHash,
    ]);
    return rows.length > 0;
  }

  /** `from` is replaced by `to` (a Start): it stops being anyone's. */
  async replace(from: string, to: string, sql: Sql): Promise<void> {
    await sql.rows('UPDATE browsers SET replaced_by = $2, replaced_at = now() WHERE hash = $1', [
      from,
      to,
    ]);
  }
}
