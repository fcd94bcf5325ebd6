import { Injectable } from '@nestjs/common';
import type { PrivacyName } from '../common/privacy-model';
import { Database, Sql, statement } from '../database/database';
import { columnsOf, RowOf } from '../database/entity-columns';
import { ParticipantEntity } from './participant.entity';

const PARTICIPANT = columnsOf(ParticipantEntity, ['id', 'externalId', 'requestedPrivacy']);

export type ParticipantRecord = RowOf<typeof PARTICIPANT>;

import type { EmailPreference, EmailPreferences } from './email-preferences';
export type { EmailPreference, EmailPreferences } from './email-preferences';

/** The participants column holding each email preference. */
export const PREFERENCE_COLUMN: Record<EmailPreference, string> = {
  checkinReminder: 'pref_checkin_reminder',
  privacyRequest: 'pref_privacy_request',
};

/** What an unsubscribe link names (ParticipantLinks.unsubscribeTargetOf). */
export interface UnsubscribeLink {
  participantId: string;
  /** The membership whose mail carried it, at the link version signed. */
  membership: { groupId: number; linkVersion: number };
}

/**
 * An unsubscribe link is current while its membership's link version is the one it carries.
 * Parameters: $1 participant, $2 group, $3 version (see linkParameters); `p` is the participant.
 */
const LINK_CURRENT = `EXISTS (SELECT 1 FROM memberships m WHERE m.participant_id = p.id
    AND m.group_id = $2::bigint AND m.link_version = $3::integer)`;

/** What an unsubscribe page shows of its participant. */
export interface UnsubscribeTarget extends Pick<ParticipantEntity, 'language'> {
  enterpriseName: string;
}

const linkParameters = ({ participantId, membership }: UnsubscribeLink) => [
  participantId,
  membership.groupId,
  membership.linkVersion,
];

/** The participant an erasure is about, locked for its transaction. */
export interface ErasedParticipant {
  id: string;
  enterpriseId: string;
  externalId: string;
  groupIds: number[];
}

/**
 * Participants' SQL, and the only writer of `participants` (docs/design.md, "Table ownership"):
 * identities, the enterprise's privacy requests, the participant's email preferences and their
 * erasure. Reads of tenant data take the enterprise id; the participant pages' reads are scoped
 * by the signed link instead (docs/privacy.md).
 */
/**
 * POST /session/create's statements, prepared once per connection (database.ts, `statement`):
 * planning them on every request was a fifth of PostgreSQL's time a session creation
 * (docs/performance.md, "Fourth pass").
 */
const INSERT_IDENTITY = statement(
  'participants-insert-identity',
  `INSERT INTO participants AS p (enterprise_id, external_id, email_ciphertext, email_hash)
   VALUES ($1, $2, $3, $4)
   ON CONFLICT (enterprise_id, email_hash) DO NOTHING
   RETURNING ${PARTICIPANT.select('p')}`,
);
const FIND_WITH_MEMBERSHIP = statement(
  'participants-find-with-membership',
  `SELECT ${PARTICIPANT.select('p')},
          EXISTS (SELECT 1 FROM memberships m WHERE m.participant_id = p.id AND m.group_id = $3)
            AS "isMember"
     FROM participants p WHERE p.external_id = $1 AND p.enterprise_id = $2`,
);

@Injectable()
export class ParticipantsRepository {
  constructor(private readonly db: Database) {}

  findForEnterprise(
    enterpriseId: string,
    externalId: string,
    sql: Sql = this.db,
  ): Promise<ParticipantRecord | null> {
    return this.findOne(enterpriseId, 'p.external_id = $2', externalId, sql);
  }

  findByEmailHash(
    enterpriseId: string,
    emailHash: string,
    sql: Sql = this.db,
  ): Promise<ParticipantRecord | null> {
    return this.findOne(enterpriseId, 'p.email_hash = $2', emailHash, sql);
  }

  /**
   * Inserts an identity unless this enterprise already has one for the email (then null). The
   * unique (enterprise_id, email_hash) index makes concurrent inserts wait and yield one row.
   */
  async insertIdentity(
    values: Pick<
      ParticipantEntity,
      'enterpriseId' | 'externalId' | 'emailCiphertext' | 'emailHash'
    >,
    sql: Sql = this.db,
  ): Promise<ParticipantRecord | null> {
    const [participant] = await sql.rows<ParticipantRecord>(INSERT_IDENTITY, [
      values.enterpriseId,
      values.externalId,
      values.emailCiphertext,
      values.emailHash,
    ]);
    return participant ?? null;
  }

  /** The participant (this enterprise's) and whether it is a member of the group, in one query. */
  async findWithMembership(
    enterpriseId: string,
    externalId: string,
    groupId: number,
    sql: Sql = this.db,
  ): Promise<{ participant: ParticipantRecord; isMember: boolean } | null> {
    const [row] = await sql.rows<ParticipantRecord & { isMember: boolean }>(FIND_WITH_MEMBERSHIP, [
      externalId,
      enterpriseId,
      groupId,
    ]);
    if (!row) return null;
    const { isMember, ...participant } = row;
    return { participant, isMember };
  }

