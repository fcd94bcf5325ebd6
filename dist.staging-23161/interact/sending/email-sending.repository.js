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
exports.EmailSendingRepository = void 0;
const common_1 = require("@nestjs/common");
const database_1 = require("../../database/database");
const entity_columns_1 = require("../../database/entity-columns");
const email_message_entity_1 = require("../email-message.entity");
const participants_repository_1 = require("../../participants/participants.repository");
const sandbox_email_entity_1 = require("../sandbox-email.entity");
const privacy_notice_1 = require("../privacy-notice");
/** A queued mail that may be sent now (a notice may have to wait: `send_after`). */
const DUE = `status = 'queued' AND (send_after IS NULL OR send_after <= now())`;
const MESSAGE = (0, entity_columns_1.columnsOf)(email_message_entity_1.EmailMessageEntity, [
    'id',
    'enterpriseId',
    'type',
    'status',
    'participantId',
    'groupId',
    'details',
    'traceContext',
    'createdAt',
]);
/**
 * The email workers' SQL: queued mails for the sweeper, one mail for the sender, its outcome
 * (or, for a sandbox enterprise, the captured mail).
 * System work across every tenant (it acts on mails already requested by an enterprise).
 */
let EmailSendingRepository = class EmailSendingRepository {
    db;
    constructor(db) {
        this.db = db;
    }
    /** Queued mails due now, oldest first. */
    async queued(limit) {
        const rows = await this.db.rows(`SELECT id FROM email_messages WHERE ${DUE} ORDER BY created_at LIMIT $1`, [limit]);
        return rows.map((row) => row.id);
    }
    /** Queued mails due for more than `ageMs` (since created, or since `send_after`), oldest first. */
    async queuedBefore(ageMs, limit) {
        const rows = await this.db.rows(`SELECT id FROM email_messages
        WHERE ${DUE}
          AND coalesce(send_after, created_at) < now() - $1 * interval '1 millisecond'
        ORDER BY created_at LIMIT $2`, [ageMs, limit]);
        return rows.map((row) => row.id);
    }
    /**
     * The mails still queued (notices waiting for their time included) and how long the oldest due
     * one has been due (since created, or since its `send_after`), for the figures Prometheus
     * scrapes (docs/operations.md): one scan of the partial index of queued mails
     * (`email_messages_queued_idx`). A notice waiting for its window's end is not late.
     */
    async backlog() {
        const [row] = await this.db.rows(`SELECT count(*) AS pending,
              coalesce(extract(epoch FROM now() - min(coalesce(send_after, created_at))
                FILTER (WHERE send_after IS NULL OR send_after <= now())), 0)::float8
                AS "oldestPendingSeconds"
         FROM email_messages
        WHERE status = 'queued'`);
        return row;
    }
    async loadForSending(messageId) {
        const [message] = await this.db.rows(`SELECT ${MESSAGE.select('e')}, p.email_ciphertext AS "emailCiphertext",
              CASE e.type WHEN 'checkinReminder' THEN p.${participants_repository_1.PREFERENCE_COLUMN.checkinReminder}
                          WHEN 'privacyRequest' THEN p.${participants_repository_1.PREFERENCE_COLUMN.privacyRequest}
                          ELSE true END AS "prefOn",
              g.name AS "groupName",
              coalesce(p.requested_privacy, g.requested_privacy) AS "requestedPrivacy",
              coalesce(m.privacy_level, 0) AS "privacyLevel",
              coalesce(m.link_version, 0) AS "linkVersion",
              en.sandbox AS "sandbox", en.name AS "enterpriseName", p.language
         FROM email_messages e
         JOIN enterprises en ON en.id = e.enterprise_id
         JOIN participants p ON p.id = e.participant_id
         JOIN groups g ON g.group_id = e.group_id
         LEFT JOIN memberships m ON m.participant_id = e.participant_id AND m.group_id = e.group_id
        WHERE e.id = $1`, [messageId]);
        return message ?? null;
    }
    /**
     * Keeps a sandbox enterprise's mail instead of sending it (docs/integrating.md), the text already
     * encrypted. A retried job captures it once.
     */
    async capture(message, mail) {
        await this.db.rows(`INSERT INTO sandbox_emails (email_message_id, enterprise_id, subject, text_ciphertext)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (email_message_id) DO NOTHING`, [message.id, message.enterpriseId, mail.subject, mail.textCiphertext]);
        // Bounded: the enterprise's mails past the newest SANDBOX_EMAILS_KEPT go.
        await this.db.rows(`DELETE FROM sandbox_emails
        WHERE email_message_id IN (
          SELECT email_message_id FROM sandbox_emails
           WHERE enterprise_id = $1
           ORDER BY created_at DESC, email_message_id DESC
          OFFSET $2)`, [message.enterpriseId, sandbox_email_entity_1.SANDBOX_EMAILS_KEPT]);
    }
    async finish(messageId, status, error) {
        await this.db.rows(`UPDATE email_messages SET status = $2, error = $3, attempts = attempts + $4,
              sent_at = CASE WHEN $2 = 'sent' THEN now() ELSE sent_at END
        WHERE id = $1 AND status = 'queued'`, [messageId, status, error, status === 'skipped' ? 0 : 1]);
    }
    /**
     * A notice was sent, rendered with its first `sentRaises` raises. Raises added while it was
     * being sent were not in it: they move to a notice of their own, sent at the end of the window
     * that starts now (docs/emails.md). Under the notices' lock (lockNotices), so a raise made
     * meanwhile joins that new notice.
     */
    async finishNotice(messageId, sentRaises, windowMs) {
        await this.db.transaction(async (sql) => {
            const [mail] = await sql.rows(`SELECT participant_id AS "participantId", group_id AS "groupId"
           FROM email_messages WHERE id = $1`, [messageId]);
            if (!mail)
                return;
            await (0, privacy_notice_1.lockNotices)(sql, mail.participantId, mail.groupId);
            const [queued] = await sql.rows(`SELECT enterprise_id AS "enterpriseId", details, created_at AS "createdAt"
           FROM email_messages WHERE id = $1 AND status = 'queued'
            FOR UPDATE`, [messageId]);
            if (!queued)
                return;
            const { sent, rest } = (0, privacy_notice_1.splitSent)(queued.details, sentRaises, queued.createdAt);
            await sql.rows(`UPDATE email_messages
            SET status = 'sent', error = NULL, attempts = attempts + 1, sent_at = now(),
                details = coalesce($2, details)
          WHERE id = $1`, [messageId, sent && JSON.stringify(sent)]);
            if (!rest)
                return;
            await sql.rows(`INSERT INTO email_messages
                (enterprise_id, participant_id, group_id, type, details, send_after)
         VALUES ($1, $2, $3, 'privacyNotice', $4, now() + $5 * interval '1 millisecond')`, [queued.enterpriseId, mail.participantId, mail.groupId, JSON.stringify(rest), windowMs]);
        });
    }
    async recordTemporaryFailure(messageId, error) {
        await this.db.rows(`UPDATE email_messages SET attempts = attempts + 1, error = $2
        WHERE id = $1 AND status = 'queued'`, [messageId, error]);
    }
};
exports.EmailSendingRepository = EmailSendingRepository;
exports.EmailSendingRepository = EmailSendingRepository = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database])
], EmailSendingRepository);
//# sourceMappingURL=email-sending.repository.js.map