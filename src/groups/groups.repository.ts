import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

/** A group as stored; `groupId` fits in a JSON number (DESIGN §4). */
export interface GroupRecord {
  groupId: number;
  name: string;
  requestedPrivacy: string[];
  inviteCode: string;
  key: string;
  consentRequired: boolean;
  credits: number;
}

interface GroupRow {
  group_id: string;
  name: string;
  requested_privacy: string[];
  invite_code: string;
  key: string;
  consent_required: boolean;
  credits: number;
}

const COLUMNS = 'group_id, name, requested_privacy, invite_code, key, consent_required, credits';

const toRecord = (row: GroupRow): GroupRecord => ({
  groupId: Number(row.group_id),
  name: row.name,
  requestedPrivacy: row.requested_privacy,
  inviteCode: row.invite_code,
  key: row.key,
  consentRequired: row.consent_required,
  credits: row.credits,
});

/** Groups' SQL. Every method is scoped by the calling enterprise. */
@Injectable()
export class GroupsRepository {
  constructor(private readonly db: Database) {}

  async listForEnterprise(enterpriseId: string): Promise<GroupRecord[]> {
    const rows = await this.db.rows<GroupRow>(
      `SELECT ${COLUMNS} FROM groups WHERE enterprise_id = $1 ORDER BY group_id`,
      [enterpriseId],
    );
    return rows.map(toRecord);
  }

  async findForEnterprise(enterpriseId: string, groupId: number): Promise<GroupRecord | null> {
    const rows = await this.db.rows<GroupRow>(
      `SELECT ${COLUMNS} FROM groups WHERE group_id = $1 AND enterprise_id = $2`,
      [groupId, enterpriseId],
    );
    return rows.length ? toRecord(rows[0]) : null;
  }

  async existsForEnterprise(enterpriseId: string, groupId: number): Promise<boolean> {
    const rows = await this.db.rows<unknown>(
      'SELECT 1 FROM groups WHERE group_id = $1 AND enterprise_id = $2',
      [groupId, enterpriseId],
    );
    return rows.length > 0;
  }

  async insertForEnterprise(
    enterpriseId: string,
    values: { name: string; key: string; inviteCode: string },
  ): Promise<GroupRecord> {
    const rows = await this.db.rows<GroupRow>(
      `INSERT INTO groups (enterprise_id, name, key, invite_code) VALUES ($1, $2, $3, $4)
       RETURNING ${COLUMNS}`,
      [enterpriseId, values.name, values.key, values.inviteCode],
    );
    return toRecord(rows[0]);
  }

  /** Changes the given fields (null = keep); null when the enterprise has no such group. */
  async updateForEnterprise(
    enterpriseId: string,
    groupId: number,
    changes: { name: string | null; consentRequired: boolean | null },
  ): Promise<GroupRecord | null> {
    const rows = await this.db.rows<GroupRow>(
      `UPDATE groups
          SET name = coalesce($3, name),
              consent_required = coalesce($4, consent_required),
              updated_at = now()
        WHERE group_id = $1 AND enterprise_id = $2
      RETURNING ${COLUMNS}`,
      [groupId, enterpriseId, changes.name, changes.consentRequired],
    );
    return rows.length ? toRecord(rows[0]) : null;
  }

  /** Deletes the group and, through ON DELETE CASCADE, everything that hangs off it. */
  async deleteForEnterprise(enterpriseId: string, groupId: number): Promise<boolean> {
    const rows = await this.db.rows<unknown>(
      'DELETE FROM groups WHERE group_id = $1 AND enterprise_id = $2 RETURNING group_id',
      [groupId, enterpriseId],
    );
    return rows.length > 0;
  }

  /** External IDs of the group's participants, in the order they joined. */
  async listParticipantExternalIds(enterpriseId: string, groupId: number): Promise<string[]> {
    const rows = await this.db.rows<{ external_id: string }>(
      `SELECT p.external_id
         FROM memberships m
         JOIN participants p ON p.id = m.participant_id
        WHERE m.group_id = $1 AND p.enterprise_id = $2
        ORDER BY m.join_date, p.external_id`,
      [groupId, enterpriseId],
    );
    return rows.map((row) => row.external_id);
  }

  /** Stores the group's privacy request; false when the enterprise has no such group. */
  async setRequestedPrivacy(
    enterpriseId: string,
    groupId: number,
    names: string[],
  ): Promise<boolean> {
    const rows = await this.db.rows(
      `UPDATE groups SET requested_privacy = $3, updated_at = now()
        WHERE group_id = $1 AND enterprise_id = $2 RETURNING group_id`,
      [groupId, enterpriseId, names],
    );
    return rows.length > 0;
  }

  /** Whether a group with this id exists at all, in any enterprise. */
  async existsAnywhere(groupId: number): Promise<boolean> {
    const rows = await this.db.rows('SELECT 1 FROM groups WHERE group_id = $1', [groupId]);
    return rows.length > 0;
  }
}
