"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.DeliveryLeaseRepository = exports.DELIVERY_BACKLOG = void 0;
const common_1 = require("@nestjs/common");
const database_1 = require("../../database/database");
const entity_columns_1 = require("../../database/entity-columns");
const webhook_delivery_entity_1 = require("../webhook-delivery.entity");
const webhook_endpoint_entity_1 = require("../webhook-endpoint.entity");
const LEASED = (0, entity_columns_1.columnsOf)(webhook_delivery_entity_1.WebhookDeliveryEntity, [
    'id',
    'attempts',
    'endpointId',
    'eventId',
    'createdAt',
]);
const ENDPOINT = (0, entity_columns_1.columnsOf)(webhook_endpoint_entity_1.WebhookEndpointEntity, [
    'url',
    'secretCiphertext',
    'previousSecretCiphertext',
    'previousSecretExpiresAt',
    'failingSince',
]);
/** A delivery a worker may send now: pending, due, and not leased by another worker. */
const IS_DUE = `status = 'pending' AND next_attempt_at <= now()
  AND (locked_until IS NULL OR locked_until < now())`;
/**
 * Leases up to `limit` due deliveries nobody holds, oldest first, in one statement: FOR UPDATE
 * SKIP LOCKED, so concurrent workers take disjoint rows, and the UPDATE's lease keeps them from
 * every other worker until it ends. Answers what sending needs: endpoint and event.
 */
const CLAIM_DUE = (0, database_1.statement)('webhook-deliveries-claim-due', `WITH picked AS (
     SELECT id FROM webhook_deliveries WHERE ${IS_DUE}
      ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED),
   leased AS (
     UPDATE webhook_deliveries d
        SET locked_until = now() + $2 * interval '1 millisecond',
            queued_at = NULL, queue_job_id = NULL
       FROM picked WHERE d.id = picked.id
    RETURNING ${LEASED.select('d')})
   SELECT l.*, ${ENDPOINT.select('w')}, w.status AS "endpointStatus",
          e.type AS "eventType", e.payload AS "eventPayload", e.encrypted_pii AS "eventPii",
          e.created_at AS "eventCreatedAt", e.trace_context AS "eventTraceContext"
     FROM leased l
     JOIN webhook_endpoints w ON w.id = l."endpointId"
     JOIN events e ON e.id = l."eventId"`);
/**
 * In finishMany: the delivery `d` was redelivered on request while this lease held ($13, the
 * lease's length): its next attempt was moved past the lease's start.
 */
const REDELIVERED = `($13::int IS NOT NULL AND d.locked_until IS NOT NULL
  AND d.next_attempt_at > d.locked_until - $13::int * interval '1 millisecond')`;
/** See DeliveryLeaseRepository.finishMany. */
const FINISH_MANY = (0, database_1.statement)('webhook-deliveries-finish-many', `WITH o AS (
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[], $4::text[], $5::int[],
                          $6::timestamptz[], $7::boolean[], $8::timestamptz[], $9::int[],
                          $10::int[], $11::text[], $12::text[])
         AS o(id, status, status_code, error, counted, next_attempt_at, logged, started_at,
              duration_ms, attempt_status_code, attempt_error, response_excerpt)),
   updated AS (
     UPDATE webhook_deliveries d
        SET status = CASE WHEN ${REDELIVERED} THEN 'pending' ELSE o.status END,
            last_status_code = o.status_code, last_error = o.error,
            attempts = d.attempts + o.counted,
            next_attempt_at = CASE WHEN ${REDELIVERED} THEN d.next_attempt_at
                                   ELSE coalesce(o.next_attempt_at, d.next_attempt_at) END,
            delivered_at = CASE WHEN o.status = 'delivered' AND NOT ${REDELIVERED} THEN now()
                                ELSE d.delivered_at END,
            locked_until = NULL
       FROM o WHERE d.id = o.id
     RETURNING d.id)
   INSERT INTO delivery_attempts
          (delivery_id, started_at, duration_ms, status_code, error, response_excerpt)
   SELECT o.id, o.started_at, o.duration_ms, o.attempt_status_code, o.attempt_error,
          o.response_excerpt
     FROM o JOIN updated ON updated.id = o.id
    WHERE o.logged`);
