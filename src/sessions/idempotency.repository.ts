import { Injectable } from '@nestjs/common';
import { Database, Sql } from '../database/database';
import type { IdempotencyKeyEntity } from './idempotency-key.entity';

/** `replay`: the first answer as stored, sealed. */
export type IdempotencyClaim =
  { kind: 'claimed' } | { kind: 'replay'; sealedResponse: string } | { kind: 'mismatch' };

/** How long a key's first response is replayed (and kept). */
const IDEMPOTENCY_RETENTION = "interval '24 hours'";

/**
 * `Idempotency-Key` on POST /session/create (docs/checkin-flow.md). The key is claimed inside the request's
 * own transaction: a concurrent request with the same key waits on the primary key until the
 * first commits (then it replays that response) or rolls back (then it runs itself). Only
 * successful responses are kept, sealed by the caller (docs/data-at-rest.md: they hold a live
 * check-in link).
 */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly db: Database) {}

  /** Claims `key` for a request fingerprinted `requestHash`, or answers what its first use left. */
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
      `INSERT INTO idempotency_keys (enterprise_id, key, request_hash)
       VALUES ($1, $2, $3)
       ON CONFLICT (enterprise_id, key) DO NOTHING RETURNING key`,
      [enterpriseId, key, requestHash],
    );
    if (inserted.length > 0) return { kind: 'claimed' };
    const [existing] = await sql.rows<
      Pick<IdempotencyKeyEntity, 'requestHash' | 'responseCiphertext'>
    >(
      `SELECT request_hash AS "requestHash", response_ciphertext AS "responseCiphertext"
         FROM idempotency_keys WHERE enterprise_id = $1 AND key = $2`,
      [enterpriseId, key],
    );
    const matches =
      existing !== undefined &&
      existing.responseCiphertext !== null &&
      existing.requestHash === requestHash;
    if (!matches) return { kind: 'mismatch' };
    return { kind: 'replay', sealedResponse: existing.responseCiphertext as string };
  }

  /** Stores the first answer (sealed by the caller) and the participant it names. */
  async complete(
    enterpriseId: string,
    key: string,
    answer: { sealedResponse: string; externalId: string },
    sql: Sql = this.db,
  ): Promise<void> {
    await sql.rows(
      `UPDATE idempotency_keys SET response_ciphertext = $3, external_id = $4
        WHERE enterprise_id = $1 AND key = $2`,
      [enterpriseId, key, answer.sealedResponse, answer.externalId],
    );
  }

  /** Deletes stored answers that name the participant (erasure, in its transaction). */
  async forgetParticipant(enterpriseId: string, externalId: string, sql: Sql): Promise<void> {
    await sql.rows(`DELETE FROM idempotency_keys WHERE enterprise_id = $1 AND external_id = $2`, [
      enterpriseId,
      externalId,
    ]);
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
