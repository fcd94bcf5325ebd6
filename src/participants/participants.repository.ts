import { Injectable } from '@nestjs/common';
import { Database, Sql } from '../database/database';

export interface ParticipantRecord {
  id: string;
  externalId: string;
  requestedPrivacy: string[] | null;
}

export interface MembershipRecord {
  groupId: number;
  joinDate: Date;
  privacyLevel: number;
}

interface ParticipantRow {
  id: string;
  external_id: string;
  requested_privacy: string[] | null;
}

const PARTICIPANT_COLUMNS = 'id, external_id, requested_privacy';

const toParticipant = (row: ParticipantRow): ParticipantRecord => ({
  id: row.id,
  externalId: row.external_id,
  requestedPrivacy: row.requested_privacy,
});

/** Participants' and memberships' SQL. Reads of tenant data take the enterprise id. */
@Injectable()
export class ParticipantsRepository {
  constructor(private readonly db: Database) {}

  async findForEnterprise(
    enterpriseId: string,
    externalId: string,
    sql: Sql = this.db,
  ): Promise<ParticipantRecord | null> {
    const rows = await sql.rows<ParticipantRow>(
      `SELECT ${PARTICIPANT_COLUMNS} FROM participants WHERE external_id = $1 AND enterprise_id = $2`,
      [externalId, enterpriseId],
    );
    return rows.length ? toParticipant(rows[0]) : null;
  }

  async findByEmailHash(
    sql: Sql,
    enterpriseId: string,
    emailHash: string,
  ): Promise<ParticipantRecord | null> {
    const rows = await sql.rows<ParticipantRow>(
      `SELECT ${PARTICIPANT_COLUMNS} FROM participants WHERE enterprise_id = $1 AND email_hash = $2`,
      [enterpriseId, emailHash],
    );
    return rows.length ? toParticipant(rows[0]) : null;
  }

  /**
   * Inserts an identity unless this enterprise already has one for the email (then null). The
   * unique (enterprise_id, email_hash) index makes concurrent inserts wait and yield one row.
   */
  async insertIdentity(
    sql: Sql,
    values: {
      enterpriseId: string;
      externalId: string;
      emailCiphertext: string;
      emailHash: string;
    },
  ): Promise<ParticipantRecord | null> {
    const rows = await sql.rows<ParticipantRow>(
      `INSERT INTO participants (enterprise_id, external_id, email_ciphertext, email_hash)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (enterprise_id, email_hash) DO NOTHING
       RETURNING ${PARTICIPANT_COLUMNS}`,
      [values.enterpriseId, values.externalId, values.emailCiphertext, values.emailHash],
    );
    return rows.length ? toParticipant(rows[0]) : null;
  }

  /** Adds the membership; false when the participant already belongs to the group. */
  async insertMembership(sql: Sql, participantId: string, groupId: number): Promise<boolean> {
    const rows = await sql.rows(
      `INSERT INTO memberships (participant_id, group_id) VALUES ($1, $2)
       ON CONFLICT (participant_id, group_id) DO NOTHING RETURNING group_id`,
      [participantId, groupId],
    );
    return rows.length > 0;
  }

  /** The participant (this enterprise's) and whether it is a member of the group, in one query. */
  async findWithMembership(
    enterpriseId: string,
    externalId: string,
    groupId: number,
    sql: Sql = this.db,
  ): Promise<{ participant: ParticipantRecord; isMember: boolean } | null> {
    const rows = await sql.rows<ParticipantRow & { is_member: boolean }>(
      `SELECT ${PARTICIPANT_COLUMNS},
              EXISTS (SELECT 1 FROM memberships m WHERE m.participant_id = p.id AND m.group_id = $3)
                AS is_member
         FROM participants p WHERE external_id = $1 AND enterprise_id = $2`,
      [externalId, enterpriseId, groupId],
    );
    return rows.length
      ? { participant: toParticipant(rows[0]), isMember: rows[0].is_member }
      : null;
  }

  async listMemberships(participantId: string): Promise<MembershipRecord[]> {
    const rows = await this.db.rows<{ group_id: string; join_date: Date; privacy_level: number }>(
      `SELECT group_id, join_date, privacy_level FROM memberships
        WHERE participant_id = $1 ORDER BY join_date, group_id`,
      [participantId],
    );
    return rows.map((row) => ({
      groupId: Number(row.group_id),
      joinDate: row.join_date,
      privacyLevel: row.privacy_level,
    }));
  }

  async listSessionIds(participantId: string): Promise<string[]> {
    const rows = await this.db.rows<{ session_id: string }>(
      'SELECT session_id FROM sessions WHERE participant_id = $1 ORDER BY created_at, session_id',
      [participantId],
    );
    return rows.map((row) => row.session_id);
  }

  /** Stores a participant-level privacy request; false when the enterprise has no such participant. */
  async setRequestedPrivacy(
    enterpriseId: string,
    externalId: string,
    names: string[],
  ): Promise<boolean> {
    const rows = await this.db.rows(
      `UPDATE participants SET requested_privacy = $3
        WHERE external_id = $1 AND enterprise_id = $2 RETURNING id`,
      [externalId, enterpriseId, names],
    );
    return rows.length > 0;
  }
}
