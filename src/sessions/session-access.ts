import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/database';
import { SessionFeatures, SessionsRepository } from './sessions.repository';

export type { SessionFeatures } from './sessions.repository';

/**
 * What other modules may read of, or do to, a session's features: exactly the repository methods
 * the group comparisons (SharedFeatures) and retention use, passed through unchanged (same SQL;
 * the caller's `sql` transaction handle is passed on). Those modules inject this, never
 * `SessionsRepository` (`no-foreign-repository`, docs/design.md).
 */
@Injectable()
export class SessionAccess {
  constructor(private readonly sessions: SessionsRepository) {}

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
