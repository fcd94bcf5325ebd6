import { Injectable } from '@nestjs/common';
import { Database, Sql } from '../database/database';
import { SessionRecord, SessionResultFields } from './session-view';

interface SessionRow {
  session_id: string;
  external_id: string;
  group_id: string;
  created_at: Date;
  completed_at: Date | null;
  version: string | null;
  privacy_level: number;
  mhci: number | null;
  subscores: SessionResultFields['subscores'] | null;
  group_percentiles: Record<string, number> | null;
  user_percentiles: Record<string, number> | null;
  transcript: SessionResultFields['transcript'] | null;
  features: Record<string, number> | null;
}

const toRecord = (row: SessionRow): SessionRecord => ({
  sessionId: row.session_id,
  externalId: row.external_id,
  groupId: Number(row.group_id),
  createdAt: row.created_at,
  completedAt: row.completed_at,
  version: row.version,
  privacyLevel: row.privacy_level,
  result:
    row.completed_at && row.mhci !== null
      ? {
          mhci: row.mhci,
          subscores: row.subscores!,
          groupPercentiles: row.group_percentiles ?? {},
          userPercentiles: row.user_percentiles ?? {},
          transcript: row.transcript ?? [],
          features: row.features ?? {},
        }
      : null,
});

/** Sessions' SQL. Reads are scoped by the calling enterprise. */
@Injectable()
export class SessionsRepository {
  constructor(private readonly db: Database) {}

  async insert(
    sql: Sql,
    values: {
      sessionId: string;
      enterpriseId: string;
      participantId: string;
      groupId: number;
      returnUrl: string;
    },
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
    const rows = await this.db.rows<SessionRow>(
      `SELECT s.session_id, p.external_id, s.group_id, s.created_at, s.completed_at, s.version,
              m.privacy_level, s.mhci, s.subscores, s.group_percentiles, s.user_percentiles,
              s.transcript, s.features
         FROM sessions s
         JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
         JOIN participants p ON p.id = s.participant_id
        WHERE s.session_id = $1 AND s.enterprise_id = $2`,
      [sessionId, enterpriseId],
    );
    return rows.length ? toRecord(rows[0]) : null;
  }
}
