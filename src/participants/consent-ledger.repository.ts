import { Injectable } from '@nestjs/common';
import { Database, Sql } from '../database/database';
import type { ConsentRecord } from './consent-history';
import type { ConsentChange, ConsentVia } from './consent-record.entity';

export type { ConsentRecord } from './consent-history';

/** One change to append: who, in which group (null: all of them), what, from, to, where. */
export interface ConsentEntry {
  enterpriseId: string;
  participantId: string;
  groupId: number | null;
  /** The check-in whose page made the change; null elsewhere. */
  sessionId: string | null;
  change: Exclude<ConsentChange, 'erasure'>;
  from: number | boolean;
  to: number | boolean;
  via: Exclude<ConsentVia, 'erasure'>;
}

/** The consent ledger (docs/privacy.md): appended in the transaction of the change, never updated. */
@Injectable()
export class ConsentLedgerRepository {
  constructor(private readonly db: Database) {}

  /** Appends the entries that change something (from ≠ to); the others are no change at all. */
  async append(entries: readonly ConsentEntry[], sql: Sql = this.db): Promise<void> {
    const changes = entries.filter((entry) => entry.from !== entry.to);
    if (changes.length === 0) return;
    await sql.rows(
      `INSERT INTO consent_ledger
              (enterprise_id, participant_id, group_id, change, from_value, to_value, via,
               session_id)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::text[], $5::jsonb[],
                            $6::jsonb[], $7::text[], $8::text[])`,
      [
        changes.map((entry) => entry.enterpriseId),
        changes.map((entry) => entry.participantId),
        changes.map((entry) => entry.groupId),
        changes.map((entry) => entry.change),
        changes.map((entry) => JSON.stringify(entry.from)),
        changes.map((entry) => JSON.stringify(entry.to)),
        changes.map((entry) => entry.via),
        changes.map((entry) => entry.sessionId),
      ],
    );
  }

  /**
   * The one row an erasure leaves (docs/privacy.md): that an erasure happened in the enterprise, and
   * when, with nothing that names the participant.
   */
  async appendErasure(enterpriseId: string, sql: Sql = this.db): Promise<void> {
    await sql.rows(
      `INSERT INTO consent_ledger (enterprise_id, change, via) VALUES ($1, 'erasure', 'erasure')`,
      [enterpriseId],
    );
  }

  /** The participant's history, oldest first, within the enterprise. */
  async list(enterpriseId: string, participantId: string): Promise<ConsentRecord[]> {
    return this.db.rows<ConsentRecord>(
      `SELECT group_id AS "groupID", session_id AS "sessionID", change, from_value AS "from",
              to_value AS "to", at, via
         FROM consent_ledger
        WHERE participant_id = $1 AND enterprise_id = $2
        ORDER BY id`,
      [participantId, enterpriseId],
    );
  }
}
