import { Injectable } from '@nestjs/common';
import { PiiCipher } from '../common/crypto/pii-cipher';
import { sha256Hex } from '../common/crypto/secrets';
import { ApiError } from '../common/errors/api-error';
import { SESSION_ID_PATTERN } from '../common/ids';
import { EventTypes, SessionResultPayload } from '../webhooks/events/events';
import { EventsRepository } from '../webhooks/events/events.repository';
import { GroupAccess } from '../groups/group-access';
import { WindowReleaser } from '../metrics/windows/window-releaser';
import {
  featureValues,
  MetricRollupsRepository,
} from '../metrics/rollups/metric-rollups.repository';
import { SharedFeatures } from '../metrics/rollups/shared-features';
import { midRankPercentiles } from '../metrics/rollups/mid-rank';
import { Database, Sql } from '../database/database';
import { SessionsRepository } from '../sessions/sessions.repository';
import { openSessionJson, sealJson, sealTranscript } from '../sessions/transcript-codec';
import { countWords } from './words';
import { IngestionErrors } from './ingestion.errors';
import { IngestionRepository, LockedSession } from './ingestion.repository';
import { carriesBiometric, SessionResultDto, withoutBiometric } from './session-result.dto';

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
 * Result ingestion (docs/checkin-flow.md). In one transaction, with the session row locked:
 * compute group and user percentiles (against sessions shown at level 5 only), store the result,
 * count its features in the group comparisons when it is itself shown at level 5, add the session
 * to its group's pending cohort runs and day count (docs/metrics.md), deduct a credit and write
 * the `user.session.result` event — each table through its owner. Posting the same result again
 * changes nothing; a different one is refused with 409.
 */
@Injectable()
export class IngestionService {
  constructor(
    private readonly db: Database,
    private readonly ingestion: IngestionRepository,
    private readonly sessions: SessionsRepository,
    private readonly rollups: MetricRollupsRepository,
    private readonly sharedFeatures: SharedFeatures,
    private readonly releases: WindowReleaser,
    private readonly groups: GroupAccess,
    private readonly events: EventsRepository,
    private readonly cipher: PiiCipher,
  ) {}

  async ingest(
    sessionId: string,
    posted: SessionResultDto,
    options: { synthetic?: boolean } = {},
  ): Promise<IngestionOutcome> {
    if (!SESSION_ID_PATTERN.test(sessionId))
      throw ApiError.badRequest(IngestionErrors.SessionNotFound);
    return this.db.transaction(async (sql) => {
      let result = posted;
      const session = await this.ingestion.lockSession(sessionId, sql);
      if (!session) throw ApiError.badRequest(IngestionErrors.SessionNotFound);
      // A sandbox takes made-up results only (its own completion route, the CLI's simulations):
      // its check-in pages never hand off to the engine, and no real analysis is stored where
      // the enterprise reads the participants' mails (docs/integrating.md).
      if (session.sandbox && !options.synthetic) {
        throw new ApiError(409, IngestionErrors.SandboxSession);
      }
      // A hand-off token the result names must be this session's current one (docs/checkin-flow.md).
      if (result.handoff !== undefined && sha256Hex(result.handoff) !== session.handoffTokenHash) {
        throw new ApiError(409, IngestionErrors.HandoffMismatch);
      }
      // Biometric inference off (docs/compliance.md): a result inferred from voice or face is
      // refused whole, nothing stored; a made-up one (sandbox, CLI) is made without them.
      if (!session.biometric && carriesBiometric(result)) {
        if (!options.synthetic) throw new ApiError(422, IngestionErrors.BiometricOff);
        result = withoutBiometric(result);
      }
      // Allowed, the result has all four subscores, as before declarations existed.
      if (session.biometric && result.subscores.vision === undefined) {
        throw ApiError.badRequest(IngestionErrors.SubscoresInvalid);
      }
      const hash = resultHash(result);
      if (session.status === 'completed') {
        if (session.resultHash === hash) return 'already-recorded';
        throw new ApiError(409, IngestionErrors.DifferentResult);
      }
      if (session.consentMissing) throw new ApiError(409, IngestionErrors.ConsentMissing);
      const completedAt = result.completedAt ? new Date(result.completedAt) : new Date();
      const groupPercentiles = await this.rollups.groupPercentiles(
        session.groupId,
        featureValues(result.features),
        sql,
      );
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
            ...(result.subscores.vision === undefined
              ? {}
              : { vision: result.subscores.vision, audio: result.subscores.audio }),
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
        // The level it is shared at (docs/privacy.md): handed off from a page and confirmed by
        // the browser that did, the level handed off; a sandbox's made-up result, the member's;
        // anything else, 0 for good.
        session.sandbox ? 'memberLevel' : session.handoffConfirmed ? 'handedOff' : 'pinnedAtZero',
        sql,
      );
      // Shown at level 5 now: its features join what later sessions of the group compare with.
      await this.sharedFeatures.reconcileMembership(session.participantId, session.groupId, sql);
      await this.releases.addCompleted(session, completedAt, sql);
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
   * Mid-rank percentile of each of the session's features among the participant's own other
   * completed sessions shown at level 5 now (every group; what the enterprise may read anyway)
   * and itself (midRankPercentiles, metrics/rollups/mid-rank.ts). Their values are stored only
   * encrypted, so they are opened here — a participant has few sessions. One the keys cannot open
   * counts as one whose features retention removed (docs/data-at-rest.md).
   */
  private async userPercentiles(
    session: LockedSession,
    features: Record<string, number>,
    sql: Sql,
  ): Promise<Record<string, number>> {
    const others = (
      await this.sessions.levelFiveFeaturesOf(session.participantId, session.sessionId, sql)
    )
      .map((row) => openSessionJson<Record<string, number>>(this.cipher, 'features', row.features))
      .filter((values) => values !== null);
    return midRankPercentiles(features, others);
  }
}
