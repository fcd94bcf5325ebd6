import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

export interface ClaimedDelivery {
  id: string;
  attempts: number;
  endpointId: string;
  endpointStatus: 'enabled' | 'disabled';
  url: string;
  secretCiphertext: string;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: Date | null;
  failingSince: Date | null;
  eventId: string;
  eventType: string;
  eventPayload: Record<string, unknown>;
  eventPii: string | null;
  eventCreatedAt: Date;
}

export interface AttemptRecord {
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
}

interface ClaimRow {
  id: string;
  attempts: number;
  endpoint_id: string;
  endpoint_status: 'enabled' | 'disabled';
  url: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  event_id: string;
  type: string;
  payload: Record<string, unknown>;
  encrypted_pii: string | null;
  event_created_at: Date;
}

/** A delivery a worker may send now: pending, due, and not leased by another worker. */
const IS_DUE = `status = 'pending' AND next_attempt_at <= now()
  AND (locked_until IS NULL OR locked_until < now())`;

/**
 * Leases the delivery `target` (an id parameter, or a sub-select) if it is due and unleased
 * (the UPDATE's row lock makes this atomic), and returns what sending needs.
 */
const claimSql = (target: string, leaseMs: string) =>
  `WITH leased AS (
     UPDATE webhook_deliveries
        SET locked_until = now() + ${leaseMs} * interval '1 millisecond',
            queued_at = NULL, queue_job_id = NULL
      WHERE id = ${target} AND ${IS_DUE}
    RETURNING id, attempts, endpoint_id, event_id)
   SELECT l.id, l.attempts, l.endpoint_id, w.status AS endpoint_status, w.url,
          w.secret_ciphertext, w.previous_secret_ciphertext, w.previous_secret_expires_at,
          w.failing_since, e.id AS event_id, e.type, e.payload, e.encrypted_pii,
          e.created_at AS event_created_at
     FROM leased l
     JOIN webhook_endpoints w ON w.id = l.endpoint_id
     JOIN events e ON e.id = l.event_id`;

const toClaimed = (row: ClaimRow): ClaimedDelivery => ({
  id: row.id,
  attempts: row.attempts,
  endpointId: row.endpoint_id,
  endpointStatus: row.endpoint_status,
  url: row.url,
  secretCiphertext: row.secret_ciphertext,
  previousSecretCiphertext: row.previous_secret_ciphertext,
  previousSecretExpiresAt: row.previous_secret_expires_at,
  failingSince: row.failing_since,
  eventId: row.event_id,
  eventType: row.type,
  eventPayload: row.payload,
  eventPii: row.encrypted_pii,
  eventCreatedAt: row.event_created_at,
});

/** Deliveries' SQL: the sweeper's scan, the lease, the outcome of each attempt. */
@Injectable()
export class DeliveriesRepository {
  constructor(private readonly db: Database) {}

  /**
   * Takes up to `limit` pending deliveries that are due, not leased by a worker, and not queued
   * in the last `recheckAfterMs`, and stamps them queued now. FOR UPDATE SKIP LOCKED: concurrent
   * sweepers take disjoint rows. `queueJobId` is the job a previous sweep queued (null if none).
   */
  async takeDue(
    limit: number,
    recheckAfterMs: number,
  ): Promise<{ id: string; queueJobId: string | null }[]> {
    const rows = await this.db.rows<{ id: string; queue_job_id: string | null }>(
      `WITH picked AS (
         SELECT id FROM webhook_deliveries
          WHERE ${IS_DUE}
            AND (queued_at IS NULL OR queued_at < now() - $2 * interval '1 millisecond')
          ORDER BY next_attempt_at
          LIMIT $1
          FOR UPDATE SKIP LOCKED)
       UPDATE webhook_deliveries d SET queued_at = now()
         FROM picked WHERE d.id = picked.id
       RETURNING d.id, d.queue_job_id`,
      [limit, recheckAfterMs],
    );
    return rows.map((row) => ({ id: row.id, queueJobId: row.queue_job_id }));
  }

