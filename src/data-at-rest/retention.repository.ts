import { Injectable } from '@nestjs/common';
import { Database, Sql } from '../database/database';
import { IDEMPOTENCY_RETENTION } from '../sessions/idempotency.repository';

/**
 * The SQL of data at rest: the encryption pass over transcripts stored before encryption, and the
 * retention sweeps (DESIGN §14). System work across every tenant, as the delivery lease is: it
 * acts on the data's age, not on behalf of an enterprise. Every statement is bounded (`limit`
 * rows) and takes its rows `FOR UPDATE SKIP LOCKED`, so two workers sweep disjoint rows and never
 * wait on each other or on a request.
 */
@Injectable()
export class RetentionRepository {
  constructor(private readonly db: Database) {}

  /** Up to `limit` transcripts still in plaintext, locked for the caller's transaction. */
  async lockPlaintextTranscripts(
    limit: number,
    sql: Sql = this.db,
  ): Promise<{ sessionId: string; transcript: string }[]> {
    return sql.rows(
      `SELECT session_id AS "sessionId", transcript FROM sessions
        WHERE transcript LIKE '[%'
        LIMIT $1
        FOR UPDATE SKIP LOCKED`,
      [limit],
    );
  }

  async storeSealedTranscripts(
    sealed: { sessionId: string; transcript: string }[],
    sql: Sql = this.db,
  ): Promise<void> {
    await sql.rows(
      `UPDATE sessions s SET transcript = v.transcript
         FROM unnest($1::text[], $2::text[]) AS v(session_id, transcript)
        WHERE s.session_id = v.session_id`,
      [sealed.map((row) => row.sessionId), sealed.map((row) => row.transcript)],
    );
  }

  /**
   * Removes the transcript and features of up to `limit` sessions completed before
   * `completedBefore`, with what was derived from them per session: their word counts (a bag of
   * the participant's words) and their feature rows (which only served percentiles). The scores
   * stay; group rollups and histograms (anonymous counts) are left as they are. Returns how many
   * sessions it cleared.
   */
  async removeExpiredTranscripts(completedBefore: Date, limit: number): Promise<number> {
    const rows = await this.db.rows(
      `WITH due AS (
         SELECT session_id FROM sessions
          WHERE transcript IS NOT NULL AND completed_at < $1
          ORDER BY completed_at
          LIMIT $2
          FOR UPDATE SKIP LOCKED),
       words AS (DELETE FROM session_word_counts w USING due WHERE w.session_id = due.session_id),
       features AS (DELETE FROM session_features f USING due WHERE f.session_id = due.session_id)
       UPDATE sessions s SET transcript = NULL, features = NULL
         FROM due WHERE s.session_id = due.session_id
       RETURNING s.session_id`,
      [completedBefore, limit],
    );
    return rows.length;
  }

  /** Deletes up to `limit` idempotency records older than their 24 h; returns how many. */
  async deleteExpiredIdempotencyRecords(limit: number): Promise<number> {
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

  /**
   * Clears the personal data of up to `limit` events none of whose deliveries is still pending
   * (each delivered, failed for good or cancelled — or the event had no endpoint); returns how
   * many. A delivery redelivered later is sent without it (DeliveryService.envelope).
   */
  async clearDeliveredEventPii(limit: number): Promise<number> {
    const rows = await this.db.rows(
      `WITH due AS (
         SELECT e.id FROM events e
          WHERE e.encrypted_pii IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                             WHERE d.event_id = e.id AND d.status = 'pending')
          ORDER BY e.created_at
          LIMIT $1
          FOR UPDATE OF e SKIP LOCKED)
       UPDATE events e SET encrypted_pii = NULL FROM due WHERE e.id = due.id
       RETURNING e.id`,
      [limit],
    );
    return rows.length;
  }
}