  /** The enterprise's participant's session ids, oldest first. */
  async listSessionIds(enterpriseId: string, participantId: string): Promise<string[]> {
    const rows = await this.db.rows<{ sessionId: string }>(
      `SELECT session_id AS "sessionId" FROM sessions
        WHERE participant_id = $1 AND enterprise_id = $2
        ORDER BY created_at, session_id`,
      [participantId, enterpriseId],
    );
    return rows.map((row) => row.sessionId);
  }

  /** Stores a participant-level privacy request; false when the enterprise has no such participant. */
  async setRequestedPrivacy(
    enterpriseId: string,
    externalId: string,
    names: PrivacyName[],
  ): Promise<boolean> {
    const rows = await this.db.rows(
      `UPDATE participants SET requested_privacy = $3
        WHERE external_id = $1 AND enterprise_id = $2 RETURNING id`,
      [externalId, enterpriseId, names],
    );
    return rows.length > 0;
  }

  /**
   * Email preferences belong to the participant (all their groups in the enterprise); answers
   * them as they were, or null when the participant is gone.
   */
  async setEmailPreferences(
    participantId: string,
    preferences: EmailPreferences,
    sql: Sql = this.db,
  ): Promise<EmailPreferences | null> {
    const [before] = await sql.rows<EmailPreferences>(
      `WITH old AS (
         SELECT id, pref_checkin_reminder, pref_privacy_request
           FROM participants WHERE id = $1 FOR UPDATE)
       UPDATE participants p SET pref_checkin_reminder = $2, pref_privacy_request = $3 FROM old
        WHERE p.id = old.id
       RETURNING old.pref_checkin_reminder AS "checkinReminder",
                 old.pref_privacy_request AS "privacyRequest"`,
      [participantId, preferences.checkinReminder, preferences.privacyRequest],
    );
    return before ?? null;
  }

  /**
   * What an unsubscribe page shows of a still valid link (its participant exists and the link is
   * not revoked, docs/security.md): the enterprise's name and the participant's language; null
   * when the link is not valid.
   */
  async unsubscribeLinkTarget(link: UnsubscribeLink): Promise<UnsubscribeTarget | null> {
    const [row] = await this.db.rows<UnsubscribeTarget>(
      `SELECT (SELECT name FROM enterprises WHERE id = p.enterprise_id) AS "enterpriseName",
              p.language
         FROM participants p WHERE p.id = $1 AND ${LINK_CURRENT}`,
      linkParameters(link),
    );
    return row ?? null;
  }

  /**
   * Keeps the language the participant chose on one of their pages (docs/i18n.md): their pages'
   * language in any browser, and their mails'.
   */
  async setLanguage(participantId: string, language: string): Promise<void> {
    await this.db.rows(
      `UPDATE participants SET language = $2 WHERE id = $1 AND language IS DISTINCT FROM $2`,
      [participantId, language],
    );
  }

  /**
   * One-click unsubscribe: turns one preference off; answers it as it was, or null when the
   * participant is gone or the link was revoked (docs/security.md).
   */
  async unsubscribe(
    link: UnsubscribeLink,
    preference: EmailPreference,
    sql: Sql = this.db,
  ): Promise<{ enterpriseId: string; before: boolean } | null> {
    const [row] = await sql.rows<{ enterpriseId: string; before: boolean }>(
      `WITH old AS (
         SELECT id, enterprise_id, ${PREFERENCE_COLUMN[preference]} AS before
           FROM participants p WHERE p.id = $1 AND ${LINK_CURRENT} FOR UPDATE)
       UPDATE participants p SET ${PREFERENCE_COLUMN[preference]} = false FROM old
        WHERE p.id = old.id
       RETURNING old.enterprise_id AS "enterpriseId", old.before`,
      linkParameters(link),
    );
    return row ?? null;
  }

  /**
   * The participant an erasure is about (within the enterprise when one is given), with the
   * groups they belong to, locked for the erasure's transaction; null when not found.
   */
  async lockForErasure(
    externalId: string,
    enterpriseId: string | null,
    sql: Sql,
  ): Promise<ErasedParticipant | null> {
    const [participant] = await sql.rows<ErasedParticipant>(
      `SELECT p.id, p.enterprise_id AS "enterpriseId", p.external_id AS "externalId",
              coalesce((SELECT array_agg(m.group_id::int ORDER BY m.group_id)
                          FROM memberships m WHERE m.participant_id = p.id), '{}') AS "groupIds"
         FROM participants p
        WHERE p.external_id = $1 AND ($2::uuid IS NULL OR p.enterprise_id = $2)
        FOR UPDATE OF p`,
      [externalId, enterpriseId],
    );
    return participant ?? null;
  }

  /**
   * Erasure: deletes the participant row. What hangs off it goes with it, as each table's own
   * entity declares (ON DELETE CASCADE): memberships, sessions and their results, word counts,
   * features, mails, ledger rows, cohort rows and link bindings.
   */
  async forget(participantId: string, sql: Sql): Promise<void> {
    await sql.rows('DELETE FROM participants WHERE id = $1', [participantId]);
  }

  private async findOne(
    enterpriseId: string,
    condition: string,
    value: string,
    sql: Sql,
  ): Promise<ParticipantRecord | null> {
    const [participant] = await sql.rows<ParticipantRecord>(
      `SELECT ${PARTICIPANT.select('p')} FROM participants p
        WHERE p.enterprise_id = $1 AND ${condition}`,
      [enterpriseId, value],
    );
    return participant ?? null;
  }
}
