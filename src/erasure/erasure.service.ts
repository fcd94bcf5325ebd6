import { Injectable } from '@nestjs/common';
import { EXTERNAL_ID_PATTERN } from '../common/ids';
import { Database, Sql } from '../database/database';
import { CohortCellsRepository } from '../metrics/cohorts/cohort-cells.repository';
import { SharedFeatures } from '../metrics/rollups/shared-features';
import { ConsentLedgerRepository } from '../participants/consent-ledger.repository';
import { ErasedParticipant, ParticipantsRepository } from '../participants/participants.repository';
import { IdempotencyRepository } from '../sessions/idempotency.repository';
import { SessionsRepository } from '../sessions/sessions.repository';
import { EventTypes, UserDeletedPayload } from '../webhooks/events/events';
import { EventsRepository } from '../webhooks/events/events.repository';

/** PostgreSQL's `deadlock_detected`. */
const DEADLOCK = '40P01';
const MAX_ATTEMPTS = 3;

/** Who asked: the enterprise (API), the participant (settings page) or the operator (CLI). */
export type ErasureRequester =
  | { by: 'enterprise'; enterpriseId: string }
  | { by: 'participant'; participantId: string }
  | { by: 'operator' };

/**
 * Erasure (docs/privacy.md), in one transaction, each table's owner forgetting its part: the
 * participant's feature values the group comparisons count are taken out of their groups'
 * histograms (SharedFeatures) and their sessions out
 * of the live per-day counts of group `count` (metric rollups — first, while the rows that say
 * what the share is still exist); releases of group metrics stay as they are (docs/metrics.md); the
 * events and idempotent answers that name them are deleted (outbox, idempotency records); the
 * participant row goes (participants), and with it, as their entities declare (ON DELETE
 * CASCADE), their memberships, sessions and results, word counts, features, mails, ledger rows
 * their sessions still waiting for a release and their budget ledger; the consent ledger keeps one anonymous `erasure` row and every group they belonged to
 * gets a `user.deleted` event (their external ID only in the event's encrypted data). Afterwards
 * the external ID is unknown everywhere, and the same email is a new participant.
 */
@Injectable()
export class ErasureService {
  constructor(
    private readonly db: Database,
    private readonly participants: ParticipantsRepository,
    private readonly sharedFeatures: SharedFeatures,
    private readonly sessions: SessionsRepository,
    private readonly cohorts: CohortCellsRepository,
    private readonly idempotency: IdempotencyRepository,
    private readonly ledger: ConsentLedgerRepository,
    private readonly events: EventsRepository,
  ) {}

  /**
   * Erases the participant; false when there is none (for this requester). A deadlock with a
   * concurrent ingestion into the same group (both reduce or raise the same rollup rows) is
   * retried: PostgreSQL rolled one of the two back whole.
   */
  async erase(externalId: string, requester: ErasureRequester): Promise<boolean> {
    // A malformed ID names nobody (and a NUL byte must never reach PostgreSQL as text).
    if (!EXTERNAL_ID_PATTERN.test(externalId)) return false;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.eraseOnce(externalId, requester);
      } catch (error) {
        if ((error as { code?: string }).code !== DEADLOCK || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  private eraseOnce(externalId: string, requester: ErasureRequester): Promise<boolean> {
    return this.db.transaction(async (sql) => {
      const participant = await this.participants.lockForErasure(
        externalId,
        requester.by === 'enterprise' ? requester.enterpriseId : null,
        sql,
      );
      if (!participant) return false;
      if (requester.by === 'participant' && participant.id !== requester.participantId) {
        return false;
      }
      await this.eraseLocked(participant, sql);
      return true;
    });
  }

  private async eraseLocked(participant: ErasedParticipant, sql: Sql): Promise<void> {
    const { id, enterpriseId, externalId } = participant;
    // The values the group comparisons count are taken out (opened: stored only encrypted).
    await this.sharedFeatures.unshare(await this.sessions.sharedFeaturesOf(id, sql), sql);
    await this.cohorts.forgetParticipant(id, sql);
    await this.events.forgetParticipant(enterpriseId, externalId, sql);
    await this.idempotency.forgetParticipant(enterpriseId, externalId, sql);
    await this.participants.forget(id, sql);
    await this.ledger.appendErasure(enterpriseId, sql);
    const timestamp = new Date().toISOString();
    for (const groupId of participant.groupIds) {
      const payload: UserDeletedPayload = { groupID: groupId, timestamp };
      await this.events.insert(
        {
          enterpriseId,
          groupId,
          type: EventTypes.Deleted,
          payload,
          pii: { userIdentifier: externalId },
        },
        sql,
      );
    }
  }
}
