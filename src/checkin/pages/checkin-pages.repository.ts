import { Injectable } from '@nestjs/common';
import { Database, Sql } from '../../database/database';
import { columnsOf } from '../../database/entity-columns';
import type { GroupEntity } from '../../groups/group.entity';
import { MembershipEntity } from '../../participants/membership.entity';
import { ParticipantEntity } from '../../participants/participant.entity';
import type { SessionEntity } from '../../sessions/session.entity';

/** What a participant's export holds of their identity and memberships (sessions aside). */
export interface ParticipantExport extends EmailPreferences {
  externalId: string;
  emailCiphertext: string;
  groups: {
    groupID: number;
    name: string;
    joinDate: string;
    privacyLevel: number;
    consentRequired: boolean;
    consentedAt: string | null;
  }[];
}

export interface EmailPreferences {
  checkinReminder: boolean;
  privacyRequest: boolean;
}

/** What the participant pages show and change of one membership (participant in a group). */
export interface MemberSettings
  extends
    Pick<
      MembershipEntity,
      'participantId' | 'groupId' | 'consentedAt' | 'privacyLevel' | 'linkVersion'
    >,
    Pick<ParticipantEntity, 'prefCheckinReminder' | 'prefPrivacyRequest' | 'enterpriseId'> {
  /** For the enterprise's event about a change (never shown on a page). */
  externalId: ParticipantEntity['externalId'];
  groupName: GroupEntity['name'];
  consentRequired: GroupEntity['consentRequired'];
  /** The participant's own request (overrides the group's); null = none. */
  participantRequestedPrivacy: ParticipantEntity['requestedPrivacy'];
  groupRequestedPrivacy: GroupEntity['requestedPrivacy'];
}

/** A session as its check-in page needs it, with its membership. */
export interface CheckinSession
  extends MemberSettings, Pick<SessionEntity, 'sessionId' | 'returnUrl'> {
  completed: boolean;
  /** The session's enterprise is a sandbox (DESIGN §17): no real check-in happens there. */
  sandbox: boolean;
}

const MEMBERSHIP = columnsOf(MembershipEntity, [
  'participantId',
  'groupId',
  'consentedAt',
  'privacyLevel',
  'linkVersion',
]);
const PREFERENCES = columnsOf(ParticipantEntity, [
  'prefCheckinReminder',
  'prefPrivacyRequest',
  'enterpriseId',
  'externalId',
]);

const MEMBER_COLUMNS = `${MEMBERSHIP.select('m')}, ${PREFERENCES.select('p')},
       g.name AS "groupName", g.consent_required AS "consentRequired",
       p.requested_privacy AS "participantRequestedPrivacy",
       g.requested_privacy AS "groupRequestedPrivacy"`;

/**
 * The participant pages' SQL. There is no enterprise here: a participant is identified by a
 * signed token (ParticipantLinks) naming a session or a membership, which is the capability — it
 * reaches that one membership and nothing else. Memberships, sessions and participants belong to
 * one enterprise each (a session's membership is a foreign key), so no row of another tenant can
 * be joined in.
 */
@Injectable()
export class CheckinPagesRepository {
  constructor(private readonly db: Database) {}

  async findSession(sessionId: string): Promise<CheckinSession | null> {
    const [session] = await this.db.rows<CheckinSession>(
      `SELECT s.session_id AS "sessionId", s.status = 'completed' AS completed,
              s.return_url AS "returnUrl", e.sandbox, ${MEMBER_COLUMNS}
         FROM sessions s
         JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
         JOIN groups g ON g.group_id = m.group_id
         JOIN participants p ON p.id = m.participant_id
         JOIN enterprises e ON e.id = p.enterprise_id
        WHERE s.session_id = $1`,
      [sessionId],
    );
    return session ?? null;
  }

  async findMember(participantId: string, groupId: number): Promise<MemberSettings | null> {
    const [member] = await this.db.rows<MemberSettings>(
      `SELECT ${MEMBER_COLUMNS}
         FROM memberships m
         JOIN groups g ON g.group_id = m.group_id
         JOIN participants p ON p.id = m.participant_id
        WHERE m.participant_id = $1 AND m.group_id = $2`,
      [participantId, groupId],
    );
    return member ?? null;
  }

