import { Injectable } from '@nestjs/common';
import { Database, Sql, statement } from '../database/database';
import { columnsOf } from '../database/entity-columns';
import { SessionEntity, Subscores } from './session.entity';
import type { SessionRecord } from './session-view';
import { SHOWN_LEVEL } from './shown-level';
import { MAX_PRIVACY_LEVEL } from '../common/privacy-model';
import { biometricAllowedSql } from '../enterprises/programme/programme';

const SESSION = columnsOf(SessionEntity, [
  'sessionId',
  'groupId',
  'createdAt',
  'completedAt',
  'version',
  'mhci',
  'subscores',
  'groupPercentiles',
  'userPercentiles',
  'transcript',
  'features',
]);

export { SHOWN_LEVEL } from './shown-level';

/** A session's features (sealed, transcript-codec.ts), with its group. */
export interface SessionFeatures {
  sessionId: string;
  groupId: number;
  features: string;
}

/** A completed session's result, as stored (the transcript sealed). */
export interface StoredResult {
  completedAt: Date;
  version: string;
  mhci: number;
  subscores: Subscores;
  /** Sealed (transcript-codec.ts): never the plaintext. */
  sealedTranscript: string;
  /** The features' JSON, sealed likewise. */
  sealedFeatures: string;
  /** The counted words' JSON (word → count), sealed likewise. */
  sealedWordCounts: string;
  /** How many words were counted. */
  countedWords: number;
  groupPercentiles: Record<string, number>;
  userPercentiles: Record<string, number>;
  resultHash: string;
  synthetic: boolean;
}

/**
 * Sessions' SQL, and the only writer of `sessions` (docs/design.md, "Table ownership"): created
 * here for `POST /session/create`, completed here for ingestion, and cleared or re-sealed here
 * for the data-at-rest sweeps. Reads on behalf of an enterprise are scoped by it; the sweeps act
 * across tenants on the data's age and say so.
 */
/** Prepared once per connection: every POST /session/create runs it. */
const INSERT_SESSION = statement(
  'sessions-insert',
  `INSERT INTO sessions (session_id, enterprise_id, participant_id, group_id, return_url,
                         consent_required)
   VALUES ($1, $2, $3, $4, $5, (SELECT consent_required FROM groups WHERE group_id = $4))`,
);

@Injectable()
export class SessionsRepository {
  constructor(private readonly db: Database) {}

  async insert(
    values: Pick<
      SessionEntity,
      'sessionId' | 'enterpriseId' | 'participantId' | 'groupId' | 'returnUrl'
    >,
    sql: Sql = this.db,
  ): Promise<void> {
    await sql.rows(INSERT_SESSION, [
      values.sessionId,
      values.enterpriseId,
      values.participantId,
      values.groupId,
      values.returnUrl,
    ]);
  }

  /** The session with its participant's external ID and the level it is shown at now. */
  async findForEnterprise(enterpriseId: string, sessionId: string): Promise<SessionRecord | null> {
    const [session] = await this.db.rows<SessionRecord>(
      `SELECT ${SESSION.select('s')}, p.external_id AS "externalId",
              ${SHOWN_LEVEL} AS "privacyLevel",
              s.biometric IS NOT FALSE AND ${biometricAllowedSql('e')} AS biometric
         FROM sessions s
         JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
         JOIN participants p ON p.id = s.participant_id
         JOIN enterprises e ON e.id = s.enterprise_id
        WHERE s.session_id = $1 AND s.enterprise_id = $2`,
      [sessionId, enterpriseId],
    );
    return session ?? null;
  }

  /**
   * Every session of a participant, oldest first, for their own export (the participant's
   * pages, never an enterprise route): hers in full, what was recorded of her voice and face
   * included (docs/compliance.md, GDPR art. 15).
   */
  async listForParticipant(participantId: string): Promise<SessionRecord[]> {
    return this.db.rows<SessionRecord>(
      `SELECT ${SESSION.select('s')}, p.external_id AS "externalId",
              ${SHOWN_LEVEL} AS "privacyLevel", true AS biometric
         FROM sessions s
         JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
         JOIN participants p ON p.id = s.participant_id
        WHERE s.participant_id = $1
        ORDER BY s.created_at, s.session_id`,
      [participantId],
    );
  }

