import { Injectable } from '@nestjs/common';
import { Database, Sql } from '../database/database';

/**
 * `link_bindings`' SQL: which browser (the SHA-256 of its cookie) holds which participant link
 * (browser-binding.ts). The pages' own table; rows of an erased participant go with them (ON
 * DELETE CASCADE).
 */
@Injectable()
export class LinkBindingsRepository {
  constructor(private readonly db: Database) {}

  /** The hash of the browser holding the link; null while it is unbound. */
  async holderOf(link: string, sql: Sql = this.db): Promise<string | null> {
    const [row] = await sql.rows<{ browserHash: string }>(
      'SELECT browser_hash AS "browserHash" FROM link_bindings WHERE link = $1',
      [link],
    );
    return row?.browserHash ?? null;
  }

  /**
   * Binds the link to the browser unless another holds it (the first wins, also when two race);
   * answers the hash of the browser that holds it now.
   */
  async bind(
    link: string,
    browserHash: string,
    participantId: string,
    sql: Sql = this.db,
  ): Promise<string | null> {
    const [row] = await sql.rows<{ browserHash: string }>(
      `WITH bound AS (
         INSERT INTO link_bindings (link, browser_hash, participant_id) VALUES ($1, $2, $3)
         ON CONFLICT (link) DO NOTHING RETURNING browser_hash)
       SELECT browser_hash AS "browserHash" FROM bound
       UNION ALL
       SELECT browser_hash FROM link_bindings WHERE link = $1 AND NOT EXISTS (SELECT 1 FROM bound)`,
      [link, browserHash, participantId],
    );
    return row?.browserHash ?? null;
  }

  /** A browser's identity was replaced at a Start: every link it held is the new identity's. */
  async moveBrowser(from: string, to: string, sql: Sql): Promise<void> {
    await sql.rows('UPDATE link_bindings SET browser_hash = $2 WHERE browser_hash = $1', [
      from,
      to,
    ]);
  }

  /**
   * Moves a settings link's binding to the link that replaces it, and drops the participant's
   * other settings-link bindings (all of revoked links by then).
   */
  async move(from: string, to: string, participantId: string): Promise<void> {
    await this.db.rows(
      `WITH moved AS (
         UPDATE link_bindings SET link = $2 WHERE link = $1 AND participant_id = $3 RETURNING link)
       DELETE FROM link_bindings
        WHERE participant_id = $3 AND link LIKE 'settings:%' AND link <> $2 AND link <> $1`,
      [from, to, participantId],
    );
  }
}
