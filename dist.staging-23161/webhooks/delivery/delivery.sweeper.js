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
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
var DeliverySweeper_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.DeliverySweeper = void 0;
const bull_1 = require("@nestjs/bull");
const common_1 = require("@nestjs/common");
const config_module_1 = require("../../config/config.module");
const events_1 = require("../events/events");
const outbox_sweeper_1 = require("../../queues/outbox-sweeper");
const webhook_queue_1 = require("../webhook-queue");
const delivery_lease_repository_1 = require("./delivery-lease.repository");
const delivery_pump_1 = require("./delivery-pump");
/** Jobs queued per sweep at most: wake-ups for every worker's pump, not one per delivery. */
const WAKE_JOBS = webhook_queue_1.DELIVERY_CONCURRENCY;
/**
 * A delivery still pending this long after it was queued (and not leased) is checked against
 * Redis: its job may have been lost (Redis restarted or flushed) or stranded (seen: 3–6 of 1 000
 * after Redis was killed mid-stream under load, never attempted).
 */
const RECHECK_AFTER_MS = 10_000;
/** Redis being down must not stall the sweep: an enqueue that takes longer is abandoned. */
const ENQUEUE_TIMEOUT_MS = 2_000;
/**
 * Wakes the delivery pumps when deliveries are due: this process's directly, every worker's
 * through the `webhooks` queue (a job per due delivery, up to WAKE_JOBS a sweep). PostgreSQL
 * decides what is due; Bull only schedules. Each take is stamped (`queued_at`), so concurrent
 * sweepers split the work. A worker killed mid-attempt leaves its lease to expire; the delivery
 * is then due again and any pump leases it. Duplicate or stale jobs are harmless: a job only
 * wakes a pump, which sends what it leases.
 */
let DeliverySweeper = DeliverySweeper_1 = class DeliverySweeper extends outbox_sweeper_1.OutboxSweeper {
    deliveries;
    pump;
    queue;
    config;
    constructor(deliveries, pump, queue, config) {
        super(DeliverySweeper_1.name, events_1.DELIVERIES_CHANNEL, config.database.url, config.webhooks.sweepIntervalMs);
        this.deliveries = deliveries;
        this.pump = pump;
        this.queue = queue;
        this.config = config;
    }
    async sweepOnce() {
        // This process's own pump leases what is due straight from PostgreSQL, Redis or not. The
        // jobs below wake the other workers' pumps: a set of them is enough (each pump then leases
        // until nothing is due), so a backlog of thousands costs a few jobs, not one each.
        this.pump.wake();
        const due = await this.deliveries.takeDue(WAKE_JOBS, RECHECK_AFTER_MS);
        const queued = await Promise.all(due.map((delivery) => this.enqueue(delivery)));
        await this.deliveries.recordQueued(queued.filter((job) => job !== undefined));
    }
    /**
     * New deliveries were committed: this process's pump leases them at once, and that is all. Every
     * worker process listens on the channel itself, so every pump wakes without a job; the jobs are
     * for what a NOTIFY does not announce (retries coming due, leases expiring, a worker whose LISTEN
     * connection was down), which the sweep finds every WEBHOOK_SWEEP_INTERVAL_MS. A sweep per
     * NOTIFY used to queue jobs for deliveries the pumps were already leasing: at 200 events/s,
     * two more row updates and a Bull job a delivery, and PostgreSQL's share of commit-to-receipt
     * (docs/performance.md, "Fourth pass").
     */
    notified() {
        this.pump.wake();
    }
    /**
     * Queues one delivery under a fresh job id, unless a previous sweep's job for it is still
     * live in Redis. Returns what to record: the new job id, null to take the row again at once
     * (Redis did not answer), or undefined when the existing job stands.
     */
    async enqueue(delivery) {
        try {
            if (delivery.queueJobId && (await this.isLive(delivery.queueJobId)))
                return undefined;
            const jobId = (0, webhook_queue_1.deliverJobId)(delivery.id);
            const added = await (0, outbox_sweeper_1.withTimeout)(this.queue.add(webhook_queue_1.DELIVER_JOB, { deliveryId: delivery.id }, { jobId, removeOnComplete: true, removeOnFail: true }), ENQUEUE_TIMEOUT_MS);
            return { id: delivery.id, jobId: added ? jobId : null };
        }
        catch {
            return { id: delivery.id, jobId: null };
        }
    }
    /** Whether Bull will still run this job (waiting, delayed, or active under a live lock). */
    async isLive(jobId) {
        const job = await (0, outbox_sweeper_1.withTimeout)(this.queue.getJob(jobId), ENQUEUE_TIMEOUT_MS);
        if (!job)
            return false;
        return (0, outbox_sweeper_1.isRunnableJobState)(await (0, outbox_sweeper_1.withTimeout)(job.getState(), ENQUEUE_TIMEOUT_MS));
    }
    /**
     * Graceful stop: let this process's in-flight deliveries finish (a local pause waits for active
     * jobs) before Bull and the pools close. One that cannot finish keeps its lease and is retried.
     */
    async afterStop() {
        await (0, outbox_sweeper_1.withTimeout)(this.queue.pause(true).catch(() => undefined), this.config.webhooks.timeoutMs + 2_000);
    }
};
exports.DeliverySweeper = DeliverySweeper;
exports.DeliverySweeper = DeliverySweeper = DeliverySweeper_1 = __decorate([
    (0, common_1.Injectable)(),
    __param(2, (0, bull_1.InjectQueue)(webhook_queue_1.WEBHOOK_QUEUE)),
    __param(3, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [delivery_lease_repository_1.DeliveryLeaseRepository,
        delivery_pump_1.DeliveryPump, Object, Object])
], DeliverySweeper);
//# sourceMappingURL=delivery.sweeper.js.map