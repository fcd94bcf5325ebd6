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
var EmailSweeper_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.EmailSweeper = void 0;
const bull_1 = require("@nestjs/bull");
const common_1 = require("@nestjs/common");
const config_module_1 = require("../../config/config.module");
const outbox_sweeper_1 = require("../../queues/outbox-sweeper");
const email_queue_1 = require("../email-queue");
const email_sending_repository_1 = require("./email-sending.repository");
const BATCH = 1_000;
/** How old a still-queued mail must be before its Bull job is checked (and how often). */
const RECHECK_AFTER_MS = 30_000;
/**
 * Queued mails that are due → the `emails` queue, in bulk (job id = message id, so a mail already
 * in Redis is not queued twice). An SMTP outage only delays mail: rows stay `queued` until sent. A
 * notice waiting for its window's end (`send_after`, docs/emails.md) is found by the first sweep
 * after it, on the interval: nothing notifies at that time.
 */
let EmailSweeper = EmailSweeper_1 = class EmailSweeper extends outbox_sweeper_1.OutboxSweeper {
    repository;
    queue;
    lastRecheck = 0;
    constructor(repository, queue, config) {
        super(EmailSweeper_1.name, email_queue_1.EMAILS_CHANNEL, config.database.url, Math.max(config.webhooks.sweepIntervalMs, 1_000));
        this.repository = repository;
        this.queue = queue;
    }
    async sweepOnce() {
        const ids = await this.repository.queued(BATCH);
        if (ids.length === 0)
            return;
        await this.queue.addBulk(ids.map((messageId) => emailJob(messageId)));
        if (Date.now() - this.lastRecheck >= RECHECK_AFTER_MS) {
            this.lastRecheck = Date.now();
            await this.requeueStranded();
        }
    }
    /**
     * A mail queued long ago whose job Bull holds in a state that will never run (after a Redis
     * crash the id can linger, and re-adding an id Bull still holds is a silent no-op): remove that
     * job and queue it again. Mails still waiting, delayed (backoff) or active are left alone.
     */
    async requeueStranded() {
        for (const messageId of await this.repository.queuedBefore(RECHECK_AFTER_MS, BATCH)) {
            const job = await this.queue.getJob(messageId);
            if (!job)
                continue; // gone: the bulk add above has queued it again
            const state = await job.getState();
            if ((0, outbox_sweeper_1.isRunnableJobState)(state))
                continue;
            this.logger.warn(`Mail ${messageId} had a stranded job (${state}); queued again`);
            await job.remove().catch(() => undefined);
            const { name, data, opts } = emailJob(messageId);
            await this.queue.add(name, data, opts);
        }
    }
};
exports.EmailSweeper = EmailSweeper;
exports.EmailSweeper = EmailSweeper = EmailSweeper_1 = __decorate([
    (0, common_1.Injectable)(),
    __param(1, (0, bull_1.InjectQueue)(email_queue_1.EMAIL_QUEUE)),
    __param(2, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [email_sending_repository_1.EmailSendingRepository, Object, Object])
], EmailSweeper);
const emailJob = (messageId) => ({
    name: email_queue_1.SEND_EMAIL_JOB,
    data: { messageId },
    opts: {
        jobId: messageId,
        attempts: email_queue_1.EMAIL_JOB_ATTEMPTS,
        backoff: { type: 'exponential', delay: email_queue_1.EMAIL_BACKOFF_MS },
        removeOnComplete: true,
        removeOnFail: true,
    },
});
//# sourceMappingURL=email.sweeper.js.map