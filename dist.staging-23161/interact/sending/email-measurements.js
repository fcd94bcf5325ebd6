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
exports.EmailMeasurements = void 0;
const common_1 = require("@nestjs/common");
const measurements_1 = require("../../common/measurements/measurements");
const email_sending_repository_1 = require("./email-sending.repository");
/**
 * The email figures of a process that sends mail (docs/operations.md, "Metrics"): mails sent,
 * failed for good and retried, counted as they happen; the mails still queued in PostgreSQL and
 * how long the oldest due one has waited, read when Prometheus scrapes (the `emails` queue in Redis
 * may hold less; a notice waiting for its window's end is pending but not late).
 */
let EmailMeasurements = class EmailMeasurements {
    sent;
    failed;
    retried;
    constructor(measurements, repository) {
        this.sent = measurements.counter({
            name: 'checkin_emails_sent_total',
            help: 'Mails sent (handed to SMTP, written as a file, or captured for a sandbox enterprise).',
        });
        this.failed = measurements.counter({
            name: 'checkin_emails_failed_total',
            help: 'Mails that failed for good: a permanent SMTP refusal (5xx), an unusable address, or the last of 12 attempts.',
        });
        this.retried = measurements.counter({
            name: 'checkin_email_retries_total',
            help: 'Temporary mail failures (SMTP 4xx, connection errors), each retried later.',
        });
        const backlog = (0, measurements_1.scrapeReading)(() => repository.backlog());
        measurements.gauge({
            name: 'checkin_emails_pending',
            help: 'Mails queued in PostgreSQL and not yet sent, failed or skipped (retries and notices waiting for their time included).',
            async collect() {
                this.set((await backlog())?.pending ?? NaN);
            },
        });
        measurements.gauge({
            name: 'checkin_email_oldest_pending_age_seconds',
            help: 'How long the oldest due queued mail has waited since it became due (0 when none is due).',
            async collect() {
                this.set((await backlog())?.oldestPendingSeconds ?? NaN);
            },
        });
    }
};
exports.EmailMeasurements = EmailMeasurements;
exports.EmailMeasurements = EmailMeasurements = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [measurements_1.Measurements, email_sending_repository_1.EmailSendingRepository])
], EmailMeasurements);
//# sourceMappingURL=email-measurements.js.map