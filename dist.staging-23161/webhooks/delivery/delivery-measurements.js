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
exports.DeliveryMeasurements = void 0;
const common_1 = require("@nestjs/common");
const measurements_1 = require("../../common/measurements/measurements");
const delivery_lease_repository_1 = require("./delivery-lease.repository");
const OUTCOMES = ['delivered', 'retry', 'failed', 'gone'];
/** From seconds to a day: deliveries retried for hours are commit-to-receipt latency too. */
const LATENCY_BUCKETS = [
    0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1_800, 3_600, 21_600, 86_400,
];
/**
 * The webhook figures of a process that delivers (docs/operations.md, "Metrics"): attempts by
 * outcome and the commit-to-receipt latency, counted as attempts end; the backlog — deliveries
 * pending, due or waiting for a retry, and the age of the oldest — read from PostgreSQL when
 * Prometheus scrapes (the real backlog: the `webhooks` queue in Redis only holds wake-ups).
 */
let DeliveryMeasurements = class DeliveryMeasurements {
    attempts;
    latency;
    constructor(measurements, deliveries) {
        this.attempts = measurements.counter({
            name: 'checkin_webhook_delivery_attempts_total',
            help: 'Webhook delivery attempts, by outcome: delivered (2xx), retry (failed, retried later), failed (no retry left), gone (410, endpoint disabled).',
            labelNames: ['outcome'],
        });
        // Every outcome is a series from the start, so rates and ratios exist before the first failure.
        for (const outcome of OUTCOMES)
            this.attempts.inc({ outcome }, 0);
        this.latency = measurements.histogram({
            name: 'checkin_webhook_delivery_latency_seconds',
            help: "From a delivery's creation (in the transaction that committed its event) to the receiver's 2xx, retries included.",
            buckets: LATENCY_BUCKETS,
        });
        const backlog = (0, measurements_1.scrapeReading)(() => deliveries.backlog());
        measurements.gauge({
            name: 'checkin_webhook_deliveries_pending',
            help: 'Webhook deliveries pending in PostgreSQL: due now (state="due") or waiting for a retry (state="waiting").',
            labelNames: ['state'],
            async collect() {
                const now = await backlog();
                this.set({ state: 'due' }, now?.due ?? NaN);
                this.set({ state: 'waiting' }, now ? now.pending - now.due : NaN);
            },
        });
        measurements.gauge({
            name: 'checkin_webhook_delivery_oldest_due_age_seconds',
            help: 'How long the longest-waiting due delivery has been due and unsent (0 when none is due): how far behind the workers are.',
            async collect() {
                this.set((await backlog())?.oldestDueSeconds ?? NaN);
            },
        });
        measurements.gauge({
            name: 'checkin_webhook_delivery_oldest_pending_age_seconds',
            help: 'Age of the oldest pending delivery since its event committed, retries included (0 when none is pending).',
            async collect() {
                this.set((await backlog())?.oldestPendingSeconds ?? NaN);
            },
        });
    }
    /** An attempt ended; `createdAt` is the delivery's, for the latency of a 2xx. */
    attempted(outcome, createdAt) {
        this.attempts.inc({ outcome });
        if (outcome === 'delivered')
            this.latency.observe((Date.now() - createdAt.getTime()) / 1_000);
    }
};
exports.DeliveryMeasurements = DeliveryMeasurements;
exports.DeliveryMeasurements = DeliveryMeasurements = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [measurements_1.Measurements, delivery_lease_repository_1.DeliveryLeaseRepository])
], DeliveryMeasurements);
//# sourceMappingURL=delivery-measurements.js.map