  /**
   * Records a session's result (ingestion, in its transaction with the session locked). Its level
   * (docs/privacy.md, "A check-in's own level"): a confirmed hand-off's (`handedOff`) is the level
   * handed off, lowered by any lowering since; a sandbox's simulated result (`memberLevel`) takes
   * the member's level now; any other result — no page handed it off, or the browser that did
   * never confirmed — is recorded at level 0 and pinned there.
   */
  async complete(
    sessionId: string,
    result: StoredResult,
    level: 'handedOff' | 'memberLevel' | 'pinnedAtZero',
    sql: Sql = this.db,
  ): Promise<void> {
    await sql.rows(
      `UPDATE sessions
          SET status = 'completed', completed_at = $2, version = $3, mhci = $4, subscores = $5,
              transcript = $6, features = $7, group_percentiles = $8, user_percentiles = $9,
              result_hash = $10, synthetic = $11, word_counts = $12, counted_words = $13,
              shared_level = CASE $14::text
                WHEN 'pinnedAtZero' THEN 0
                WHEN 'handedOff' THEN coalesce(shared_level, 0)
                ELSE (SELECT m.privacy_level FROM memberships m
                       WHERE m.participant_id = sessions.participant_id
                         AND m.group_id = sessions.group_id) END,
              level_pinned = $14::text = 'pinnedAtZero'
        WHERE session_id = $1`,
      [
        sessionId,
        result.completedAt,
        result.version,
        result.mhci,
        JSON.stringify(result.subscores),
        result.sealedTranscript,
        result.sealedFeatures,
        JSON.stringify(result.groupPercentiles),
        JSON.stringify(result.userPercentiles),
        result.resultHash,
        result.synthetic,
        result.sealedWordCounts,
        result.countedWords,
        level,
      ],
    );
  }

  /**
   * The hand-off to the engine of a session not yet completed (docs/checkin-flow.md, "Hand-off"):
   * it will be shared at the member's level now, needs consent as the group asks now, and the
   * one-time token `tokenHash` (its SHA-256) replaces any earlier hand-off's, unconfirmed, and
   * whether the engine may infer from voice and face is fixed from the enterprise's declared
   * programme now (docs/compliance.md). Null when the session is completed or gone.
   */
  async handOff(sessionId: string, tokenHash: string): Promise<{ biometric: boolean } | null> {
    const [row] = await this.db.rows<{ biometric: boolean }>(
      `UPDATE sessions s
          SET shared_level = m.privacy_level, consent_required = g.consent_required,
              handoff_token_hash = $2, handoff_confirmed_at = NULL,
              biometric = ${biometricAllowedSql('e')}
         FROM memberships m, groups g, enterprises e
        WHERE s.session_id = $1 AND s.status = 'created'
          AND m.participant_id = s.participant_id AND m.group_id = s.group_id
          AND g.group_id = s.group_id AND e.id = g.enterprise_id
       RETURNING s.biometric`,
      [sessionId, tokenHash],
    );
    return row ?? null;
  }

  /** The session a hand-off token (its SHA-256) was issued for; null for an unknown or replaced one. */
  async findHandoff(
    tokenHash: string,
  ): Promise<{ sessionId: string; completed: boolean; biometric: boolean } | null> {
    const [row] = await this.db.rows<{ sessionId: string; completed: boolean; biometric: boolean }>(
      `SELECT session_id AS "sessionId", status = 'completed' AS completed,
              biometric IS NOT FALSE AS biometric
         FROM sessions WHERE handoff_token_hash = $1`,
      [tokenHash],
    );
    return row ?? null;
  }

  /**
   * The browser that handed the check-in off confirmed it (the first confirmation counts); false
   * when the token is no longer the session's or the session is completed.
   */
  async confirmHandoff(sessionId: string, tokenHash: string): Promise<boolean> {
    const rows = await this.db.rows(
      `UPDATE sessions SET handoff_confirmed_at = coalesce(handoff_confirmed_at, now())
        WHERE session_id = $1 AND handoff_token_hash = $2 AND status = 'created'
       RETURNING session_id`,
      [sessionId, tokenHash],
    );
    return rows.length > 0;
  }

