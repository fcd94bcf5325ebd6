import { Injectable } from '@nestjs/common';
import { Database } from '../../database/database';

/** What the participant pages show and change of one membership (participant in a group). */
export interface MemberSettings {
  participantId: string;
  groupId: number;
  groupName: string;
  consentRequired: boolean;
  consentedAt: Date | null;
  privacyLevel: number;
  /** The participant's own request (overrides the group's); null = none. */
  participantRequestedPrivacy: string[] | null;
  groupRequestedPrivacy: string[] | null;
  prefCheckinReminder: boolean;
  prefPrivacyRequest: boolean;
}

/** A session as its check-in page needs it, with its membership. */
export interface CheckinSession extends MemberSettings {
  sessionId: string;
  completed: boolean;
  returnUrl: string;
}

interface MemberRow {
  participant_id: string;
  group_id: string;
  group_name: string;
  consent_required: boolean;
  consented_at: Date | null;
  privacy_level: number;
  participant_requested_privacy: string[] | null;
  group_requested_privacy: string[] | null;
  pref_checkin_reminder: boolean;
  pref_privacy_request: boolean;
}

interface SessionRow extends MemberRow {
  session_id: string;
  status: string;
  return_url: string;
}

const MEMBER_COLUMNS = `m.participant_id, m.group_id, g.name AS group_name, g.consent_required,
       m.consented_at, m.privacy_level, p.requested_privacy AS participant_requested_privacy,
       g.requested_privacy AS group_requested_privacy, p.pref_checkin_reminder,
       p.pref_privacy_request`;

const toMember = (row: MemberRow): MemberSettings => ({
  participantId: row.participant_id,
  groupId: Number(row.group_id),
  groupName: row.group_name,
  consentRequired: row.consent_required,
  consentedAt: row.consented_at,
  privacyLevel: row.privacy_level,
  participantRequestedPrivacy: row.participant_requested_privacy,
  groupRequestedPrivacy: row.group_requested_privacy,
  prefCheckinReminder: row.pref_checkin_reminder,
  prefPrivacyRequest: row.pref_privacy_request,
});

/**
 * The participant pages' SQL. There is no enterprise here: a participant is identified by a
 * signed token (CheckinTokens) naming a session or a membership, which is the capability — it
 * reaches that one membership and nothing else. Memberships, sessions and participants belong to
 * one enterprise each (a session's membership is a foreign key), so no row of another tenant can
 * be joined in.
 */
@Injectable()
export class CheckinPagesRepository {
  constructor(private readonly db: Database) {}

  async findSession(sessionId: string): Promise<CheckinSession | null> {
    const rows = await this.db.rows<SessionRow>(
      `SELECT s.session_id, s.status, s.return_url, ${MEMBER_COLUMNS}
         FROM sessions s
         JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
         JOIN groups g ON g.group_id = m.group_id
         JOIN participants p ON p.id = m.participant_id
        WHERE s.session_id = $1`,
      [sessionId],
    );
    if (!rows.length) return null;
    const row = rows[0];
    return {
      ...toMember(row),
      sessionId: row.session_id,
      completed: row.status === 'completed',
      returnUrl: row.return_url,
    };
  }

  async findMember(participantId: string, groupId: number): Promise<MemberSettings | null> {
    const rows = await this.db.rows<MemberRow>(
      `SELECT ${MEMBER_COLUMNS}
         FROM memberships m
         JOIN groups g ON g.group_id = m.group_id
         JOIN participants p ON p.id = m.participant_id
        WHERE m.participant_id = $1 AND m.group_id = $2`,
      [participantId, groupId],
    );
    return rows.length ? toMember(rows[0]) : null;
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
