import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { columnsOf } from '../database/entity-columns';
import type { GroupEntity } from '../groups/group.entity';
import { MembershipEntity } from '../participants/membership.entity';
import { ParticipantEntity } from '../participants/participant.entity';
import type { EmailPreferences } from '../participants/email-preferences';
import type { SessionEntity } from '../sessions/session.entity';

/** What a participant's export holds of their identity and memberships (sessions aside). */
export interface ParticipantExport extends EmailPreferences {
  externalId: string;
  language: string | null;
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

/** What the participant pages show and change of one membership (participant in a group). */
export interface MemberSettings
  extends
    Pick<
      MembershipEntity,
      | 'participantId'
      | 'groupId'
      | 'consentedAt'
      | 'privacyLevel'
      | 'linkVersion'
      | 'raisedIn'
      | 'levelBeforeRaise'
    >,
    Pick<
      ParticipantEntity,
      'prefCheckinReminder' | 'prefPrivacyRequest' | 'enterpriseId' | 'language'
    > {
  /** For the enterprise's event about a change (never shown on a page). */
  externalId: ParticipantEntity['externalId'];
  groupName: GroupEntity['name'];
  /** The enterprise behind the group: every page names it (docs/accessibility.md). */
  enterpriseName: string;
  consentRequired: GroupEntity['consentRequired'];
  /** The participant's own request (overrides the group's); null = none. */
  participantRequestedPrivacy: ParticipantEntity['requestedPrivacy'];
  groupRequestedPrivacy: GroupEntity['requestedPrivacy'];
}

/** A session as its check-in page needs it, with its membership. */
export interface CheckinSession
  extends MemberSettings, Pick<SessionEntity, 'sessionId' | 'returnUrl'> {
  completed: boolean;
  /** Consent to this check-in (docs/privacy.md); the membership's is `consentedAt`. */
  sessionConsentedAt: Date | null;
  /** The session's enterprise is a sandbox (docs/integrating.md): no real check-in happens there. */
  sandbox: boolean;
  /** The browsers (SHA-256 of their identities) that answered "Keep" to the pending raise. */
  raiseKeptIn: string[];
  /**
   * Each browser's own level (SHA-256 of its identity → the level it last chose or kept, lowered
   * by any lowering since): what "Go back" returns to there (membership_browser_levels).
   */
  browserLevels: Record<string, number>;
}

const MEMBERSHIP = columnsOf(MembershipEntity, [
  'participantId',
  'groupId',
  'consentedAt',
  'privacyLevel',
  'linkVersion',
  'raisedIn',
  'levelBeforeRaise',
]);
const PREFERENCES = columnsOf(ParticipantEntity, [
  'prefCheckinReminder',
  'prefPrivacyRequest',
  'enterpriseId',
  'externalId',
  'language',
]);

const MEMBER_COLUMNS = `${MEMBERSHIP.select('m')}, ${PREFERENCES.select('p')},
       g.name AS "groupName", g.consent_required AS "consentRequired",
       (SELECT name FROM enterprises WHERE id = p.enterprise_id) AS "enterpriseName",
       p.requested_privacy AS "participantRequestedPrivacy",
       g.requested_privacy AS "groupRequestedPrivacy"`;

/**
 * What the participant pages read (they write nothing themselves: a participant's choices go
 * through privacy/participant-choices.ts to the tables' owners). There is no enterprise here: a participant is identified by a
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
              s.consented_at AS "sessionConsentedAt",
              s.return_url AS "returnUrl", e.sandbox, ${MEMBER_COLUMNS},
              coalesce((SELECT array_agg(a.browser_hash) FROM membership_raise_answers a
                         WHERE a.participant_id = m.participant_id AND a.group_id = m.group_id),
                       '{}') AS "raiseKeptIn",
              coalesce((SELECT json_object_agg(l.browser_hash, l.own_level)
                          FROM membership_browser_levels l
                         WHERE l.participant_id = m.participant_id AND l.group_id = m.group_id),
                       '{}') AS "browserLevels"
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

  /** The participant's own data for their export: identity, preferences and every membership. */
  async exportOf(participantId: string): Promise<ParticipantExport | null> {
    const [participant] = await this.db.rows<ParticipantExport>(
      `SELECT p.external_id AS "externalId", p.email_ciphertext AS "emailCiphertext",
              p.pref_checkin_reminder AS "checkinReminder",
              p.pref_privacy_request AS "privacyRequest", p.language,
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
