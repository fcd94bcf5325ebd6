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
var EmailProcessor_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.EmailProcessor = void 0;
const bull_1 = require("@nestjs/bull");
const common_1 = require("@nestjs/common");
const email_queue_1 = require("../email-queue");
const email_measurements_1 = require("./email-measurements");
const email_sender_1 = require("./email-sender");
let EmailProcessor = EmailProcessor_1 = class EmailProcessor {
    sender;
    measurements;
    logger = new common_1.Logger(EmailProcessor_1.name);
    constructor(sender, measurements) {
        this.sender = sender;
        this.measurements = measurements;
    }
    /**
     * Sends one mail and counts how it ended. A failure is one warn line (the message id, the
     * reason code kept in email_messages, the attempt and what happens next); a temporary one
     * throws so Bull retries it with backoff.
     */
    async send(job) {
        const attempt = job.attemptsMade + 1;
        const attempts = job.opts.attempts ?? email_queue_1.EMAIL_JOB_ATTEMPTS;
        const { messageId } = job.data;
        const { outcome, reason } = await this.sender.send(messageId, attempt >= attempts);
        if (outcome === 'sent')
            this.measurements.sent.inc();
        if (outcome !== 'failed' && outcome !== 'retry')
            return;
        const nextAttemptAt = outcome === 'retry' ? new Date(Date.now() + (0, email_queue_1.emailRetryDelayMs)(attempt)) : null;
        (outcome === 'retry' ? this.measurements.retried : this.measurements.failed).inc();
        this.logger.warn({ messageId, reason, attempt, outcome, nextAttemptAt: nextAttemptAt?.toISOString() ?? null }, `Mail ${messageId}, attempt ${attempt} of ${attempts}, failed: ${reason}; ` +
            (nextAttemptAt
                ? `next attempt at ${nextAttemptAt.toISOString()}`
                : 'not retried: the mail has failed'));
        if (outcome === 'retry')
            throw new Error('temporary SMTP failure; retrying');
    }
};
exports.EmailProcessor = EmailProcessor;
__decorate([
    (0, bull_1.Process)({ name: email_queue_1.SEND_EMAIL_JOB, concurrency: 10 }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], EmailProcessor.prototype, "send", null);
exports.EmailProcessor = EmailProcessor = EmailProcessor_1 = __decorate([
    (0, bull_1.Processor)(email_queue_1.EMAIL_QUEUE),
    __metadata("design:paramtypes", [email_sender_1.EmailSender,
        email_measurements_1.EmailMeasurements])
], EmailProcessor);
//# sourceMappingURL=email.processor.js.map