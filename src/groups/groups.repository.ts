import { Injectable } from '@nestjs/common';
import type { PrivacyName } from '../common/privacy-model';
import { Database, Sql, statement } from '../database/database';
import { columnsOf, RowOf } from '../database/entity-columns';
import { GroupEntity } from './group.entity';

const GROUP = columnsOf(GroupEntity, [
  'groupId',
  'name',
  'requestedPrivacy',
  'inviteCode',
  'key',
  'consentRequired',
  'credits',
]);

/** A group as stored; `groupId` fits in a JSON number (docs/design.md). */
export type GroupRecord = RowOf<typeof GROUP>;

/** GROUP's columns in its order, as a list reads them (Database.tuples). */
type GroupTuple = [
  GroupRecord['groupId'],
  GroupRecord['name'],
  GroupRecord['requestedPrivacy'],
  GroupRecord['inviteCode'],
  GroupRecord['key'],
  GroupRecord['consentRequired'],
  GroupRecord['credits'],
];

/** The list of an enterprise's groups, and a group of its rows (bench/row-mode.js times both). */
export const LIST_FOR_ENTERPRISE = `SELECT ${GROUP.select()} FROM groups WHERE enterprise_id = $1 ORDER BY group_id`;
export const groupOf = (tuple: GroupTuple): GroupRecord => ({
  groupId: tuple[0],
  name: tuple[1],
  requestedPrivacy: tuple[2],
  inviteCode: tuple[3],
  key: tuple[4],
  consentRequired: tuple[5],
  credits: tuple[6],
});

/** Groups' SQL. Every method is scoped by the calling enterprise. */
/** A group by id, the enterprise's own: every POST /session/create starts here (prepared). */
const FIND_FOR_ENTERPRISE = statement(
  'groups-find-for-enterprise',
  `SELECT ${GROUP.select()} FROM groups WHERE group_id = $1 AND enterprise_id = $2`,
);

@Injectable()
export class GroupsRepository {
  constructor(private readonly db: Database) {}

  async listForEnterprise(enterpriseId: string): Promise<GroupRecord[]> {
    // As arrays: GET /groups' rows, 100 in the benchmark (Database.tuples).
    const tuples = await this.db.tuples<GroupTuple>(LIST_FOR_ENTERPRISE, [enterpriseId]);
    return tuples.map(groupOf);
  }

  async findForEnterprise(enterpriseId: string, groupId: number): Promise<GroupRecord | null> {
    const [group] = await this.db.rows<GroupRecord>(FIND_FOR_ENTERPRISE, [groupId, enterpriseId]);
    return group ?? null;
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
    values: Pick<GroupEntity, 'name' | 'key' | 'inviteCode'>,
  ): Promise<GroupRecord> {
    const [group] = await this.db.rows<GroupRecord>(
      `INSERT INTO groups (enterprise_id, name, key, invite_code) VALUES ($1, $2, $3, $4)
       RETURNING ${GROUP.select()}`,
      [enterpriseId, values.name, values.key, values.inviteCode],
    );
    return group;
  }

  /** Changes the given fields (null = keep); null when the enterprise has no such group. */
  async updateForEnterprise(
    enterpriseId: string,
    groupId: number,
    changes: { name: string | null; consentRequired: boolean | null },
  ): Promise<GroupRecord | null> {
    const [group] = await this.db.rows<GroupRecord>(
      `UPDATE groups
          SET name = coalesce($3, name),
              consent_required = coalesce($4, consent_required),
              updated_at = now()
        WHERE group_id = $1 AND enterprise_id = $2
      RETURNING ${GROUP.select()}`,
      [groupId, enterpriseId, changes.name, changes.consentRequired],
    );
    return group ?? null;
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
    const rows = await this.db.rows<{ externalId: string }>(
      `SELECT p.external_id AS "externalId"
         FROM memberships m
         JOIN participants p ON p.id = m.participant_id
        WHERE m.group_id = $1 AND p.enterprise_id = $2
        ORDER BY m.join_date, p.external_id`,
      [groupId, enterpriseId],
    );
    return rows.map((row) => row.externalId);
  }

  /** Stores the group's privacy request; false when the enterprise has no such group. */
  async setRequestedPrivacy(
    enterpriseId: string,
    groupId: number,
    names: PrivacyName[],
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

  /** One credit per completed check-in; balances may go negative (never blocks a check-in). */
  async deductCredit(groupId: number, sql: Sql = this.db): Promise<void> {
    await sql.rows('UPDATE groups SET credits = credits - 1 WHERE group_id = $1', [groupId]);
  }
}