  /** Consent to this check-in, given on its own page (the first time counts). */
  async consentTo(sessionId: string, sql: Sql = this.db): Promise<void> {
    await sql.rows(
      'UPDATE sessions SET consented_at = coalesce(consented_at, now()) WHERE session_id = $1',
      [sessionId],
    );
  }

  /**
   * A withdrawal of the member's consent (docs/privacy.md): the consent of every check-in of the
   * membership not yet completed is cleared, so only a consent given after it counts — one given
   * in another browser afterwards cannot bring back a check-in the member withdrew from.
   */
  async clearPendingConsents(participantId: string, groupId: number, sql: Sql): Promise<void> {
    await sql.rows(
      `UPDATE sessions SET consented_at = NULL
        WHERE participant_id = $1 AND group_id = $2 AND completed_at IS NULL
          AND consented_at IS NOT NULL`,
      [participantId, groupId],
    );
  }

  /** A check-in's own level, set from its own page in the browser that did it. */
  async shareAt(sessionId: string, level: number, sql: Sql = this.db): Promise<void> {
    // A result no confirmed hand-off led to stays at 0 (docs/privacy.md).
    await sql.rows(
      'UPDATE sessions SET shared_level = $2 WHERE session_id = $1 AND NOT level_pinned',
      [sessionId, level],
    );
  }

  /** A lowering of the member's level: no session of the membership stays above it. */
  async capSharedLevels(
    participantId: string,
    groupId: number,
    level: number,
    sql: Sql = this.db,
  ): Promise<void> {
    await sql.rows(
      `UPDATE sessions SET shared_level = $3
        WHERE participant_id = $1 AND group_id = $2 AND shared_level > $3`,
      [participantId, groupId, level],
    );
  }

  /**
   * "Also share my earlier check-ins done in this browser": raises to `level` the membership's
   * check-ins whose link the browser `browserHash` holds (link_bindings), and no other.
   */
  async raiseSharedLevelsDoneIn(
    participantId: string,
    groupId: number,
    browserHashes: readonly string[],
    level: number,
    sql: Sql = this.db,
  ): Promise<void> {
    await sql.rows(
      `UPDATE sessions s SET shared_level = $4
         FROM link_bindings b
        WHERE s.participant_id = $1 AND s.group_id = $2
          AND b.link = 'checkin:' || s.session_id AND b.browser_hash = ANY($3::text[])
          AND coalesce(s.shared_level, 0) < $4 AND NOT s.level_pinned`,
      [participantId, groupId, browserHashes, level],
    );
  }

  /**
   * The participant's check-ins (in any group) done in the browser known by `browserHashes`: the
   * ones whose link it holds (link_bindings).
   */
  async doneIn(participantId: string, browserHashes: readonly string[]): Promise<string[]> {
    if (browserHashes.length === 0) return [];
    const rows = await this.db.rows<{ sessionId: string }>(
      `SELECT s.session_id AS "sessionId" FROM sessions s
         JOIN link_bindings b
           ON b.link = 'checkin:' || s.session_id AND b.browser_hash = ANY($2::text[])
        WHERE s.participant_id = $1`,
      [participantId, browserHashes],
    );
    return rows.map((row) => row.sessionId);
  }

