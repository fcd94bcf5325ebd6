import { Injectable } from '@nestjs/common';
import { traceContextParam } from '../common/telemetry/trace-context';
import { Database, Sql } from '../database/database';
import { PREFERENCE_COLUMN } from '../participants/participants.repository';
import { EMAILS_CHANNEL } from './email-queue';
import { EmailType } from './interact.errors';

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
   * The security notice of a raised privacy level (docs/privacy.md): queued whatever the participant's
   * preferences, at most one per participant and group within the window.
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
    sql: Sql = this.db,
  ): Promise<boolean> {
    const rows = await sql.rows(
      `INSERT INTO email_messages (enterprise_id, participant_id, group_id, type, details, trace_context)
       SELECT $1, $2, $3, 'privacyNotice', $4, $6
        WHERE NOT EXISTS (
          SELECT 1 FROM email_messages e
           WHERE e.participant_id = $2 AND e.group_id = $3 AND e.type = 'privacyNotice'
             AND e.status IN ('queued', 'sent')
             AND e.created_at > now() - $5 * interval '1 millisecond')
       RETURNING id`,
      [
        notice.enterpriseId,
        notice.participantId,
        notice.groupId,
        JSON.stringify({ from: notice.from, to: notice.to }),
        windowMs,
        traceContextParam(),
      ],
    );
    if (rows.length > 0) await sql.rows(`SELECT pg_notify('${EMAILS_CHANNEL}', '')`);
    return rows.length > 0;
  }
}
