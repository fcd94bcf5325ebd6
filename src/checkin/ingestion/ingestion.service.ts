import { Injectable } from '@nestjs/common';
import { PiiCipher } from '../../common/crypto/pii-cipher';
import { sha256Hex } from '../../common/crypto/secrets';
import { ApiError } from '../../common/errors/api-error';
import { SESSION_ID_PATTERN } from '../../common/ids';
import { EventTypes, SessionResultPayload } from '../../webhooks/events/events';
import { EventsRepository } from '../../webhooks/events/events.repository';
import { GroupsRepository } from '../../groups/groups.repository';
import { CohortCellsRepository } from '../../metrics/cohorts/cohort-cells.repository';
import {
  FeatureValues,
  featureValues,
  MetricRollupsRepository,
} from '../../metrics/rollups/metric-rollups.repository';
import { PRIVACY_FLOOR } from '../../common/privacy-model';
import { Database, Sql } from '../../database/database';
import { SessionsRepository } from '../../sessions/sessions.repository';
import { openJson, sealJson, sealTranscript } from '../../sessions/transcript-codec';
import { countWords } from './words';
import { IngestionErrors } from './ingestion.errors';
import { IngestionRepository, LockedSession } from './ingestion.repository';
import { SessionResultDto } from './session-result.dto';

export type IngestionOutcome = 'completed' | 'already-recorded';

/** Hash of the result's content, to tell a repeated post from a different result. */
function resultHash(result: SessionResultDto): string {
  const canonical = {
    version: result.version,
    mhci: result.mhci,
    subscores: [
      result.subscores.vision,
      result.subscores.audio,
      result.subscores.transcript,
      result.subscores.assessment,
    ],
    transcript: result.transcript.map((turn) => [turn.role, turn.content]),
    features: Object.keys(result.features)
      .sort()
      .map((name) => [name, result.features[name]]),
    completedAt: result.completedAt ? new Date(result.completedAt).toISOString() : null,
  };
  return sha256Hex(JSON.stringify(canonical));
}

/**
 * Result ingestion (docs/checkin-flow.md). In one transaction, with the session row locked: store
 * the result, compute group and user percentiles, add the session to its group's pending cohort
 * runs and day count (docs/metrics.md), deduct a credit and write the `user.session.result` event — each table
 * through its owner. Posting the same result again changes nothing; a different one is refused
 * with 409.
 */
@Injectable()
export class IngestionService {
  constructor(
    private readonly db: Database,
    private readonly ingestion: IngestionRepository,
    private readonly sessions: SessionsRepository,
    private readonly rollups: MetricRollupsRepository,
    private readonly cohorts: CohortCellsRepository,
    private readonly groups: GroupsRepository,
    private readonly events: EventsRepository,
    private readonly cipher: PiiCipher,
  ) {}

  async ingest(
    sessionId: string,
    result: SessionResultDto,
    options: { synthetic?: boolean } = {},
  ): Promise<IngestionOutcome> {
    if (!SESSION_ID_PATTERN.test(sessionId))
      throw ApiError.badRequest(IngestionErrors.SessionNotFound);
    const hash = resultHash(result);
    return this.db.transaction(async (sql) => {
      const session = await this.ingestion.lockSession(sessionId, sql);
      if (!session) throw ApiError.badRequest(IngestionErrors.SessionNotFound);
      // A sandbox takes made-up results only (its own completion route, the CLI's simulations):
      // its check-in pages never hand off to the engine, and no real analysis is stored where
      // the enterprise reads the participants' mails (docs/integrating.md).
      if (session.sandbox && !options.synthetic) {
        throw new ApiError(409, IngestionErrors.SandboxSession);
      }
      if (session.status === 'completed') {
        if (session.resultHash === hash) return 'already-recorded';
        throw new ApiError(409, IngestionErrors.DifferentResult);
      }
      if (session.consentMissing) throw new ApiError(409, IngestionErrors.ConsentMissing);
      const completedAt = result.completedAt ? new Date(result.completedAt) : new Date();
      const features = featureValues(result.features);
      await this.rollups.addFeatures(session.groupId, features, sql);
      const groupPercentiles = await this.groupPercentiles(session, features, sql);
      const userPercentiles = await this.userPercentiles(session, result.features, sql);
      const userTurns = result.transcript
        .filter((turn) => turn.role === 'user')
        .map((turn) => turn.content);
      const words = countWords(userTurns);
      await this.sessions.complete(
        sessionId,
        {
          completedAt,
          version: result.version,
          mhci: result.mhci,
          subscores: {
            vision: result.subscores.vision,
            audio: result.subscores.audio,
            transcript: result.subscores.transcript,
            assessment: result.subscores.assessment,
          },
          sealedTranscript: sealTranscript(this.cipher, result.transcript),
          sealedFeatures: sealJson(this.cipher, result.features),
          sealedWordCounts: sealJson(
            this.cipher,
            Object.fromEntries([...words.keys()].sort().map((word) => [word, words.get(word)])),
          ),
          countedWords: [...words.values()].reduce((sum, count) => sum + count, 0),
          groupPercentiles,
          userPercentiles,
          resultHash: hash,
          synthetic: options.synthetic ?? false,
        },
        sql,
      );
      await this.cohorts.addCompleted(session, completedAt, sql);
      await this.groups.deductCredit(session.groupId, sql);
      const payload: SessionResultPayload = {
        groupID: session.groupId,
        sessionID: session.sessionId,
        externalUserID: session.externalId,
        timestamp: completedAt.toISOString(),
      };
      await this.events.insert(
        {
          enterpriseId: session.enterpriseId,
          groupId: session.groupId,
          type: EventTypes.SessionResult,
          payload,
        },
        sql,
      );
      return 'completed';
    });
  }

  /**
   * Mid-rank percentile of each of the session's features among the participant's own completed
   * sessions (every group), the session itself included: (below + ½·equal) / n. Their values are
   * stored only encrypted, so they are opened here — a participant has few sessions.
   */
  private async userPercentiles(
    session: LockedSession,
    features: Record<string, number>,
    sql: Sql,
  ): Promise<Record<string, number>> {
    const earlier = (await this.sessions.sealedFeaturesOf(session.participantId, sql)).map((row) =>
      openJson<Record<string, number>>(this.cipher, row.features),
    );
    const percentiles: Record<string, number> = {};
    for (const name of Object.keys(features).sort()) {
      const mine = features[name];
      const values = [mine, ...earlier.flatMap((other) => (name in other ? [other[name]] : []))];
      const below = values.filter((value) => value < mine).length;
      const equal = values.filter((value) => value === mine).length;
      percentiles[name] = (below + 0.5 * equal) / values.length;
    }
    return percentiles;
  }

  /**
   * The session's features against its group, only when the group's completed sessions come from
   * at least the enterprise's `minCohortScores` other participants (docs/metrics.md): in a
   * smaller group a percentile tells where a colleague's values lie. Below that, `{}`.
   */
  private async groupPercentiles(
    session: LockedSession,
    features: FeatureValues,
    sql: Sql,
  ): Promise<Record<string, number>> {
    const floor = await this.cohorts.floorOf(session.groupId, sql);
    const enough = floor?.minCohortScores ?? PRIVACY_FLOOR.defaultScores;
    const others = await this.rollups.otherParticipantsWithResults(
      session.groupId,
      session.participantId,
      enough,
      sql,
    );
    if (others < enough) return {};
    return this.rollups.groupPercentiles(session.groupId, features, sql);
  }
}
