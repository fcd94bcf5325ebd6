import { Injectable } from '@nestjs/common';
import { Database } from '../../database/database';
import { columnsOf, RowOf } from '../../database/entity-columns';
import type { EventEntity } from '../../events/event.entity';
import type { DeliveryAttemptEntity } from '../delivery-attempt.entity';
import { WebhookDeliveryEntity } from '../webhook-delivery.entity';
import { WebhookEndpointEntity } from '../webhook-endpoint.entity';

const LEASED = columnsOf(WebhookDeliveryEntity, ['id', 'attempts', 'endpointId', 'eventId']);
const ENDPOINT = columnsOf(WebhookEndpointEntity, [
  'url',
  'secretCiphertext',
  'previousSecretCiphertext',
  'previousSecretExpiresAt',
  'failingSince',
]);

/** A leased delivery with what sending it needs: its endpoint and its event. */
export type ClaimedDelivery = RowOf<typeof LEASED> &
  RowOf<typeof ENDPOINT> & {
    endpointStatus: WebhookEndpointEntity['status'];
    eventType: EventEntity['type'];
    eventPayload: EventEntity['payload'];
    eventPii: EventEntity['encryptedPii'];
    eventCreatedAt: EventEntity['createdAt'];
  };

export type AttemptRecord = Pick<
  DeliveryAttemptEntity,
  'startedAt' | 'durationMs' | 'statusCode' | 'error' | 'responseExcerpt'
>;

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
    RETURNING ${LEASED.select()})
   SELECT l.*, ${ENDPOINT.select('w')}, w.status AS "endpointStatus",
          e.type AS "eventType", e.payload AS "eventPayload", e.encrypted_pii AS "eventPii",
          e.created_at AS "eventCreatedAt"
     FROM leased l
     JOIN webhook_endpoints w ON w.id = l."endpointId"
     JOIN events e ON e.id = l."eventId"`;

/**
 * The delivery workers' SQL: the sweeper's scan, the lease, the outcome of each attempt, the
 * endpoint's failure streak. This is system work across every tenant (it acts on deliveries,
 * not on behalf of an enterprise); what enterprises read of deliveries is in WebhooksRepository,
 * scoped by enterprise.
 */
@Injectable()
export class DeliveryLeaseRepository {
  constructor(private readonly db: Database) {}

  /**
   * Takes up to `limit` pending deliveries that are due, not leased by a worker, and not queued
   * in the last `recheckAfterMs`, and stamps them queued now. FOR UPDATE SKIP LOCKED: concurrent
   * sweepers take disjoint rows. `queueJobId` is the job a previous sweep queued (null if none).
   */
  async takeDue(
    limit: number,
    recheckAfterMs: number,
  ): Promise<Pick<WebhookDeliveryEntity, 'id' | 'queueJobId'>[]> {
    return this.db.rows(
      `WITH picked AS (
         SELECT id FROM webhook_deliveries
          WHERE ${IS_DUE}
            AND (queued_at IS NULL OR queued_at < now() - $2 * interval '1 millisecond')
          ORDER BY next_attempt_at
          LIMIT $1
          FOR UPDATE SKIP LOCKED)
       UPDATE webhook_deliveries d SET queued_at = now()
         FROM picked WHERE d.id = picked.id
       RETURNING d.id, d.queue_job_id AS "queueJobId"`,
      [limit, recheckAfterMs],
    );
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
    const [delivery] = await this.db.rows<ClaimedDelivery>(claimSql('$1', '$2'), [
      deliveryId,
      leaseMs,
    ]);
    return delivery ?? null;
  }

  /**
   * Takes a lease on the oldest due delivery nobody holds (any endpoint), for a worker that has
   * just finished one and still has capacity: it sends without a round through Bull.
   */
  async claimNextDue(leaseMs: number): Promise<ClaimedDelivery | null> {
    const [delivery] = await this.db.rows<ClaimedDelivery>(
      claimSql(
        `(SELECT id FROM webhook_deliveries WHERE ${IS_DUE}
           ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED)`,
        '$1',
      ),
      [leaseMs],
    );
    return delivery ?? null;
  }

  /**
   * Ends the attempt: delivered, failed, cancelled, or pending again at `nextAttemptAt`, and logs
   * the attempt when one was made. One statement (a worker's hot path: two round trips a delivery).
   */
  async finish(
    deliveryId: string,
    outcome: {
      status: WebhookDeliveryEntity['status'];
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
    const [endpoint] = await this.db.rows<{ expired: boolean }>(
      `UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, now())
        WHERE id = $1
      RETURNING failing_since <= now() - $2 * interval '1 millisecond' AS expired`,
      [endpointId, disableAfterMs],
    );
    return endpoint?.expired ?? false;
  }

  /**
   * Disables the endpoint and cancels all its pending deliveries (the one just attempted
   * included), in one statement.
   */
  async disableEndpoint(endpointId: string): Promise<void> {
    await this.db.rows(
      `WITH disabled AS (
         UPDATE webhook_endpoints SET status = 'disabled', updated_at = now() WHERE id = $1)
       UPDATE webhook_deliveries SET status = 'cancelled', locked_until = NULL
        WHERE endpoint_id = $1 AND status = 'pending'`,
      [endpointId],
    );
  }
}
