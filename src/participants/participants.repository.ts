import { Injectable } from '@nestjs/common';
import type { PrivacyName } from '../common/privacy-model';
import { Database, Sql } from '../database/database';
import { columnsOf, RowOf } from '../database/entity-columns';
import { MembershipEntity } from './membership.entity';
import { ParticipantEntity } from './participant.entity';

const PARTICIPANT = columnsOf(ParticipantEntity, ['id', 'externalId', 'requestedPrivacy']);
const MEMBERSHIP = columnsOf(MembershipEntity, ['groupId', 'joinDate', 'privacyLevel']);

export type ParticipantRecord = RowOf<typeof PARTICIPANT>;
export type MembershipRecord = RowOf<typeof MEMBERSHIP>;

/** Participants' and memberships' SQL. Reads of tenant data take the enterprise id. */
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
    const [participant] = await sql.rows<ParticipantRecord>(
      `INSERT INTO participants AS p (enterprise_id, external_id, email_ciphertext, email_hash)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (enterprise_id, email_hash) DO NOTHING
       RETURNING ${PARTICIPANT.select('p')}`,
      [values.enterpriseId, values.externalId, values.emailCiphertext, values.emailHash],
    );
    return participant ?? null;
  }

  /** Adds the membership; false when the participant already belongs to the group. */
  async insertMembership(
    participantId: string,
    groupId: number,
    sql: Sql = this.db,
  ): Promise<boolean> {
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
    const [row] = await sql.rows<ParticipantRecord & { isMember: boolean }>(
      `SELECT ${PARTICIPANT.select('p')},
              EXISTS (SELECT 1 FROM memberships m WHERE m.participant_id = p.id AND m.group_id = $3)
                AS "isMember"
         FROM participants p WHERE p.external_id = $1 AND p.enterprise_id = $2`,
      [externalId, enterpriseId, groupId],
    );
    if (!row) return null;
    const { isMember, ...participant } = row;
    return { participant, isMember };
  }

  /** The enterprise's participant's memberships, oldest first. */
  async listMemberships(enterpriseId: string, participantId: string): Promise<MembershipRecord[]> {
    return this.db.rows<MembershipRecord>(
      `SELECT ${MEMBERSHIP.select('m')}
         FROM memberships m JOIN participants p ON p.id = m.participant_id
        WHERE m.participant_id = $1 AND p.enterprise_id = $2
        ORDER BY m.join_date, m.group_id`,
      [participantId, enterpriseId],
    );
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
