import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/database';
import type { SessionRecord } from './session-view';
import { SessionFeatures, SessionsRepository } from './sessions.repository';

export type { SessionFeatures } from './sessions.repository';

/**
 * What other modules may read of, or do to, a session: exactly the repository methods the group
 * comparisons (SharedFeatures), retention and the check-in and settings pages use, passed through
 * unchanged (same SQL; the caller's `sql` transaction handle is passed on). Those modules inject
 * this, never `SessionsRepository` (`no-foreign-repository`, docs/design.md).
 */
@Injectable()
export class SessionAccess {
  constructor(private readonly sessions: SessionsRepository) {}

  /** A participant's sessions, oldest first, shown at their level now (her settings page). */
  listForParticipant(participantId: string): Promise<SessionRecord[]> {
    return this.sessions.listForParticipant(participantId);
  }

  /** The hand-off to the engine of a session not yet completed; null when completed or gone. */
  handOff(sessionId: string, tokenHash: string): Promise<{ biometric: boolean } | null> {
    return this.sessions.handOff(sessionId, tokenHash);
  }

  /** The session a hand-off token (its SHA-256) was issued for; null for an unknown or replaced one. */
  findHandoff(
    tokenHash: string,
  ): Promise<{ sessionId: string; completed: boolean; biometric: boolean } | null> {
    return this.sessions.findHandoff(tokenHash);
  }

  /** The browser that handed the check-in off confirmed it; false when no longer possible. */
  confirmHandoff(sessionId: string, tokenHash: string): Promise<boolean> {
    return this.sessions.confirmHandoff(sessionId, tokenHash);
  }

  /** The participant's check-ins (in any group) done in the browser known by `browserHashes`. */
  doneIn(participantId: string, browserHashes: readonly string[]): Promise<string[]> {
    return this.sessions.doneIn(participantId, browserHashes);
  }

  /** How many completed check-ins of the membership, but `exceptSessionId`, were done there. */
  countDoneIn(
    participantId: string,
    groupId: number,
    browserHashes: readonly string[],
    exceptSessionId: string | null,
  ): Promise<number> {
    return this.sessions.countDoneIn(participantId, groupId, browserHashes, exceptSessionId);
  }

  /** Sessions whose `features_shared` is not what their level says now, locked. */
  featuresToReconcile(
    scope: { participantId: string; groupId: number } | { limit: number },
    sql: Sql,
  ): Promise<(SessionFeatures & { share: boolean })[]> {
    return this.sessions.featuresToReconcile(scope, sql);
  }

  /** Records whether the sessions' features are counted in the group comparisons. */
  setFeaturesShared(sessionIds: readonly string[], shared: boolean, sql: Sql): Promise<void> {
    return this.sessions.setFeaturesShared(sessionIds, shared, sql);
  }

  /** Retention: up to `limit` sessions completed before `completedBefore` with a transcript, locked. */
  lockExpiredDetails(
    completedBefore: Date,
    limit: number,
    sql: Sql,
  ): Promise<(SessionFeatures & { featuresShared: boolean })[]> {
    return this.sessions.lockExpiredDetails(completedBefore, limit, sql);
  }

  /** Retention: removes the transcript, features and word counts of these sessions. */
  clearDetails(sessionIds: readonly string[], sql: Sql): Promise<void> {
    return this.sessions.clearDetails(sessionIds, sql);
  }
}
