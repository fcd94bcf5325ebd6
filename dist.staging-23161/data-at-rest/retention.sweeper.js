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
var RetentionSweeper_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.RetentionSweeper = exports.FIRST_SWEEP_DELAY_MS = exports.RETENTION_BATCH = void 0;
const common_1 = require("@nestjs/common");
const config_module_1 = require("../config/config.module");
const idempotency_repository_1 = require("../sessions/idempotency.repository");
const events_repository_1 = require("../webhooks/events/events.repository");
const session_retention_1 = require("./session-retention");
/** Rows per statement: every statement of a sweep is bounded. */
exports.RETENTION_BATCH = 1_000;
/**
 * A process's first sweep waits this long after start-up (or one interval, if shorter): the
 * deliveries and mails waiting for a restarted worker go first, as the key check does
 * (src/worker.ts). Run at once, it cleared the events a worker's predecessor had delivered
 * beside the backlog it had come to drain (docs/performance.md, "Fourth pass").
 */
exports.FIRST_SWEEP_DELAY_MS = 60_000;
const DAY_MS = 86_400_000;
/**
 * Data at rest, in every worker (docs/data-at-rest.md): a minute after start-up and every
 * RETENTION_SWEEP_INTERVAL_MS, remove transcripts and features of sessions completed more than
 * TRANSCRIPT_RETENTION_DAYS ago (0: never), idempotency records after 24 h, and events' personal
 * data once all their deliveries are final — each through its table's owner (SessionRetention,
 * IdempotencyRepository, EventsRepository). Each step runs bounded batches until one comes back
 * short; sweeps in one process never overlap, and two workers sweeping at once take disjoint rows
 * (SKIP LOCKED). Email logs need no sweep: they never store the SMTP server's text (mailer.ts
 * `smtpFailureCode`).
 */
let RetentionSweeper = RetentionSweeper_1 = class RetentionSweeper {
    sessionRetention;
    idempotency;
    events;
    config;
    logger = new common_1.Logger(RetentionSweeper_1.name);
    timer = null;
    firstSweep = null;
    running = null;
    stopped = false;
    constructor(sessionRetention, idempotency, events, config) {
        this.sessionRetention = sessionRetention;
        this.idempotency = idempotency;
        this.events = events;
        this.config = config;
    }
    onApplicationBootstrap() {
        const intervalMs = this.config.retention.sweepIntervalMs;
        this.timer = setInterval(() => void this.sweep(), intervalMs);
        if (exports.FIRST_SWEEP_DELAY_MS < intervalMs) {
            this.firstSweep = setTimeout(() => void this.sweep(), exports.FIRST_SWEEP_DELAY_MS);
        }
    }
    async beforeApplicationShutdown() {
        this.stopped = true;
        if (this.timer)
            clearInterval(this.timer);
        if (this.firstSweep)
            clearTimeout(this.firstSweep);
        // A batch in flight finishes (each is one short statement); no new one starts.
        await this.running?.catch(() => undefined);
    }
    /** One sweep now (or the one in progress); resolves with what it did. */
    sweep() {
        this.running ??= this.sweepOnce()
            .catch((error) => {
            this.logger.warn(`Retention sweep failed: ${error.message}`);
            return emptyReport();
        })
            .finally(() => {
            this.running = null;
        });
        return this.running;
    }
    async sweepOnce() {
        const report = emptyReport();
        const days = this.config.retention.transcriptDays;
        if (days > 0) {
            const completedBefore = new Date(Date.now() - days * DAY_MS);
            report.transcriptsRemoved = await this.drain(() => this.sessionRetention.removeExpired(completedBefore, exports.RETENTION_BATCH));
        }
        report.idempotencyRecordsDeleted = await this.drain(() => this.idempotency.deleteExpired(exports.RETENTION_BATCH));
        report.eventPiiCleared = await this.drain(() => this.events.clearDeliveredPii(exports.RETENTION_BATCH));
        if (Object.values(report).some((count) => count > 0)) {
            this.logger.log(`Retention sweep: ${JSON.stringify(report)}`);
        }
        return report;
    }
    /** Runs `batch` until it handles fewer rows than a full batch (or the process stops). */
    async drain(batch) {
        let total = 0;
        while (!this.stopped) {
            const count = await batch();
            total += count;
            if (count < exports.RETENTION_BATCH)
                break;
        }
        return total;
    }
};
exports.RetentionSweeper = RetentionSweeper;
exports.RetentionSweeper = RetentionSweeper = RetentionSweeper_1 = __decorate([
    (0, common_1.Injectable)(),
    __param(3, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [session_retention_1.SessionRetention,
        idempotency_repository_1.IdempotencyRepository,
        events_repository_1.EventsRepository, Object])
], RetentionSweeper);
const emptyReport = () => ({
    transcriptsRemoved: 0,
    idempotencyRecordsDeleted: 0,
    eventPiiCleared: 0,
});
//# sourceMappingURL=retention.sweeper.js.map