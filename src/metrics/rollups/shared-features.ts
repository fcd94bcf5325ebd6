import { Injectable } from '@nestjs/common';
import { PiiCipher } from '../../common/crypto/pii-cipher';
import { Database, Sql } from '../../database/database';
import { SessionAccess, type SessionFeatures as Sealed } from '../../sessions/session-access';
import { openSessionJson } from '../../sessions/transcript-codec';
import { featureValues, MetricRollupsRepository } from './metric-rollups.repository';

/**
 * Which sessions the group comparisons count (docs/checkin-flow.md, "Result ingestion"): a
 * session's `groupPercentiles` compare it with the group's other sessions shown at level 5 when
 * its result is recorded — what the enterprise may read anyway — so the feature histograms hold
 * exactly those sessions' values, and `sessions.features_shared` says which. Kept in line where a
 * level changes (ingestion, the participant's choices, in their transaction), where features go
 * (erasure, retention), and by the workers' sweep for anything a transaction skipped (a row
 * another one held).
 */
@Injectable()
export class SharedFeatures {
  constructor(
    private readonly db: Database,
    private readonly sessions: SessionAccess,
    private readonly rollups: MetricRollupsRepository,
    private readonly cipher: PiiCipher,
  ) {}

  /** Brings one membership's sessions in line with its levels now, in the caller's transaction. */
  async reconcileMembership(participantId: string, groupId: number, sql: Sql): Promise<void> {
    await this.reconcile(
      await this.sessions.featuresToReconcile({ participantId, groupId }, sql),
      sql,
    );
  }

  /** The workers' pass: up to `limit` sessions anywhere; answers how many it brought in line. */
  async reconcileSome(limit: number): Promise<number> {
    return this.db.transaction(async (sql) => {
      const due = await this.sessions.featuresToReconcile({ limit }, sql);
      await this.reconcile(due, sql);
      return due.length;
    });
  }

  /** Takes these sessions' values out of the comparisons (erasure, retention). */
  async unshare(sessions: readonly Sealed[], sql: Sql): Promise<void> {
    if (sessions.length === 0) return;
    await this.rollups.lockGroups(
      sessions.map((session) => session.groupId),
      sql,
    );
    await this.rollups.forgetFeatureValues(
      sessions.flatMap((session) => this.valuesOf(session)),
      sql,
    );
    await this.sessions.setFeaturesShared(
      sessions.map((session) => session.sessionId),
      false,
      sql,
    );
  }

  private async reconcile(due: readonly (Sealed & { share: boolean })[], sql: Sql): Promise<void> {
    await this.rollups.lockGroups(
      due.map((session) => session.groupId),
      sql,
    );
    const shared = due.filter((session) => session.share);
    for (const session of shared) {
      await this.rollups.addFeatures(session.groupId, featureValues(this.featuresOf(session)), sql);
    }
    await this.sessions.setFeaturesShared(
      shared.map((session) => session.sessionId),
      true,
      sql,
    );
    await this.unshare(
      due.filter((session) => !session.share),
      sql,
    );
  }

  private valuesOf(session: Sealed): { groupId: number; name: string; value: number }[] {
    return Object.entries(this.featuresOf(session)).map(([name, value]) => ({
      groupId: session.groupId,
      name,
      value,
    }));
  }

  /**
   * The session's features; none when the keys cannot open them (docs/data-at-rest.md, "Data the
   * keys cannot open"): such a session is marked counted but adds nothing, and takes nothing out
   * when it stops being counted, so the sweep does not meet it again.
   */
  private featuresOf(session: Sealed): Record<string, number> {
    return openSessionJson<Record<string, number>>(this.cipher, 'features', session.features) ?? {};
  }
}
