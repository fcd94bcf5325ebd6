import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { EMAILS_CHANNEL } from './email-queue';
import { EmailType } from './interact.errors';

export interface MessageToSend {
  id: string;
  type: EmailType;
  status: string;
  participantId: string;
  groupId: number;
  emailCiphertext: string;
  prefOn: boolean;
  groupName: string;
  requestedPrivacy: string[];
  privacyLevel: number;
}

const PREFERENCE_COLUMN: Record<EmailType, string> = {
  checkinReminder: 'pref_checkin_reminder',
  privacyRequest: 'pref_privacy_request',
};

/**
 * Emails' SQL. Queuing is one INSERT … SELECT: the qualifying members (preference on, nothing of
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
      const [participant] = await sql.rows<{ id: string; group_id: string | null; pref: boolean }>(
        `SELECT p.id, p.${PREFERENCE_COLUMN[type]} AS pref,
                (SELECT m.group_id FROM memberships m WHERE m.participant_id = p.id
                  ORDER BY m.join_date DESC LIMIT 1) AS group_id
           FROM participants p WHERE p.external_id = $1 AND p.enterprise_id = $2`,
        [externalId, enterpriseId],
      );
      if (!participant) return null;
      if (!participant.pref || participant.group_id === null) return 0;
      const rows = await sql.rows(
        `INSERT INTO email_messages (enterprise_id, participant_id, group_id, type)
         SELECT $1, $2, $3, $4
          WHERE NOT EXISTS (
            SELECT 1 FROM email_messages e
             WHERE e.participant_id = $2 AND e.type = $4 AND e.status IN ('queued', 'sent')
               AND e.created_at > now() - $5 * interval '1 millisecond')
         RETURNING id`,
        [enterpriseId, participant.id, participant.group_id, type, windowMs],
      );
      await sql.rows(`SELECT pg_notify('${EMAILS_CHANNEL}', '')`);
      return rows.length;
    });
  }

  async queued(limit: number): Promise<string[]> {
    const rows = await this.db.rows<{ id: string }>(
      `SELECT id FROM email_messages WHERE status = 'queued' ORDER BY created_at LIMIT $1`,
      [limit],
    );
    return rows.map((row) => row.id);
  }

  /** Queued mails created more than `ageMs` ago, oldest first. */
  async queuedBefore(ageMs: number, limit: number): Promise<string[]> {
    const rows = await this.db.rows<{ id: string }>(
      `SELECT id FROM email_messages
        WHERE status = 'queued' AND created_at < now() - $1 * interval '1 millisecond'
        ORDER BY created_at LIMIT $2`,
      [ageMs, limit],
    );
    return rows.map((row) => row.id);
  }

  async loadForSending(messageId: string): Promise<MessageToSend | null> {
    const rows = await this.db.rows<{
      id: string;
      type: EmailType;
      status: string;
      participant_id: string;
      group_id: string;
      email_ciphertext: string;
      pref_checkin_reminder: boolean;
      pref_privacy_request: boolean;
      group_name: string;
      requested: string[];
      privacy_level: number;
    }>(
      `SELECT e.id, e.type, e.status, e.participant_id, e.group_id, p.email_ciphertext,
              p.pref_checkin_reminder, p.pref_privacy_request, g.name AS group_name,
              coalesce(p.requested_privacy, g.requested_privacy) AS requested,
              coalesce(m.privacy_level, 0) AS privacy_level
         FROM email_messages e
         JOIN participants p ON p.id = e.participant_id
         JOIN groups g ON g.group_id = e.group_id
         LEFT JOIN memberships m ON m.participant_id = e.participant_id AND m.group_id = e.group_id
        WHERE e.id = $1`,
      [messageId],
    );
    if (!rows.length) return null;
    const row = rows[0];
    return {
      id: row.id,
      type: row.type,
      status: row.status,
      participantId: row.participant_id,
      groupId: Number(row.group_id),
      emailCiphertext: row.email_ciphertext,
      prefOn: row.type === 'checkinReminder' ? row.pref_checkin_reminder : row.pref_privacy_request,
      groupName: row.group_name,
      requestedPrivacy: row.requested,
      privacyLevel: row.privacy_level,
    };
  }

  async finish(
    messageId: string,
    status: 'sent' | 'failed' | 'skipped',
    error: string | null,
  ): Promise<void> {
    await this.db.rows(
      `UPDATE email_messages SET status = $2, error = $3, attempts = attempts + $4,
              sent_at = CASE WHEN $2 = 'sent' THEN now() ELSE sent_at END
        WHERE id = $1 AND status = 'queued'`,
      [messageId, status, error, status === 'skipped' ? 0 : 1],
    );
  }

  async recordTemporaryFailure(messageId: string, error: string): Promise<void> {
    await this.db.rows(
      'UPDATE email_messages SET attempts = attempts + 1, error = $2 WHERE id = $1',
      [messageId, error],
    );
  }

  /** One-click unsubscribe: turns the preference off. */
  async unsubscribe(participantId: string, type: EmailType): Promise<boolean> {
    const rows = await this.db.rows(
      `UPDATE participants SET ${PREFERENCE_COLUMN[type]} = false WHERE id = $1 RETURNING id`,
      [participantId],
    );
    return rows.length > 0;
  }
}
