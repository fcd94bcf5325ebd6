import { Injectable } from '@nestjs/common';
import { biometricAllowedSql } from '../../enterprises/programme/programme';
import { Database } from '../../database/database';
import { columnsOf, RowOf } from '../../database/entity-columns';
import type { EnterpriseEntity } from '../../enterprises/enterprise.entity';
import type { GroupEntity } from '../../groups/group.entity';
import type { MembershipEntity } from '../../participants/membership.entity';
import type { ParticipantEntity } from '../../participants/participant.entity';
import { EmailMessageEntity, EmailStatus } from '../email-message.entity';
import { PREFERENCE_COLUMN } from '../../participants/participants.repository';
import { SANDBOX_EMAILS_KEPT, type SandboxEmailEntity } from '../sandbox-email.entity';
import { lockNotices, splitSent, type StoredNoticeDetails } from '../privacy-notice';

/** A queued mail that may be sent now (a notice may have to wait: `send_after`). */
const DUE = `status = 'queued' AND (send_after IS NULL OR send_after <= now())`;

const MESSAGE = columnsOf(EmailMessageEntity, [
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

/** A queued mail with what rendering and sending it needs. */
export type MessageToSend = RowOf<typeof MESSAGE> &
  Pick<ParticipantEntity, 'emailCiphertext' | 'language'> &
  Pick<EnterpriseEntity, 'sandbox'> & {
    /** The enterprise's name: the mail's sender (display name) and named in it. */
    enterpriseName: EnterpriseEntity['name'];
    /**
     * The enterprise's declared programme lets the engine analyse voice and face (docs/compliance.md):
     * false, and level 5 is described as features from her words.
     */
    biometric: boolean;
    /** The participant's preference for this type, now (a notice has none: always true). */
    prefOn: boolean;
    groupName: GroupEntity['name'];
    /** The request in force: the participant's own, else the group's. */
    requestedPrivacy: GroupEntity['requestedPrivacy'];
    privacyLevel: MembershipEntity['privacyLevel'];
    /** The membership's link version, carried by the mail's links (docs/security.md). */
    linkVersion: MembershipEntity['linkVersion'];
  };

/**
 * The email workers' SQL: queued mails for the sweeper, one mail for the sender, its outcome
 * (or, for a sandbox enterprise, the captured mail).
 * System work across every tenant (it acts on mails already requested by an enterprise).
 */
@Injectable()
export class EmailSendingRepository {
  constructor(private readonly db: Database) {}

  /** Queued mails due now, oldest first. */
  async queued(limit: number): Promise<string[]> {
    const rows = await this.db.rows<{ id: string }>(
      `SELECT id FROM email_messages WHERE ${DUE} ORDER BY created_at LIMIT $1`,
      [limit],
    );
    return rows.map((row) => row.id);
  }

  /** Queued mails due for more than `ageMs` (since created, or since `send_after`), oldest first. */
  async queuedBefore(ageMs: number, limit: number): Promise<string[]> {
    const rows = await this.db.rows<{ id: string }>(
      `SELECT id FROM email_messages
        WHERE ${DUE}
          AND coalesce(send_after, created_at) < now() - $1 * interval '1 millisecond'
        ORDER BY created_at LIMIT $2`,
      [ageMs, limit],
    );
    return rows.map((row) => row.id);
  }

  /**
   * The mails still queued (notices waiting for their time included) and how long the oldest due
   * one has been due (since created, or since its `send_after`), for the figures Prometheus
   * scrapes (docs/operations.md): one scan of the partial index of queued mails
   * (`email_messages_queued_idx`). A notice waiting for its window's end is not late.
   */
  async backlog(): Promise<{ pending: number; oldestPendingSeconds: number }> {
    const [row] = await this.db.rows<{ pending: number; oldestPendingSeconds: number }>(
      `SELECT count(*) AS pending,
              coalesce(extract(epoch FROM now() - min(coalesce(send_after, created_at))
                FILTER (WHERE send_after IS NULL OR send_after <= now())), 0)::float8
                AS "oldestPendingSeconds"
         FROM email_messages
        WHERE status = 'queued'`,
    );
    return row;
  }

  async loadForSending(messageId: string): Promise<MessageToSend | null> {
    const [message] = await this.db.rows<MessageToSend>(
      `SELECT ${MESSAGE.select('e')}, p.email_ciphertext AS "emailCiphertext",
              CASE e.type WHEN 'checkinReminder' THEN p.${PREFERENCE_COLUMN.checkinReminder}
                          WHEN 'privacyRequest' THEN p.${PREFERENCE_COLUMN.privacyRequest}
                          ELSE true END AS "prefOn",
              g.name AS "groupName",
              coalesce(p.requested_privacy, g.requested_privacy) AS "requestedPrivacy",
              coalesce(m.privacy_level, 0) AS "privacyLevel",
              coalesce(m.link_version, 0) AS "linkVersion",
              en.sandbox AS "sandbox", en.name AS "enterpriseName", p.language,
              ${biometricAllowedSql('en')} AS biometric
         FROM email_messages e
         JOIN enterprises en ON en.id = e.enterprise_id
         JOIN participants p ON p.id = e.participant_id
         JOIN groups g ON g.group_id = e.group_id
         LEFT JOIN memberships m ON m.participant_id = e.participant_id AND m.group_id = e.group_id
        WHERE e.id = $1`,
      [messageId],
    );
    return message ?? null;
  }

  /**
   * Keeps a sandbox enterprise's mail instead of sending it (docs/integrating.md), the text already
   * encrypted. A retried job captures it once.
   */
  async capture(
    message: Pick<MessageToSend, 'id' | 'enterpriseId'>,
    mail: Pick<SandboxEmailEntity, 'subject' | 'textCiphertext'>,
  ): Promise<void> {
    await this.db.rows(
      `INSERT INTO sandbox_emails (email_message_id, enterprise_id, subject, text_ciphertext)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (email_message_id) DO NOTHING`,
      [message.id, message.enterpriseId, mail.subject, mail.textCiphertext],
    );
    // Bounded: the enterprise's mails past the newest SANDBOX_EMAILS_KEPT go.
    await this.db.rows(
      `DELETE FROM sandbox_emails
        WHERE email_message_id IN (
          SELECT email_message_id FROM sandbox_emails
           WHERE enterprise_id = $1
           ORDER BY created_at DESC, email_message_id DESC
          OFFSET $2)`,
      [message.enterpriseId, SANDBOX_EMAILS_KEPT],
    );
  }

  async finish(
    messageId: string,
    status: Exclude<EmailStatus, 'queued'>,
    error: string | null,
  ): Promise<void> {
    await this.db.rows(
      `UPDATE email_messages SET status = $2, error = $3, attempts = attempts + $4,
              sent_at = CASE WHEN $2 = 'sent' THEN now() ELSE sent_at END
        WHERE id = $1 AND status = 'queued'`,
      [messageId, status, error, status === 'skipped' ? 0 : 1],
    );
  }

  /**
   * A notice was sent, rendered with its first `sentRaises` raises. Raises added while it was
   * being sent were not in it: they move to a notice of their own, sent at the end of the window
   * that starts now (docs/emails.md). Under the notices' lock (lockNotices), so a raise made
   * meanwhile joins that new notice.
   */
  async finishNotice(messageId: string, sentRaises: number, windowMs: number): Promise<void> {
    await this.db.transaction(async (sql) => {
      const [mail] = await sql.rows<{ participantId: string; groupId: number }>(
        `SELECT participant_id AS "participantId", group_id AS "groupId"
           FROM email_messages WHERE id = $1`,
        [messageId],
      );
      if (!mail) return;
      await lockNotices(sql, mail.participantId, mail.groupId);
      const [queued] = await sql.rows<{
        enterpriseId: string;
        details: StoredNoticeDetails | null;
        createdAt: Date;
      }>(
        `SELECT enterprise_id AS "enterpriseId", details, created_at AS "createdAt"
           FROM email_messages WHERE id = $1 AND status = 'queued'
            FOR UPDATE`,
        [messageId],
      );
      if (!queued) return;
      const { sent, rest } = splitSent(queued.details, sentRaises, queued.createdAt);
      await sql.rows(
        `UPDATE email_messages
            SET status = 'sent', error = NULL, attempts = attempts + 1, sent_at = now(),
                details = coalesce($2, details)
          WHERE id = $1`,
        [messageId, sent && JSON.stringify(sent)],
      );
      if (!rest) return;
      await sql.rows(
        `INSERT INTO email_messages
                (enterprise_id, participant_id, group_id, type, details, send_after)
         VALUES ($1, $2, $3, 'privacyNotice', $4, now() + $5 * interval '1 millisecond')`,
        [queued.enterpriseId, mail.participantId, mail.groupId, JSON.stringify(rest), windowMs],
      );
    });
  }

  async recordTemporaryFailure(messageId: string, error: string): Promise<void> {
    await this.db.rows(
      `UPDATE email_messages SET attempts = attempts + 1, error = $2
        WHERE id = $1 AND status = 'queued'`,
      [messageId, error],
    );
  }
}
