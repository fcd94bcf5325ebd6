import { Injectable } from '@nestjs/common';
import { featureBucket } from '../checkin/ingestion/feature-buckets';
import { EXTERNAL_ID_PATTERN } from '../common/ids';
import { Database, Sql } from '../database/database';
import { EventTypes, UserDeletedPayload } from '../webhooks/events/events';
import { EventsRepository } from '../webhooks/events/events.repository';
import { ConsentLedgerRepository } from '../participants/consent-ledger.repository';
import { ErasedParticipant, ErasureRepository } from './erasure.repository';

/** PostgreSQL's `deadlock_detected`. */
const DEADLOCK = '40P01';
const MAX_ATTEMPTS = 3;

/** Who asked: the enterprise (API), the participant (settings page) or the operator (CLI). */
export type ErasureRequester =
  | { by: 'enterprise'; enterpriseId: string }
  | { by: 'participant'; participantId: string }
  | { by: 'operator' };

/**
 * Erasure (DESIGN §14), in one transaction: the participant's share is taken out of their groups'
 * word rollups, feature histograms and cohort counts; the events and idempotent answers that name
 * them are deleted; the participant row goes, and with it (cascade) their memberships, sessions
 * and results, word counts, features, mails, ledger rows and cohort rows; the ledger keeps one
 * anonymous `erasure` row and every group they belonged to gets a `user.deleted` event (their
 * external ID only in the event's encrypted data). Afterwards the external ID is unknown
 * everywhere, and the same email is a new participant.
 */
@Injectable()
export class ErasureService {
  constructor(
    private readonly db: Database,
    private readonly erasure: ErasureRepository,
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
      const participant = await this.erasure.lock(
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
    await this.erasure.subtractWordCounts(id, sql);
    await this.erasure.subtractHistograms(
      histogramCounts(await this.erasure.featureValues(id, sql)),
      sql,
    );
    await this.erasure.subtractCohorts(id, sql);
    await this.erasure.deleteEventsNaming(enterpriseId, externalId, sql);
    await this.erasure.deleteIdempotencyRecordsNaming(enterpriseId, externalId, sql);
    await this.erasure.deleteParticipant(id, sql);
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

/** Feature values → histogram counts per (group, name, bucket), sorted (the lock order). */
function histogramCounts(values: readonly { groupId: number; name: string; value: number }[]) {
  const counts = new Map<
    string,
    { groupId: number; name: string; bucket: number; count: number }
  >();
  for (const { groupId, name, value } of values) {
    const bucket = featureBucket(value);
    const key = `${groupId}\u0000${name}\u0000${bucket}`;
    const entry = counts.get(key) ?? { groupId, name, bucket, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  return [...counts.values()].sort(
    (a, b) =>
      a.groupId - b.groupId || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.bucket - b.bucket),
  );
}
