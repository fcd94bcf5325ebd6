import { Injectable } from '@nestjs/common';
import { Database, Sql } from '../database/database';
import { columnsOf } from '../database/entity-columns';
import { SessionEntity } from './session.entity';
import type { SessionRecord } from './session-view';

const SESSION = columnsOf(SessionEntity, [
  'sessionId',
  'groupId',
  'createdAt',
  'completedAt',
  'version',
  'mhci',
  'subscores',
  'groupPercentiles',
  'userPercentiles',
  'transcript',
  'features',
]);

/** Sessions' SQL. Reads are scoped by the calling enterprise. */
@Injectable()
export class SessionsRepository {
  constructor(private readonly db: Database) {}

  async insert(
    values: Pick<
      SessionEntity,
      'sessionId' | 'enterpriseId' | 'participantId' | 'groupId' | 'returnUrl'
    >,
    sql: Sql = this.db,
  ): Promise<void> {
    await sql.rows(
      `INSERT INTO sessions (session_id, enterprise_id, participant_id, group_id, return_url)
       VALUES ($1, $2, $3, $4, $5)`,
      [
        values.sessionId,
        values.enterpriseId,
        values.participantId,
        values.groupId,
        values.returnUrl,
      ],
    );
  }

  /** The session with its participant's external ID and the membership's privacy level now. */
  async findForEnterprise(enterpriseId: string, sessionId: string): Promise<SessionRecord | null> {
    const [session] = await this.db.rows<SessionRecord>(
      `SELECT ${SESSION.select('s')}, p.external_id AS "externalId",
              m.privacy_level AS "privacyLevel"
         FROM sessions s
         JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
         JOIN participants p ON p.id = s.participant_id
        WHERE s.session_id = $1 AND s.enterprise_id = $2`,
      [sessionId, enterpriseId],
    );
    return session ?? null;
  }

  /**
   * Every session of a participant, oldest first, for their own export (the participant's
   * pages, never an enterprise route).
   */
  async listForParticipant(participantId: string): Promise<SessionRecord[]> {
    return this.db.rows<SessionRecord>(
      `SELECT ${SESSION.select('s')}, p.external_id AS "externalId",
              m.privacy_level AS "privacyLevel"
         FROM sessions s
         JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
         JOIN participants p ON p.id = s.participant_id
        WHERE s.participant_id = $1
        ORDER BY s.created_at, s.session_id`,
      [participantId],
    );
  }
}
