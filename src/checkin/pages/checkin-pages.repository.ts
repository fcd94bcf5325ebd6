import { Injectable } from '@nestjs/common';
import { Database } from '../../database/database';
import { columnsOf } from '../../database/entity-columns';
import type { GroupEntity } from '../../groups/group.entity';
import { MembershipEntity } from '../../participants/membership.entity';
import { ParticipantEntity } from '../../participants/participant.entity';
import type { SessionEntity } from '../../sessions/session.entity';

/** What the participant pages show and change of one membership (participant in a group). */
export interface MemberSettings
  extends
    Pick<MembershipEntity, 'participantId' | 'groupId' | 'consentedAt' | 'privacyLevel'>,
    Pick<ParticipantEntity, 'prefCheckinReminder' | 'prefPrivacyRequest'> {
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
}

const MEMBERSHIP = columnsOf(MembershipEntity, [
  'participantId',
  'groupId',
  'consentedAt',
  'privacyLevel',
]);
const PREFERENCES = columnsOf(ParticipantEntity, ['prefCheckinReminder', 'prefPrivacyRequest']);

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
              s.return_url AS "returnUrl", ${MEMBER_COLUMNS}
         FROM sessions s
         JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
         JOIN groups g ON g.group_id = m.group_id
         JOIN participants p ON p.id = m.participant_id
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

  /** Records consent (the first time counts); false when the membership is gone. */
  async recordConsent(participantId: string, groupId: number): Promise<boolean> {
    const rows = await this.db.rows(
      `UPDATE memberships SET consented_at = coalesce(consented_at, now())
        WHERE participant_id = $1 AND group_id = $2 RETURNING group_id`,
      [participantId, groupId],
    );
    return rows.length > 0;
  }

  /** Sets the member's own privacy level; false when the membership is gone. */
  async setPrivacyLevel(participantId: string, groupId: number, level: number): Promise<boolean> {
    const rows = await this.db.rows(
      `UPDATE memberships SET privacy_level = $3
        WHERE participant_id = $1 AND group_id = $2 RETURNING group_id`,
      [participantId, groupId, level],
    );
    return rows.length > 0;
  }

  /** Email preferences belong to the participant (all their groups in the enterprise). */
  async setEmailPreferences(
    participantId: string,
    preferences: { checkinReminder: boolean; privacyRequest: boolean },
  ): Promise<boolean> {
    const rows = await this.db.rows(
      `UPDATE participants SET pref_checkin_reminder = $2, pref_privacy_request = $3
        WHERE id = $1 RETURNING id`,
      [participantId, preferences.checkinReminder, preferences.privacyRequest],
    );
    return rows.length > 0;
  }
}