/** See DeliveryLeaseRepository.backlog. */
exports.DELIVERY_BACKLOG = `SELECT count(*) AS pending,
         count(*) FILTER (WHERE next_attempt_at <= now()) AS due,
         coalesce(greatest(0, extract(epoch FROM now() - min(next_attempt_at))), 0)::float8
           AS "oldestDueSeconds",
         coalesce(extract(epoch FROM now() - (
           SELECT min(created_at) FROM webhook_deliveries WHERE status = 'pending')), 0)::float8
           AS "oldestPendingSeconds"
    FROM webhook_deliveries
   WHERE status = 'pending'`;
/**
 * The delivery workers' SQL: the sweeper's scan, the lease, the outcome of each attempt, the
 * endpoint's failure streak. This is system work across every tenant (it acts on deliveries,
 * not on behalf of an enterprise); what enterprises read of deliveries is in WebhooksRepository,
 * scoped by enterprise.
 */
let DeliveryLeaseRepository = class DeliveryLeaseRepository {
    db;
    constructor(db) {
        this.db = db;
    }
    /**
     * Takes up to `limit` pending deliveries that are due, not leased by a worker, and not queued
     * in the last `recheckAfterMs`, and stamps them queued now. FOR UPDATE SKIP LOCKED: concurrent
     * sweepers take disjoint rows. `queueJobId` is the job a previous sweep queued (null if none).
     */
    async takeDue(limit, recheckAfterMs) {
        return this.db.rows(`WITH picked AS (
         SELECT id FROM webhook_deliveries
          WHERE ${IS_DUE}
            AND (queued_at IS NULL OR queued_at < now() - $2 * interval '1 millisecond')
          ORDER BY next_attempt_at
          LIMIT $1
          FOR UPDATE SKIP LOCKED)
       UPDATE webhook_deliveries d SET queued_at = now()
         FROM picked WHERE d.id = picked.id
       RETURNING d.id, d.queue_job_id AS "queueJobId"`, [limit, recheckAfterMs]);
    }
    /**
     * The backlog, for the figures Prometheus scrapes (docs/operations.md): deliveries pending, how
     * many are due now, how long the longest-waiting due one has been due, and the age of the oldest
     * pending one. Cheap at any size: the counts and the oldest due time are one index-only scan of
     * the partial index of pending deliveries (`webhook_deliveries_due_idx`), and the oldest
     * creation time is the first entry of `webhook_deliveries_pending_created_idx`.
     */
    async backlog() {
        const [row] = await this.db.rows(exports.DELIVERY_BACKLOG);
        return row;
    }
    /**
     * Records the jobs just queued; `null` job ids mark deliveries to take again at once. Only rows
     * still pending and free are written: a row another transaction holds is skipped, never waited
     * for. A pump may have leased a taken delivery meanwhile and be writing its outcome
     * (finishMany, many rows in one statement); waiting here, with other rows of this batch already
     * locked, deadlocked with it, and PostgreSQL cancelled one side: seen 4 times in an evening of
     * bench runs, twice the outcome's side, whose deliveries were then sent again once their leases
     * ended. Skipping costs nothing: that row is being leased or finished, which clears or ends
     * what would be recorded (a skipped `null` is taken again after the recheck delay instead).
     */
    async recordQueued(jobs) {
        if (jobs.length === 0)
            return;
        await this.db.rows(`WITH free AS (
         SELECT id FROM webhook_deliveries
          WHERE id = ANY ($1::uuid[]) AND status = 'pending'
          FOR UPDATE SKIP LOCKED)
       UPDATE webhook_deliveries d
          SET queue_job_id = j.job_id,
              queued_at = CASE WHEN j.job_id IS NULL THEN NULL ELSE d.queued_at END
         FROM unnest($1::uuid[], $2::text[]) AS j(id, job_id)
         JOIN free ON free.id = j.id
        WHERE d.id = j.id`, [jobs.map((job) => job.id), jobs.map((job) => job.jobId)]);
    }
    /**
     * Leases up to `limit` due deliveries (oldest first) for `leaseMs`: a worker's batch. Two
     * workers never get the same delivery while its lease holds (SKIP LOCKED, then the lease).
     */
    async claimDue(limit, leaseMs) {
        return this.db.rows(CLAIM_DUE, [limit, leaseMs]);
    }
    /** Ends one attempt (see finishMany). */
    async finish(deliveryId, outcome, attempt) {
        await this.finishMany([{ ...outcome, deliveryId, attempt }]);
    }
    /**
     * Ends attempts in one statement: each delivery delivered, failed, cancelled, or pending again
     * at `nextAttemptAt`, its lease cleared, and each attempt made logged in `delivery_attempts`
     * (a worker's batch: one round trip for many deliveries). With `leaseMs` (the lease the worker
     * took), a delivery redelivered on request while it was being sent (its next_attempt_at moved
     * past the lease's start) stays pending, due, so the requested redelivery still happens.
     *
     * An endpoint deleted while its delivery was being sent took the delivery with it: that one
     * outcome is dropped, not the batch. Attempts are logged only for the deliveries the UPDATE
     * found, and the UPDATE holds those rows to the end of the statement, so a concurrent delete
     * waits for it (and then removes the attempts with the delivery) or has already happened.
     */
    async finishMany(outcomes, leaseMs = null) {
        if (outcomes.length === 0)
            return;
        const column = (pick) => outcomes.map(pick);
        await this.db.rows(FINISH_MANY, [
            column((o) => o.deliveryId),
            column((o) => o.status),
            column((o) => o.statusCode),
            column((o) => o.error),
            column((o) => (o.countsAsAttempt ? 1 : 0)),
            column((o) => o.nextAttemptAt ?? null),
            column((o) => o.attempt !== undefined),
            column((o) => o.attempt?.startedAt ?? null),
            column((o) => o.attempt?.durationMs ?? null),
            column((o) => o.attempt?.statusCode ?? null),
            column((o) => o.attempt?.error ?? null),
            column((o) => o.attempt?.responseExcerpt ?? null),
            leaseMs,
        ]);
    }
    /** Ends the failure streaks of these endpoints (those that had one). */
    async endpointsSucceeded(endpointIds) {
        if (endpointIds.length === 0)
            return;
        await this.db.rows(`UPDATE webhook_endpoints SET failing_since = NULL
        WHERE id = ANY ($1::text[]) AND failing_since IS NOT NULL`, [endpointIds]);
    }
    /**
     * Starts or continues the failure streaks of these endpoints; answers those whose streak has
     * lasted `disableAfterMs`.
     */
    async endpointsFailed(endpointIds, disableAfterMs) {
        if (endpointIds.length === 0)
            return [];
        const rows = await this.db.rows(`UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, now())
        WHERE id = ANY ($1::text[])
      RETURNING id, failing_since <= now() - $2 * interval '1 millisecond' AS expired`, [endpointIds, disableAfterMs]);
        return rows.filter((row) => row.expired).map((row) => row.id);
    }
    /**
     * Disables the endpoint and cancels all its pending deliveries (the one just attempted
     * included), in one statement.
     */
    async disableEndpoint(endpointId) {
        await this.db.rows(`WITH disabled AS (
         UPDATE webhook_endpoints SET status = 'disabled', updated_at = now() WHERE id = $1)
       UPDATE webhook_deliveries SET status = 'cancelled', locked_until = NULL
        WHERE endpoint_id = $1 AND status = 'pending'`, [endpointId]);
    }
};
exports.DeliveryLeaseRepository = DeliveryLeaseRepository;
exports.DeliveryLeaseRepository = DeliveryLeaseRepository = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database])
], DeliveryLeaseRepository);
//# sourceMappingURL=delivery-lease.repository.js.map