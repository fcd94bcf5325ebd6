import { Injectable } from '@nestjs/common';
import { Database, Sql } from '../database/database';
import { columnsOf, RowOf } from '../database/entity-columns';
import { SessionEntity } from '../sessions/session.entity';
import { biometricAllowedSql } from '../enterprises/programme/programme';

const LOCKED_SESSION = columnsOf(SessionEntity, [
  'sessionId',
  'enterpriseId',
  'participantId',
  'groupId',
  'status',
  'resultHash',
  'handoffTokenHash',
]);

/**
 * The session being completed, with its participant's external ID and whether its group asks
 * for consent that the member has not given (docs/privacy.md).
 */
export type LockedSession = RowOf<typeof LOCKED_SESSION> & {
  externalId: string;
  consentMissing: boolean;
  /** The browser that handed the check-in off confirmed the hand-off (docs/checkin-flow.md). */
  handoffConfirmed: boolean;
  /** The session's enterprise is a sandbox (docs/integrating.md). */
  sandbox: boolean;
  /**
   * The engine may infer from voice and face: the hand-off allowed it (or predates declarations)
   * and the enterprise's declared programme allows it now (docs/compliance.md).
   */
  biometric: boolean;
};

/**
 * What ingestion reads for itself: the session it completes, locked. Everything it writes goes
 * through the tables' owners (sessions, metric rollups, groups, the outbox), in its transaction.
 */
@Injectable()
export class IngestionRepository {
  constructor(private readonly db: Database) {}

  /** Locks the session row for the rest of the transaction (one completion at a time). */
  async lockSession(sessionId: string, sql: Sql = this.db): Promise<LockedSession | null> {
    const [session] = await sql.rows<LockedSession>(
      `SELECT ${LOCKED_SESSION.select('s')}, p.external_id AS "externalId",
              -- Consent to this check-in, on its own page, by a member whose consent stands, where
              -- the check-in needs it: as fixed at its hand-off, or, never handed off, as its group
              -- asked when it was created or asks now (docs/privacy.md).
              (s.consent_required OR (s.handoff_token_hash IS NULL AND g.consent_required))
                AND (s.consented_at IS NULL OR m.consented_at IS NULL) AS "consentMissing",
              s.handoff_confirmed_at IS NOT NULL AS "handoffConfirmed",
              e.sandbox,
              s.biometric IS NOT FALSE AND ${biometricAllowedSql('e')} AS biometric
         FROM sessions s
         JOIN participants p ON p.id = s.participant_id
         JOIN enterprises e ON e.id = p.enterprise_id
         JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
         JOIN groups g ON g.group_id = s.group_id
        WHERE s.session_id = $1
        FOR UPDATE OF s`,
      [sessionId],
    );
    return session ?? null;
  }
}
