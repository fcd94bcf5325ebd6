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
Object.defineProperty(exports, "__esModule", { value: true });
exports.EmailSender = void 0;
const common_1 = require("@nestjs/common");
const api_1 = require("@opentelemetry/api");
const pii_cipher_1 = require("../../common/crypto/pii-cipher");
const sealed_reads_1 = require("../../common/crypto/sealed-reads");
const locales_1 = require("../../common/i18n/locales");
const trace_context_1 = require("../../common/telemetry/trace-context");
const privacy_model_1 = require("../../common/privacy-model");
const config_module_1 = require("../../config/config.module");
const participant_links_1 = require("../../participant-links/participant-links");
const email_address_1 = require("../../common/validation/email-address");
const privacy_notice_1 = require("../privacy-notice");
const email_sending_repository_1 = require("./email-sending.repository");
const mail_templates_1 = require("./mail-templates");
const mailer_1 = require("./mailer");
const ended = (outcome, reason = null) => ({
    outcome,
    reason,
});
/**
 * Sends one queued mail: re-checks the preference (it may have been turned off since), renders
 * it, and sends it — or, for a sandbox enterprise, captures it instead (`sandbox_emails`). Permanent
 * SMTP failures (5xx) end it; temporary ones are retried by the queue.
 */
let EmailSender = class EmailSender {
    repository;
    mailer;
    cipher;
    links;
    config;
    constructor(repository, mailer, cipher, links, config) {
        this.repository = repository;
        this.mailer = mailer;
        this.cipher = cipher;
        this.links = links;
        this.config = config;
    }
    async send(messageId, lastAttempt) {
        const message = await this.repository.loadForSending(messageId);
        if (!message || message.status !== 'queued')
            return ended('skipped');
        // A span whose parent is the request that queued the mail (docs/operations.md, "Traces").
        return (0, trace_context_1.inStoredTrace)('email.send', message.traceContext, { 'email.message.id': message.id, 'email.type': message.type }, async (span) => {
            const result = await this.sendLoaded(message, lastAttempt);
            span.setAttribute('email.outcome', result.outcome);
            if (result.outcome === 'failed')
                span.setStatus({ code: api_1.SpanStatusCode.ERROR });
            return result;
        });
    }
    async sendLoaded(message, lastAttempt) {
        const messageId = message.id;
        if (!message.prefOn) {
            await this.repository.finish(messageId, 'skipped', 'preference turned off');
            return ended('skipped');
        }
        // Links at the membership's current link version (docs/security.md), signed when the mail is sent.
        const link = {
            participantId: message.participantId,
            groupId: message.groupId,
            linkVersion: message.linkVersion,
        };
        // A notice is a security message: no unsubscribe (docs/privacy.md).
        const unsubscribeUrl = message.type === 'privacyNotice' ? null : this.links.unsubscribeUrl(link, message.type);
        // A notice lists every raise it carries now; one added while it is sent gets a notice of its own.
        const raises = message.type === 'privacyNotice' ? (0, privacy_notice_1.raisesOf)(message.details, message.createdAt) : null;
        const mail = (0, mail_templates_1.renderMail)({
            type: message.type,
            locale: (0, locales_1.supportedLocale)(message.language) ?? locales_1.DEFAULT_LOCALE,
            enterpriseName: message.enterpriseName,
            operatorName: this.config.checkin.operatorName,
            privacyNoticeUrl: this.config.checkin.privacyNoticeUrl,
            groupName: message.groupName,
            settingsUrl: this.links.settingsUrl(link),
            unsubscribeUrl,
            checkinUrl: this.config.email.checkinReminderUrl,
            requestedLevel: (0, privacy_model_1.levelOfNames)(message.requestedPrivacy),
            currentLevel: message.privacyLevel,
            notice: raises,
        });
        // An address the keys cannot open will not open on a later attempt either: the mail fails
        // now (docs/data-at-rest.md, "Data the keys cannot open").
        const to = (0, sealed_reads_1.openSealed)(this.cipher, 'participants.email_ciphertext', message.emailCiphertext);
        if (to === null) {
            await this.repository.finish(messageId, 'failed', 'error');
            return ended('failed', 'error');
        }
        try {
            const outgoing = {
                id: message.id,
                to,
                fromName: message.enterpriseName,
                ...mail,
                headers: unsubscribeUrl
                    ? {
                        'List-Unsubscribe': `<${unsubscribeUrl}>`,
                        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
                    }
                    : {},
            };
            await (message.sandbox ? this.capture(message, outgoing) : this.mailer.send(outgoing));
        }
        catch (error) {
            const reason = (0, mailer_1.smtpFailureCode)(error);
            if ((0, mailer_1.isPermanentSmtpFailure)(error) || lastAttempt) {
                await this.repository.finish(messageId, 'failed', reason);
                return ended('failed', reason);
            }
            await this.repository.recordTemporaryFailure(messageId, reason);
            return ended('retry', reason);
        }
        await (raises
            ? this.repository.finishNotice(messageId, raises.length, this.config.email.dedupWindowMs)
            : this.repository.finish(messageId, 'sent', null));
        return ended('sent');
    }
    /**
     * A sandbox enterprise's mail (docs/integrating.md) is kept, rendered as it would have been sent, and
     * never reaches the mailer. Its recipient is checked as the mailer checks it, so the mail ends
     * as a real send would have (`sent`, or `failed` with `EADDRESS`).
     */
    async capture(message, mail) {
        if ((0, email_address_1.plainEmailAddress)(mail.to) === null)
            throw new mailer_1.NotPlainAddressError();
        await this.repository.capture(message, {
            subject: mail.subject,
            textCiphertext: this.cipher.encrypt(mail.text),
        });
    }
};
exports.EmailSender = EmailSender;
exports.EmailSender = EmailSender = __decorate([
    (0, common_1.Injectable)(),
    __param(4, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [email_sending_repository_1.EmailSendingRepository,
        mailer_1.Mailer,
        pii_cipher_1.PiiCipher,
        participant_links_1.ParticipantLinks, Object])
], EmailSender);
//# sourceMappingURL=email-sender.js.map