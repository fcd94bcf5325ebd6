import { Injectable } from '@nestjs/common';
import { Database } from '../../database/database';

/** `browsers`' SQL: the browser identities the server minted (browser-binding.ts). */
@Injectable()
export class BrowsersRepository {
  constructor(private readonly db: Database) {}

  /** Records a freshly minted identity (the SHA-256 of its cookie value). */
  async mint(hash: string): Promise<void> {
    await this.db.rows('INSERT INTO browsers (hash) VALUES ($1)', [hash]);
  }

  /** Whether the server minted this identity. */
  async isMinted(hash: string): Promise<boolean> {
    const rows = await this.db.rows('SELECT 1 FROM browsers WHERE hash = $1', [hash]);
    return rows.length > 0;
  }
}
