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
var DeliveryPump_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.DeliveryPump = void 0;
const common_1 = require("@nestjs/common");
const config_module_1 = require("../../config/config.module");
const webhook_queue_1 = require("../webhook-queue");
const delivery_lease_repository_1 = require("./delivery-lease.repository");
const delivery_span_1 = require("./delivery-span");
const delivery_service_1 = require("./delivery.service");
/** Outcomes are written when this many have gathered… */
const FLUSH_SIZE = 50;
/** …or this long after the first of them. */
const FLUSH_DELAY_MS = 20;
/**
 * A worker process's delivery loop (docs/webhooks.md). It leases due deliveries in batches (one
 * statement leases many, SKIP LOCKED: workers take disjoint rows), keeps DELIVERY_CONCURRENCY
 * sends in flight on keep-alive connections, and records outcomes in batches (one statement writes
 * many attempt rows and delivery states). PostgreSQL stays the truth: a lease outlives the
 * longest wait of a leased delivery (queued behind a full set of sends, then its own send, then
 * the flush delay), so a worker killed mid-batch only leaves leases to expire, after which the
 * deliveries are due again and another worker sends them; two workers never hold one delivery.
 *
 * It is woken by the `webhooks` queue's jobs and by the sweeper after every sweep (so it also
 * runs while Redis is away), and runs until nothing is due.
 */
let DeliveryPump = DeliveryPump_1 = class DeliveryPump {
    deliveries;
    delivery;
    logger = new common_1.Logger(DeliveryPump_1.name);
    /** Sends in flight at most (and the size of a lease batch). */
    concurrency = webhook_queue_1.DELIVERY_CONCURRENCY;
    /**
     * Leased deliveries wait behind at most one full set of sends (one timeout), then are sent
     * (a second), then recorded: the lease covers that, and no more, so the deliveries of a killed
     * worker are due again soon.
     */
    leaseMs;
    ready = [];
    inFlight = 0;
    leasing = false;
    /** Woken while leasing: lease again even if the last batch was short. */
    wokenAgain = false;
    stopping = false;
    /** The last lease came back short: nothing more is due until something wakes the pump. */
    drained = false;
    outcomes = [];
    flushTimer = null;
    flushes = new Set();
    idleWaiters = [];
    constructor(deliveries, delivery, config) {
        this.deliveries = deliveries;
        this.delivery = delivery;
        this.leaseMs = 2 * config.webhooks.timeoutMs + 10_000;
    }
    /** Something may be due: lease and send until nothing is. */
    wake() {
        if (this.stopping)
            return;
        this.drained = false;
        if (this.leasing) {
            this.wokenAgain = true;
            return;
        }
        void this.lease();
    }
    /** Graceful stop: no new leases; sends in flight finish and every outcome is written. */
    async stop() {
        this.stopping = true;
        if (this.inFlight > 0 || this.ready.length > 0 || this.leasing) {
            await new Promise((resolve) => this.idleWaiters.push(resolve));
        }
        await this.flush();
        await Promise.all(this.flushes);
    }
    /** Leases as many due deliveries as there are free places, and starts sending them. */
    async lease() {
        this.leasing = true;
        try {
            for (;;) {
                this.wokenAgain = false;
                // In flight plus leased-and-waiting stays within two sets of sends; a lease takes at
                // least half a set, so each statement leases many.
                const free = this.concurrency * 2 - this.inFlight - this.ready.length;
                if (this.stopping || free < this.concurrency / 2)
                    return;
                let batch;
                try {
                    batch = await this.deliveries.claimDue(free, this.leaseMs);
                }
                catch (error) {
                    this.logger.error(`Leasing deliveries failed: ${error.message}`);
                    return;
                }
                this.ready.push(...batch);
                this.startSends();
                // A short batch means nothing else is due now, unless a wake-up came meanwhile.
                if (batch.length < free && !this.wokenAgain) {
                    this.drained = true;
                    return;
                }
            }
        }
        finally {
            this.leasing = false;
            this.checkIdle();
        }
    }
    startSends() {
        while (this.inFlight < this.concurrency && this.ready.length > 0) {
            const next = this.ready.shift();
            this.inFlight += 1;
            void (0, delivery_span_1.sendInSpan)(next, () => this.delivery.send(next)).then((sent) => {
                this.inFlight -= 1;
                this.record(sent);
                this.startSends();
                // Refill before the last leased ones run out, so sends never wait on a lease.
                if (!this.leasing && !this.drained && this.ready.length <= this.concurrency / 2) {
                    void this.lease();
                }
                this.checkIdle();
            });
        }
    }
    record(sent) {
        this.outcomes.push(sent);
        if (this.outcomes.length >= FLUSH_SIZE) {
            void this.flush();
        }
        else if (!this.flushTimer) {
            this.flushTimer = setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
            this.flushTimer.unref();
        }
    }
    /** Writes the gathered outcomes (one statement for them all, then the endpoints' streaks). */
    flush() {
        if (this.flushTimer)
            clearTimeout(this.flushTimer);
        this.flushTimer = null;
        const batch = this.outcomes.splice(0);
        if (batch.length === 0)
            return Promise.resolve();
        const written = this.delivery.finishBatch(batch, this.leaseMs).catch((error) => {
            // The leases expire and the deliveries are sent again: at least once, never lost.
            this.logger.error(`Recording ${batch.length} delivery outcomes failed (they will be retried when their leases end): ${error.message}`);
        });
        this.flushes.add(written);
        void written.finally(() => this.flushes.delete(written));
        return written;
    }
    checkIdle() {
        if (this.inFlight > 0 || this.ready.length > 0 || this.leasing)
            return;
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        for (const resolve of waiters)
            resolve();
    }
};
exports.DeliveryPump = DeliveryPump;
exports.DeliveryPump = DeliveryPump = DeliveryPump_1 = __decorate([
    (0, common_1.Injectable)(),
    __param(2, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [delivery_lease_repository_1.DeliveryLeaseRepository,
        delivery_service_1.DeliveryService, Object])
], DeliveryPump);
//# sourceMappingURL=delivery-pump.js.map