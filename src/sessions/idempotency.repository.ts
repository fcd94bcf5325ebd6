import { Injectable } from '@nestjs/common';
import { Database, Sql } from '../database/database';
import type { IdempotencyKeyEntity } from './idempotency-key.entity';

export type IdempotencyClaim =
  { kind: 'claimed' } | { kind: 'replay'; response: unknown } | { kind: 'mismatch' };

/** How long a key's first response is replayed (and kept). */
const IDEMPOTENCY_RETENTION = "interval '24 hours'";

/**
 * `Idempotency-Key` on POST /session/create (docs/checkin-flow.md). The key is claimed inside the request's
 * own transaction: a concurrent request with the same key waits on the primary key until the
 * first commits (then it replays that response) or rolls back (then it runs itself). Only
 * successful responses are kept.
 */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly db: Database) {}

  async claim(
    enterpriseId: string,
    key: string,
    requestHash: string,
    sql: Sql = this.db,
  ): Promise<IdempotencyClaim> {
    await sql.rows(
      `DELETE FROM idempotency_keys
        WHERE enterprise_id = $1 AND key = $2 AND created_at < now() - ${IDEMPOTENCY_RETENTION}`,
      [enterpriseId, key],
    );
    const inserted = await sql.rows(
      `INSERT INTO idempotency_keys (enterprise_id, key, request_hash, response)
       VALUES ($1, $2, $3, 'null'::json)
       ON CONFLICT (enterprise_id, key) DO NOTHING RETURNING key`,
      [enterpriseId, key, requestHash],
    );
    if (inserted.length > 0) return { kind: 'claimed' };
    const [existing] = await sql.rows<Pick<IdempotencyKeyEntity, 'requestHash' | 'response'>>(
      `SELECT request_hash AS "requestHash", response
         FROM idempotency_keys WHERE enterprise_id = $1 AND key = $2`,
      [enterpriseId, key],
    );
    if (!existing || existing.requestHash !== requestHash) return { kind: 'mismatch' };
    return { kind: 'replay', response: existing.response };
  }

  async complete(
    enterpriseId: string,
    key: string,
    response: unknown,
    sql: Sql = this.db,
  ): Promise<void> {
    await sql.rows(
      'UPDATE idempotency_keys SET response = $3 WHERE enterprise_id = $1 AND key = $2',
      [enterpriseId, key, JSON.stringify(response)],
    );
  }

  /** Deletes stored answers that name the participant (erasure, in its transaction). */
  async forgetParticipant(enterpriseId: string, externalId: string, sql: Sql): Promise<void> {
    await sql.rows(
      `DELETE FROM idempotency_keys
        WHERE enterprise_id = $1 AND response->>'userIdentifier' = $2`,
      [enterpriseId, externalId],
    );
  }

  /**
   * Retention: deletes up to `limit` records older than their 24 h, across tenants (bounded,
   * `FOR UPDATE SKIP LOCKED`); returns how many.
   */
  async deleteExpired(limit: number): Promise<number> {
    const rows = await this.db.rows(
      `DELETE FROM idempotency_keys k
        USING (SELECT enterprise_id, key FROM idempotency_keys
                WHERE created_at < now() - ${IDEMPOTENCY_RETENTION}
                ORDER BY created_at
                LIMIT $1
                FOR UPDATE SKIP LOCKED) due
        WHERE k.enterprise_id = due.enterprise_id AND k.key = due.key
       RETURNING k.key`,
      [limit],
    );
    return rows.length;
  }
}
