import { Injectable } from '@nestjs/common';
import { Database, Sql } from '../database/database';
import { EMAILS_CHANNEL } from './email-queue';
import { EmailType } from './interact.errors';

/** The participants column holding each email type's preference. */
export const PREFERENCE_COLUMN: Record<EmailType, string> = {
  checkinReminder: 'pref_checkin_reminder',
  privacyRequest: 'pref_privacy_request',
};

/** What an unsubscribe link names (ParticipantLinks.unsubscribeTargetOf). */
export interface UnsubscribeLink {
  participantId: string;
  /** The membership whose mail carried it, at the link version signed; null: a link from
   * before link versions. */
  membership: { groupId: number; linkVersion: number } | null;
}

/**
 * An unsubscribe link is current while its membership's link version is the one it carries; a
 * link from before versions ($2 null) while none of the participant's links was ever revoked.
 * Parameters: $1 participant, $2 group, $3 version (see linkParameters); `p` is the participant.
 */
const LINK_CURRENT = `CASE WHEN $2::bigint IS NULL
    THEN NOT EXISTS (SELECT 1 FROM memberships m WHERE m.participant_id = p.id AND m.link_version > 0)
    ELSE EXISTS (SELECT 1 FROM memberships m WHERE m.participant_id = p.id
                    AND m.group_id = $2::bigint AND m.link_version = $3::integer) END`;

const linkParameters = ({ participantId, membership }: UnsubscribeLink) => [
  participantId,
  membership?.groupId ?? null,
  membership?.linkVersion ?? null,
];

/**
 * Email requests' SQL (the sending side is sending/email-sending.repository.ts). Queuing is one
 * INSERT … SELECT: the qualifying members (preference on, nothing of
 * that type queued or sent within the window) become `queued` rows; NOTIFY at commit wakes the
 * workers. A group of 10 000 is one statement, not 10 000.
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
        `INSERT INTO email_messages (enterprise_id, participant_id, group_id, type)
         SELECT $1, p.id, m.group_id, $3
           FROM memberships m JOIN participants p ON p.id = m.participant_id
          WHERE m.group_id = $2 AND p.enterprise_id = $1 AND p.${PREFERENCE_COLUMN[type]}
            AND NOT EXISTS (
              SELECT 1 FROM email_messages e
               WHERE e.participant_id = p.id AND e.type = $3 AND e.status IN ('queued', 'sent')
                 AND e.created_at > now() - $4 * interval '1 millisecond')
         RETURNING id`,
        [enterpriseId, groupId, type, windowMs],
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
        `INSERT INTO email_messages (enterprise_id, participant_id, group_id, type)
         SELECT $1, $2, $3, $4
          WHERE NOT EXISTS (
            SELECT 1 FROM email_messages e
             WHERE e.participant_id = $2 AND e.type = $4 AND e.status IN ('queued', 'sent')
               AND e.created_at > now() - $5 * interval '1 millisecond')
         RETURNING id`,
        [enterpriseId, participant.id, participant.groupId, type, windowMs],
      );
      await sql.rows(`SELECT pg_notify('${EMAILS_CHANNEL}', '')`);
      return rows.length;
    });
  }

  /**
   * The security notice of a raised privacy level (DESIGN §14): queued whatever the participant's
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
      `INSERT INTO email_messages (enterprise_id, participant_id, group_id, type, details)
       SELECT $1, $2, $3, 'privacyNotice', $4
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
      ],
    );
    if (rows.length > 0) await sql.rows(`SELECT pg_notify('${EMAILS_CHANNEL}', '')`);
    return rows.length > 0;
  }

  /** Whether an unsubscribe link is still valid: its participant exists and it is not revoked. */
  async unsubscribeLinkValid(link: UnsubscribeLink): Promise<boolean> {
    const [row] = await this.db.rows(
      `SELECT 1 FROM participants p WHERE p.id = $1 AND ${LINK_CURRENT}`,
      linkParameters(link),
    );
    return row !== undefined;
  }

  /**
   * One-click unsubscribe: turns the preference off; answers the preference before, or null when
   * the participant is gone or the link was revoked (DESIGN §15).
   */
  async unsubscribe(
    link: UnsubscribeLink,
    type: EmailType,
    sql: Sql = this.db,
  ): Promise<{ enterpriseId: string; before: boolean } | null> {
    const [row] = await sql.rows<{ enterpriseId: string; before: boolean }>(
      `WITH old AS (
         SELECT id, enterprise_id, ${PREFERENCE_COLUMN[type]} AS before
           FROM participants p WHERE p.id = $1 AND ${LINK_CURRENT} FOR UPDATE)
       UPDATE participants p SET ${PREFERENCE_COLUMN[type]} = false FROM old
        WHERE p.id = old.id
       RETURNING old.enterprise_id AS "enterpriseId", old.before`,
      linkParameters(link),
    );
    return row ?? null;
  }
}