  /**
   * Gives (`true`) or withdraws (`false`) consent; withdrawing also sets the level to 0 (DESIGN
   * §14) and bumps the link version, so every earlier link of the membership stops working
   * (§15). Answers the membership as it was and the link version now, or null when it is gone.
   * The first consent counts.
   */
  async setConsent(
    participantId: string,
    groupId: number,
    consent: boolean,
    sql: Sql = this.db,
  ): Promise<{ consented: boolean; privacyLevel: number; linkVersion: number } | null> {
    const [before] = await sql.rows<{
      consented: boolean;
      privacyLevel: number;
      linkVersion: number;
    }>(
      `WITH old AS (
         SELECT participant_id, group_id, consented_at IS NOT NULL AS consented, privacy_level
           FROM memberships WHERE participant_id = $1 AND group_id = $2 FOR UPDATE)
       UPDATE memberships m
          SET consented_at = CASE WHEN $3 THEN coalesce(m.consented_at, now()) END,
              privacy_level = CASE WHEN $3 THEN m.privacy_level ELSE 0 END,
              link_version = CASE WHEN $3 OR NOT old.consented THEN m.link_version
                                  ELSE m.link_version + 1 END
         FROM old
        WHERE m.participant_id = old.participant_id AND m.group_id = old.group_id
       RETURNING old.consented, old.privacy_level AS "privacyLevel",
                 m.link_version AS "linkVersion"`,
      [participantId, groupId, consent],
    );
    return before ?? null;
  }

  /**
   * "Sign out my links" (DESIGN §15): bumps the link version of every membership of the
   * participant, so every settings and unsubscribe link sent before stops working. Answers the
   * memberships' new versions.
   */
  async signOutLinks(
    participantId: string,
    sql: Sql = this.db,
  ): Promise<{ groupId: number; linkVersion: number }[]> {
    return sql.rows<{ groupId: number; linkVersion: number }>(
      `UPDATE memberships SET link_version = link_version + 1 WHERE participant_id = $1
       RETURNING group_id AS "groupId", link_version AS "linkVersion"`,
      [participantId],
    );
  }

  /** Sets the member's own privacy level; answers the level before, or null when it is gone. */
  async setPrivacyLevel(
    participantId: string,
    groupId: number,
    level: number,
    sql: Sql = this.db,
  ): Promise<number | null> {
    const [before] = await sql.rows<{ level: number }>(
      `WITH old AS (
         SELECT participant_id, group_id, privacy_level
           FROM memberships WHERE participant_id = $1 AND group_id = $2 FOR UPDATE)
       UPDATE memberships m SET privacy_level = $3 FROM old
        WHERE m.participant_id = old.participant_id AND m.group_id = old.group_id
       RETURNING old.privacy_level AS level`,
      [participantId, groupId, level],
    );
    return before?.level ?? null;
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

  /** The participant's own data for their export: identity, preferences and every membership. */
  async exportOf(participantId: string): Promise<ParticipantExport | null> {
    const [participant] = await this.db.rows<ParticipantExport>(
      `SELECT p.external_id AS "externalId", p.email_ciphertext AS "emailCiphertext",
              p.pref_checkin_reminder AS "checkinReminder",
              p.pref_privacy_request AS "privacyRequest",
              coalesce((SELECT json_agg(json_build_object(
                         'groupID', m.group_id, 'name', g.name, 'joinDate', m.join_date,
                         'privacyLevel', m.privacy_level, 'consentRequired', g.consent_required,
                         'consentedAt', m.consented_at) ORDER BY m.join_date, m.group_id)
                          FROM memberships m JOIN groups g ON g.group_id = m.group_id
                         WHERE m.participant_id = p.id), '[]') AS groups
         FROM participants p WHERE p.id = $1`,
      [participantId],
    );
    return participant ?? null;
  }
}
