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
exports.InteractRepository = void 0;
const common_1 = require("@nestjs/common");
const trace_context_1 = require("../common/telemetry/trace-context");
const database_1 = require("../database/database");
const participants_repository_1 = require("../participants/participants.repository");
const email_queue_1 = require("./email-queue");
const privacy_notice_1 = require("./privacy-notice");
/**
 * Email requests' SQL (the sending side is sending/email-sending.repository.ts). Queuing is one
 * INSERT … SELECT: the qualifying members (preference on, nothing of
 * that type queued or sent within the window) become `queued` rows; NOTIFY at commit wakes the
 * workers. A group of 10 000 is one statement, not 10 000. Each row keeps the trace context of
 * the request that queued it, which the mail's sending span joins (docs/operations.md, "Traces").
 */
let InteractRepository = class InteractRepository {
    db;
    constructor(db) {
        this.db = db;
    }
    async queueForGroup(enterpriseId, groupId, type, windowMs) {
        return this.db.transaction(async (sql) => {
            const rows = await sql.rows(`INSERT INTO email_messages (enterprise_id, participant_id, group_id, type, trace_context)
         SELECT $1, p.id, m.group_id, $3, $5
           FROM memberships m JOIN participants p ON p.id = m.participant_id
          WHERE m.group_id = $2 AND p.enterprise_id = $1 AND p.${participants_repository_1.PREFERENCE_COLUMN[type]}
            AND NOT EXISTS (
              SELECT 1 FROM email_messages e
               WHERE e.participant_id = p.id AND e.type = $3 AND e.status IN ('queued', 'sent')
                 AND e.created_at > now() - $4 * interval '1 millisecond')
         RETURNING id`, [enterpriseId, groupId, type, windowMs, (0, trace_context_1.traceContextParam)()]);
            await sql.rows(`SELECT pg_notify('${email_queue_1.EMAILS_CHANNEL}', '')`);
            return rows.length;
        });
    }
    /** One participant, about their most recently joined group; null when not found. */
    async queueForParticipant(enterpriseId, externalId, type, windowMs) {
        return this.db.transaction(async (sql) => {
            const [participant] = await sql.rows(`SELECT p.id, p.${participants_repository_1.PREFERENCE_COLUMN[type]} AS pref,
                (SELECT m.group_id FROM memberships m WHERE m.participant_id = p.id
                  ORDER BY m.join_date DESC LIMIT 1) AS "groupId"
           FROM participants p WHERE p.external_id = $1 AND p.enterprise_id = $2`, [externalId, enterpriseId]);
            if (!participant)
                return null;
            if (!participant.pref || participant.groupId === null)
                return 0;
            const rows = await sql.rows(`INSERT INTO email_messages (enterprise_id, participant_id, group_id, type, trace_context)
         SELECT $1, $2, $3, $4, $6
          WHERE NOT EXISTS (
            SELECT 1 FROM email_messages e
             WHERE e.participant_id = $2 AND e.type = $4 AND e.status IN ('queued', 'sent')
               AND e.created_at > now() - $5 * interval '1 millisecond')
         RETURNING id`, [enterpriseId, participant.id, participant.groupId, type, windowMs, (0, trace_context_1.traceContextParam)()]);
            await sql.rows(`SELECT pg_notify('${email_queue_1.EMAILS_CHANNEL}', '')`);
            return rows.length;
        });
    }
    /**
     * The security notice of a raised privacy level (docs/emails.md, "The notice of a raise"):
     * queued whatever the participant's preferences, and never dropped. The raise joins the notice
     * still queued for this participant and group, if there is one (one mail then lists them all,
     * in order); else it starts a notice, sent at once, or, when a notice was sent within the
     * window, at that window's end, so she gets at most one notice per group and window. Runs under
     * the participant and group's notice lock (lockNotices), in the caller's transaction `sql` (in
     * one of its own without it): two raises at once land in one notice, none is lost.
     */
    async queuePrivacyNotice(notice, windowMs, sql) {
        if (!sql)
            return this.db.transaction((own) => this.queuePrivacyNotice(notice, windowMs, own));
        await (0, privacy_notice_1.lockNotices)(sql, notice.participantId, notice.groupId);
        const raise = { from: notice.from, to: notice.to, at: new Date().toISOString() };
        const [queued] = await sql.rows(`SELECT id, details, created_at AS "createdAt", send_after AS "sendAfter"
         FROM email_messages
        WHERE participant_id = $1 AND group_id = $2 AND type = 'privacyNotice'
          AND status = 'queued'
        ORDER BY created_at DESC
        LIMIT 1
          FOR UPDATE`, [notice.participantId, notice.groupId]);
        if (queued) {
            const details = (0, privacy_notice_1.withRaise)(queued.details, raise, queued.createdAt);
            await sql.rows(`UPDATE email_messages SET details = $2 WHERE id = $1`, [
                queued.id,
                JSON.stringify(details),
            ]);
            return { id: queued.id, raises: details.raises.length, sendAfter: queued.sendAfter };
        }
        const [created] = await sql.rows(`INSERT INTO email_messages
              (enterprise_id, participant_id, group_id, type, details, trace_context, send_after)
       SELECT $1, $2, $3, 'privacyNotice', $4, $6,
              (SELECT max(e.sent_at) + $5 * interval '1 millisecond'
                 FROM email_messages e
                WHERE e.participant_id = $2 AND e.group_id = $3 AND e.type = 'privacyNotice'
                  AND e.status = 'sent' AND e.sent_at > now() - $5 * interval '1 millisecond')
       RETURNING id, send_after AS "sendAfter"`, [
            notice.enterpriseId,
            notice.participantId,
            notice.groupId,
            JSON.stringify((0, privacy_notice_1.noticeDetails)([raise])),
            windowMs,
            (0, trace_context_1.traceContextParam)(),
        ]);
        // A notice due now wakes the workers at commit; one that waits is found by their sweeps.
        if (created.sendAfter === null)
            await sql.rows(`SELECT pg_notify('${email_queue_1.EMAILS_CHANNEL}', '')`);
        return { id: created.id, raises: 1, sendAfter: created.sendAfter };
    }
};
exports.InteractRepository = InteractRepository;
exports.InteractRepository = InteractRepository = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database])
], InteractRepository);
//# sourceMappingURL=interact.repository.js.map