  /**
   * How many completed check-ins of the membership, but `exceptSessionId`, were done in the
   * browser known by `browserHashes` (what "Also share my N earlier check-ins" reaches).
   */
  async countDoneIn(
    participantId: string,
    groupId: number,
    browserHashes: readonly string[],
    exceptSessionId: string | null,
  ): Promise<number> {
    if (browserHashes.length === 0) return 0;
    const [row] = await this.db.rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM sessions s
         JOIN link_bindings b
           ON b.link = 'checkin:' || s.session_id AND b.browser_hash = ANY($3::text[])
        WHERE s.participant_id = $1 AND s.group_id = $2 AND s.status = 'completed'
          AND ($4::text IS NULL OR s.session_id <> $4)`,
      [participantId, groupId, browserHashes, exceptSessionId],
    );
    return row.n;
  }

  /**
   * A participant's completed sessions shown at level 5 now (every group), except `exceptSessionId`,
   * with their features (sealed): what their own percentiles compare with at ingestion
   * (docs/checkin-flow.md).
   */
  async levelFiveFeaturesOf(
    participantId: string,
    exceptSessionId: string,
    sql: Sql = this.db,
  ): Promise<{ sessionId: string; groupId: number; features: string }[]> {
    return sql.rows(
      `SELECT s.session_id AS "sessionId", s.group_id AS "groupId", s.features
         FROM sessions s
         JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
        WHERE s.participant_id = $1 AND s.session_id <> $2 AND s.completed_at IS NOT NULL
          AND s.features IS NOT NULL AND ${SHOWN_LEVEL} = ${MAX_PRIVACY_LEVEL}
        ORDER BY s.session_id`,
      [participantId, exceptSessionId],
    );
  }

  /**
   * A participant's sessions whose features the group comparisons count (`features_shared`), with
   * them (sealed): erasure takes them out (docs/privacy.md).
   */
  async sharedFeaturesOf(participantId: string, sql: Sql): Promise<SessionFeatures[]> {
    return sql.rows(
      `SELECT session_id AS "sessionId", group_id AS "groupId", features FROM sessions
        WHERE participant_id = $1 AND features_shared AND features IS NOT NULL
        ORDER BY session_id`,
      [participantId],
    );
  }

  /**
   * Sessions whose `features_shared` is not what their level says now (shown at level 5, with
   * features), locked (others' locked rows are skipped: whoever holds them reconciles them): all
   * of one membership; or, anywhere, up to `limit` of those the two partial indexes list — shared
   * at level 5 and not counted, or counted with their own level below 5 (every lowering caps the
   * check-ins' own levels, so a membership's lowering lands there too).
   */
  async featuresToReconcile(
    scope: { participantId: string; groupId: number } | { limit: number },
    sql: Sql,
  ): Promise<(SessionFeatures & { share: boolean })[]> {
    const membership = 'participantId' in scope;
    return sql.rows(
      `SELECT s.session_id AS "sessionId", s.group_id AS "groupId", s.features,
              NOT s.features_shared AS share
         FROM sessions s
         JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
        WHERE s.features IS NOT NULL
          AND s.features_shared <> (${SHOWN_LEVEL} = ${MAX_PRIVACY_LEVEL})
          AND ${
            membership
              ? 's.participant_id = $1 AND s.group_id = $2'
              : `((s.shared_level = ${MAX_PRIVACY_LEVEL} AND NOT s.features_shared
                   AND s.features IS NOT NULL)
                  OR (s.features_shared AND s.shared_level < ${MAX_PRIVACY_LEVEL}))`
          }
        ORDER BY s.session_id
        ${membership ? '' : 'LIMIT $1'}
        FOR UPDATE OF s SKIP LOCKED`,
      membership ? [scope.participantId, scope.groupId] : [scope.limit],
    );
  }

  /** Records whether the sessions' features are counted in the group comparisons. */
  async setFeaturesShared(sessionIds: readonly string[], shared: boolean, sql: Sql): Promise<void> {
    if (sessionIds.length === 0) return;
    await sql.rows('UPDATE sessions SET features_shared = $2 WHERE session_id = ANY ($1::text[])', [
      sessionIds,
      shared,
    ]);
  }

  /**
   * Retention (docs/data-at-rest.md): up to `limit` sessions completed before `completedBefore`
   * that still hold a transcript, locked (`FOR UPDATE SKIP LOCKED`: two workers sweep disjoint
   * rows), with their features when the group comparisons count them (to be taken out first).
   */
  async lockExpiredDetails(
    completedBefore: Date,
    limit: number,
    sql: Sql,
  ): Promise<(SessionFeatures & { featuresShared: boolean })[]> {
    return sql.rows(
      `SELECT session_id AS "sessionId", group_id AS "groupId", features,
              features_shared AS "featuresShared"
         FROM sessions
        WHERE transcript IS NOT NULL AND completed_at < $1
        ORDER BY completed_at
        LIMIT $2
        FOR UPDATE SKIP LOCKED`,
      [completedBefore, limit],
    );
  }

  /**
   * Removes the transcript, features and word counts of these sessions (retention). The scores
   * stay; releases of group metrics are left as they are.
   */
  async clearDetails(sessionIds: readonly string[], sql: Sql): Promise<void> {
    await sql.rows(
      `UPDATE sessions
          SET transcript = NULL, features = NULL, word_counts = NULL, counted_words = NULL,
              features_shared = false
        WHERE session_id = ANY ($1::text[])`,
      [sessionIds],
    );
  }
}
