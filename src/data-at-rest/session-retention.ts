import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { SharedFeatures } from '../metrics/rollups/shared-features';
import { SessionAccess } from '../sessions/session-access';

/**
 * Retention of a session's details (docs/data-at-rest.md): the transcript, features and word
 * counts go once TRANSCRIPT_RETENTION_DAYS have passed; the scores stay, and released cohort
 * cells are left as they are. Features the group comparisons count are taken out of them first,
 * since their values go with the session's (SharedFeatures).
 */
@Injectable()
export class SessionRetention {
  constructor(
    private readonly db: Database,
    private readonly sessions: SessionAccess,
    private readonly sharedFeatures: SharedFeatures,
  ) {}

  /**
   * Clears up to `limit` sessions completed before `completedBefore`, in one transaction; two
   * workers take disjoint rows (SKIP LOCKED). Answers how many it cleared.
   */
  async removeExpired(completedBefore: Date, limit: number): Promise<number> {
    return this.db.transaction(async (sql) => {
      const due = await this.sessions.lockExpiredDetails(completedBefore, limit, sql);
      await this.sharedFeatures.unshare(
        due.filter((session) => session.featuresShared),
        sql,
      );
      await this.sessions.clearDetails(
        due.map((session) => session.sessionId),
        sql,
      );
      return due.length;
    });
  }
}