  /** Records the jobs just queued; `null` job ids mark deliveries to take again at once. */
  async recordQueued(jobs: { id: string; jobId: string | null }[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.db.rows(
      `UPDATE webhook_deliveries d
          SET queue_job_id = j.job_id,
              queued_at = CASE WHEN j.job_id IS NULL THEN NULL ELSE d.queued_at END
         FROM unnest($1::uuid[], $2::text[]) AS j(id, job_id)
        WHERE d.id = j.id AND d.status = 'pending'`,
      [jobs.map((job) => job.id), jobs.map((job) => job.jobId)],
    );
  }

  /**
   * Takes a lease on a due delivery (the UPDATE's row lock makes this atomic: two workers can
   * never both get it). Null when it is not pending, not due, or leased by someone else.
   */
  async claim(deliveryId: string, leaseMs: number): Promise<ClaimedDelivery | null> {
    const rows = await this.db.rows<ClaimRow>(claimSql('$1', '$2'), [deliveryId, leaseMs]);
    return rows.length ? toClaimed(rows[0]) : null;
  }

  /**
   * Takes a lease on the oldest due delivery nobody holds (any endpoint), for a worker that has
   * just finished one and still has capacity: it sends without a round through Bull.
   */
  async claimNextDue(leaseMs: number): Promise<ClaimedDelivery | null> {
    const rows = await this.db.rows<ClaimRow>(
      claimSql(
        `(SELECT id FROM webhook_deliveries WHERE ${IS_DUE}
           ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED)`,
        '$1',
      ),
      [leaseMs],
    );
    return rows.length ? toClaimed(rows[0]) : null;
  }

  /**
   * Ends the attempt: delivered, failed, cancelled, or pending again at `nextAttemptAt`, and logs
   * the attempt when one was made. One statement (a worker's hot path: two round trips a delivery).
   */
  async finish(
    deliveryId: string,
    outcome: {
      status: 'pending' | 'delivered' | 'failed' | 'cancelled';
      statusCode: number | null;
      error: string | null;
      nextAttemptAt?: Date;
      countsAsAttempt: boolean;
    },
    attempt?: AttemptRecord,
  ): Promise<void> {
    await this.db.rows(
      `WITH logged AS (
         INSERT INTO delivery_attempts
                (delivery_id, started_at, duration_ms, status_code, error, response_excerpt)
         SELECT $1::uuid, $8::timestamptz, $9::int, $10::int, $11::text, $12::text
          WHERE $7::boolean)
       UPDATE webhook_deliveries
          SET status = $2, last_status_code = $3, last_error = $4,
              attempts = attempts + $5,
              next_attempt_at = coalesce($6, next_attempt_at),
              delivered_at = CASE WHEN $2 = 'delivered' THEN now() ELSE delivered_at END,
              locked_until = NULL
        WHERE id = $1`,
      [
        deliveryId,
        outcome.status,
        outcome.statusCode,
        outcome.error,
        outcome.countsAsAttempt ? 1 : 0,
        outcome.nextAttemptAt ?? null,
        attempt !== undefined,
        attempt?.startedAt ?? null,
        attempt?.durationMs ?? null,
        attempt?.statusCode ?? null,
        attempt?.error ?? null,
        attempt?.responseExcerpt ?? null,
      ],
    );
  }

  async endpointSucceeded(endpointId: string): Promise<void> {
    await this.db.rows(
      'UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL',
      [endpointId],
    );
  }

  /** Starts or continues the failure streak; true when it has lasted `disableAfterMs`. */
  async endpointFailed(endpointId: string, disableAfterMs: number): Promise<boolean> {
    const rows = await this.db.rows<{ expired: boolean }>(
      `UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, now())
        WHERE id = $1
      RETURNING failing_since <= now() - $2 * interval '1 millisecond' AS expired`,
      [endpointId, disableAfterMs],
    );
    return rows.length > 0 && rows[0].expired;
  }

  /** Disables the endpoint and cancels its other pending deliveries. */
  async disableEndpoint(endpointId: string): Promise<void> {
    await this.db.transaction(async (sql) => {
      await sql.rows(
        `UPDATE webhook_endpoints SET status = 'disabled', updated_at = now() WHERE id = $1`,
        [endpointId],
      );
      await sql.rows(
        `UPDATE webhook_deliveries SET status = 'cancelled', locked_until = NULL
          WHERE endpoint_id = $1 AND status = 'pending'`,
        [endpointId],
      );
    });
  }

  /** An endpoint's deliveries, newest first, with their attempts. */
  async listForEndpoint(endpointId: string, limit: number) {
    return this.db.rows<{
      id: string;
      event_id: string;
      type: string;
      status: string;
      attempts: number;
      next_attempt_at: Date;
      created_at: Date;
      attempt_log: {
        started_at: string;
        duration_ms: number;
        status_code: number | null;
        error: string | null;
      }[];
    }>(
      `SELECT d.id, d.event_id, e.type, d.status, d.attempts, d.next_attempt_at, d.created_at,
              coalesce((SELECT json_agg(json_build_object(
                         'started_at', a.started_at, 'duration_ms', a.duration_ms,
                         'status_code', a.status_code, 'error', a.error) ORDER BY a.started_at, a.id)
                          FROM delivery_attempts a WHERE a.delivery_id = d.id), '[]') AS attempt_log
         FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
        WHERE d.endpoint_id = $1
        ORDER BY d.created_at DESC, d.id DESC
        LIMIT $2`,
      [endpointId, limit],
    );
  }

  /** Makes a delivery of this endpoint due now again; false when there is no such delivery. */
  async redeliver(endpointId: string, deliveryId: string): Promise<boolean> {
    const rows = await this.db.rows(
      `UPDATE webhook_deliveries
          SET status = 'pending', next_attempt_at = now(), locked_until = NULL
        WHERE id = $1 AND endpoint_id = $2 RETURNING id`,
      [deliveryId, endpointId],
    );
    if (rows.length) await this.db.rows("SELECT pg_notify('webhook_deliveries', '')");
    return rows.length > 0;
  }
}
