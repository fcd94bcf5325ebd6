"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.deliverJobId = exports.DELIVERY_CONCURRENCY = exports.WEBHOOK_QUEUE_SETTINGS = exports.DELIVER_JOB = exports.WEBHOOK_QUEUE = void 0;
const node_crypto_1 = require("node:crypto");
/** The webhook delivery queue's contract (docs/webhooks.md): Bull schedules, PostgreSQL decides. */
exports.WEBHOOK_QUEUE = 'webhooks';
exports.DELIVER_JOB = 'deliver';
/**
 * A job taken by a worker that then dies stays "active" in Redis until Bull notices its lock was
 * not renewed; only then can it run again. Short locks and frequent checks make that seconds,
 * not minutes, and a generous stall count keeps such jobs from being failed (the delivery's own
 * lease in PostgreSQL already prevents double sends). Measured: with Bull's defaults (30 s lock,
 * one stall allowed) 23 of 150 deliveries were still waiting 90 s after three SIGKILLs under load.
 */
exports.WEBHOOK_QUEUE_SETTINGS = {
    lockDuration: 10_000,
    stalledInterval: 5_000,
    maxStalledCount: 1_000,
};
/** Deliveries in flight per worker process. */
exports.DELIVERY_CONCURRENCY = 20;
/**
 * A fresh job id each time a delivery is queued (the sweeper records it in `queue_job_id`).
 * Re-using ids is a trap: Bull silently ignores an add whose id it still holds in any state, so
 * a stranded job would hide the delivery for ever (measured with deterministic ids: 12 of 150
 * stuck after three worker SIGKILLs; 3–6 of 1 000 after a Redis kill under load).
 */
const deliverJobId = (deliveryId) => `${deliveryId}:${(0, node_crypto_1.randomUUID)().slice(0, 8)}`;
exports.deliverJobId = deliverJobId;
//# sourceMappingURL=webhook-queue.js.map