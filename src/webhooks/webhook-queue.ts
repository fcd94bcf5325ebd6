/** The webhook delivery queue's contract (DESIGN §9): Bull schedules, PostgreSQL decides. */
export const WEBHOOK_QUEUE = 'webhooks';
export const DELIVER_JOB = 'deliver';

/**
 * A job taken by a worker that then dies stays "active" in Redis until Bull notices its lock was
 * not renewed; only then can it run again. Short locks and frequent checks make that seconds,
 * not minutes, and a generous stall count keeps such jobs from being failed (the delivery's own
 * lease in PostgreSQL already prevents double sends). Measured: with Bull's defaults (30 s lock,
 * one stall allowed) 23 of 150 deliveries were still waiting 90 s after three SIGKILLs under load.
 */
export const WEBHOOK_QUEUE_SETTINGS = {
  lockDuration: 10_000,
  stalledInterval: 5_000,
  maxStalledCount: 1_000,
};

/** Deliveries in flight per worker process. */
export const DELIVERY_CONCURRENCY = 20;

/** Payloads carry ids, never entities. */
export interface DeliverJob {
  deliveryId: string;
}

/**
 * One job id per (delivery, attempt, abandoned lease): a delivery already waiting in Redis is not
 * queued twice; the next attempt gets a fresh job; and so does a delivery whose worker died
 * holding its lease — its old job may linger in Redis as "active", and re-using that id would be
 * a silent no-op (measured: 12 of 150 deliveries stuck after three SIGKILLs).
 */
export const deliverJobId = (
  deliveryId: string,
  attemptsMade: number,
  expiredLease: Date | null,
): string => `${deliveryId}:${attemptsMade}:${expiredLease?.getTime() ?? 0}`;
