import { Injectable } from '@nestjs/common';
import { Database, Sql } from '../database/database';

/** What the server knows of a browser identity (the SHA-256 of a cookie value it set). */
export type BrowserIdentity =
  /** Minted and still the browser's. */
  | { replacedBy: null }
  /** Replaced at a later Start: the identity that took its place. */
  | { replacedBy: string };

/** `browsers`' SQL: the browser identities the server minted (browser-binding.ts). */
@Injectable()
export class BrowsersRepository {
  constructor(private readonly db: Database) {}

  /** Records a freshly minted identity (the SHA-256 of its cookie value). */
  async mint(hash: string, sql: Sql = this.db): Promise<void> {
    await sql.rows('INSERT INTO browsers (hash) VALUES ($1)', [hash]);
  }

  /** The identity as the server knows it; null when the server never minted it. */
  async identityOf(hash: string): Promise<BrowserIdentity | null> {
    const [row] = await this.db.rows<{ replacedBy: string | null }>(
      'SELECT replaced_by AS "replacedBy" FROM browsers WHERE hash = $1',
      [hash],
    );
    return row ? { replacedBy: row.replacedBy } : null;
  }

  /** `from` is replaced by `to` (a Start): it stops being anyone's. */
  async replace(from: string, to: string, sql: Sql): Promise<void> {
    await sql.rows('UPDATE browsers SET replaced_by = $2, replaced_at = now() WHERE hash = $1', [
      from,
      to,
    ]);
  }
}
