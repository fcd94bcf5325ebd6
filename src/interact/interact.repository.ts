import { Injectable } from '@nestjs/common';
import { traceContextParam } from '../common/telemetry/trace-context';
import { Database, Sql } from '../database/database';
import { PREFERENCE_COLUMN } from '../participants/participants.repository';
import { EMAILS_CHANNEL } from './email-queue';
import { EmailType } from './interact.errors';
import {
  lockNotices,
  type NoticeRaise,
  noticeDetails,
  type StoredNoticeDetails,
  withRaise,
} from './privacy-notice';

/**
 * Email requests' SQL (the sending side is sending/email-sending.repository.ts). Queuing is one
 * INSERT … SELECT: the qualifying members (preference on, nothing of
 * that type queued or sent within the window) become `queued` rows; NOTIFY at commit wakes the
 * workers. A group of 10 000 is one statement, not 10 000. Each row keeps the trace context of
 * the request that queued it, which the mail's sending span joins (docs/operations.md, "Traces").
 */
@Injectable()
export class InteractRepository {
  constructor(private readonly db: Database) {}

  async queueForGroup(
    enterpriseId: string,
    groupId: number,
    type: EmailType,
    windowMs: number,
  ): Promise<number> {
    return this.db.transaction(async (sql) => {
      const rows = await sql.rows(
        `INSERT INTO email_messages (enterprise_id, participant_id, group_id, type, trace_context)
         SELECT $1, p.id, m.group_id, $3, $5
           FROM memberships m JOIN participants p ON p.id = m.participant_id
          WHERE m.group_id = $2 AND p.enterprise_id = $1 AND p.${PREFERENCE_COLUMN[type]}
            AND NOT EXISTS (
              SELECT 1 FROM email_messages e
               WHERE e.participant_id = p.id AND e.type = $3 AND e.status IN ('queued', 'sent')
                 AND e.created_at > now() - $4 * interval '1 millisecond')
         RETURNING id`,
        [enterpriseId, groupId, type, windowMs, traceContextParam()],
      );
      await sql.rows(`SELECT pg_notify('${EMAILS_CHANNEL}', '')`);
      return rows.length;
    });
  }

  /** One participant, about their most recently joined group; null when not found. */
  async queueForParticipant(
    enterpriseId: string,
    externalId: string,
    type: EmailType,
    windowMs: number,
  ): Promise<number | null> {
    return this.db.transaction(async (sql) => {
      const [participant] = await sql.rows<{ id: string; groupId: number | null; pref: boolean }>(
        `SELECT p.id, p.${PREFERENCE_COLUMN[type]} AS pref,
                (SELECT m.group_id FROM memberships m WHERE m.participant_id = p.id
                  ORDER BY m.join_date DESC LIMIT 1) AS "groupId"
           FROM participants p WHERE p.external_id = $1 AND p.enterprise_id = $2`,
        [externalId, enterpriseId],
      );
      if (!participant) return null;
      if (!participant.pref || participant.groupId === null) return 0;
      const rows = await sql.rows(
        `INSERT INTO email_messages (enterprise_id, participant_id, group_id, type, trace_context)
         SELECT $1, $2, $3, $4, $6
          WHERE NOT EXISTS (
            SELECT 1 FROM email_messages e
             WHERE e.participant_id = $2 AND e.type = $4 AND e.status IN ('queued', 'sent')
               AND e.created_at > now() - $5 * interval '1 millisecond')
         RETURNING id`,
        [enterpriseId, participant.id, participant.groupId, type, windowMs, traceContextParam()],
      );
      await sql.rows(`SELECT pg_notify('${EMAILS_CHANNEL}', '')`);
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
  async queuePrivacyNotice(
    notice: {
      enterpriseId: string;
      participantId: string;
      groupId: number;
      from: number;
      to: number;
    },
    windowMs: number,
    sql?: Sql,
  ): Promise<QueuedNotice> {
    if (!sql) return this.db.transaction((own) => this.queuePrivacyNotice(notice, windowMs, own));
    await lockNotices(sql, notice.participantId, notice.groupId);
    const raise: NoticeRaise = { from: notice.from, to: notice.to, at: new Date().toISOString() };
    const [queued] = await sql.rows<{
      id: string;
      details: StoredNoticeDetails | null;
      createdAt: Date;
      sendAfter: Date | null;
    }>(
      `SELECT id, details, created_at AS "createdAt", send_after AS "sendAfter"
         FROM email_messages
        WHERE participant_id = $1 AND group_id = $2 AND type = 'privacyNotice'
          AND status = 'queued'
        ORDER BY created_at DESC
        LIMIT 1
          FOR UPDATE`,
      [notice.participantId, notice.groupId],
    );
    if (queued) {
      const details = withRaise(queued.details, raise, queued.createdAt);
      await sql.rows(`UPDATE email_messages SET details = $2 WHERE id = $1`, [
        queued.id,
        JSON.stringify(details),
      ]);
      return { id: queued.id, raises: details.raises.length, sendAfter: queued.sendAfter };
    }
    const [created] = await sql.rows<{ id: string; sendAfter: Date | null }>(
      `INSERT INTO email_messages
              (enterprise_id, participant_id, group_id, type, details, trace_context, send_after)
       SELECT $1, $2, $3, 'privacyNotice', $4, $6,
              (SELECT max(e.sent_at) + $5 * interval '1 millisecond'
                 FROM email_messages e
                WHERE e.participant_id = $2 AND e.group_id = $3 AND e.type = 'privacyNotice'
                  AND e.status = 'sent' AND e.sent_at > now() - $5 * interval '1 millisecond')
       RETURNING id, send_after AS "sendAfter"`,
      [
        notice.enterpriseId,
        notice.participantId,
        notice.groupId,
        JSON.stringify(noticeDetails([raise])),
        windowMs,
        traceContextParam(),
      ],
    );
    // A notice due now wakes the workers at commit; one that waits is found by their sweeps.
    if (created.sendAfter === null) await sql.rows(`SELECT pg_notify('${EMAILS_CHANNEL}', '')`);
    return { id: created.id, raises: 1, sendAfter: created.sendAfter };
  }
}

/** The notice a raise went into: its id, how many raises it now carries, when it may be sent. */
export interface QueuedNotice {
  id: string;
  raises: number;
  /** Null: at once. */
  sendAfter: Date | null;
}
