/**
 * What an enterprise sees of a session (spec "Session", docs/privacy.md): the fields the privacy model
 * reveals at the level in force now for the session's membership; level 0 while the result is
 * pending.
 */
import { sessionFieldsAt, type SessionField } from '../common/privacy-model';
import type { MembershipEntity } from '../participants/membership.entity';
import type { ParticipantEntity } from '../participants/participant.entity';
import type { SessionDto } from './dto/session.dto';
import { wordFeaturesOnly } from '../enterprises/programme/programme';
import type { SessionEntity, Subscores, TranscriptTurn } from './session.entity';

/**
 * A session with its participant's external ID and the level it is shown at now (the lower of its
 * own level and the membership's, docs/privacy.md); its transcript and features as stored
 * (encrypted), opened only when the level shows them.
 */
export type SessionRecord = Pick<
  SessionEntity,
  | 'sessionId'
  | 'groupId'
  | 'createdAt'
  | 'completedAt'
  | 'version'
  | 'mhci'
  | 'subscores'
  | 'groupPercentiles'
  | 'userPercentiles'
  | 'transcript'
  | 'features'
> &
  Pick<ParticipantEntity, 'externalId'> &
  Pick<MembershipEntity, 'privacyLevel'> & {
    /**
     * Whether its voice and face results may be shown: false when it was handed off with
     * biometric inference off, or (an answer to the enterprise) its enterprise's declared
     * programme turns it off now (docs/compliance.md). False leaves out `vision`, `audio` and
     * every feature (and percentile) not derived from her words.
     */
    biometric: boolean;
  };

export const PENDING_VERSION = 'v0.0.0';

/**
 * Objects are stored as jsonb, which reorders keys (shortest first). Answers use a stable,
 * readable order instead: subscores as the spec lists them, name maps alphabetically.
 */
const inSpecOrder = (s: Subscores, biometric: boolean): Subscores => ({
  ...(biometric && s.vision !== undefined ? { vision: s.vision } : {}),
  ...(biometric && s.audio !== undefined ? { audio: s.audio } : {}),
  transcript: s.transcript,
  assessment: s.assessment,
});

const byName = (map: Record<string, number> | null, biometric: boolean): Record<string, number> => {
  const sorted: Record<string, number> = {};
  const shown = map && (biometric ? map : wordFeaturesOnly(map));
  if (shown) for (const name of Object.keys(shown).sort()) sorted[name] = shown[name];
  return sorted;
};

/**
 * Decrypts a stored JSON value, transcript or features (transcript-codec.ts `openSessionJson`);
 * null when this process's keys cannot open it (docs/data-at-rest.md, "Data the keys cannot
 * open"): it then reads as removed by retention.
 */
export type SealedOpener = (stored: string, field: 'transcript' | 'features') => unknown;

/** How each field of the resource is read from the stored session. */
const FIELD_VALUES: {
  [F in SessionField]: (session: SessionRecord, open: SealedOpener) => SessionDto[F];
} = {
  externalID: (session) => session.externalId,
  sessionID: (session) => session.sessionId,
  timestamp: (session) => (session.completedAt ?? session.createdAt).toISOString(),
  groupID: (session) => session.groupId,
  version: (session) => session.version ?? PENDING_VERSION,
  mhci: (session) => session.mhci ?? undefined,
  subscores: (session) =>
    session.subscores ? inSpecOrder(session.subscores, session.biometric) : undefined,
  groupPercentiles: (session) => byName(session.groupPercentiles, session.biometric),
  userPercentiles: (session) => byName(session.userPercentiles, session.biometric),
  // Removed by retention (TRANSCRIPT_RETENTION_DAYS), or sealed under a key this process lacks:
  // an empty conversation, as the spec's type is an array.
  transcript: (session, open) =>
    (session.transcript === null
      ? null
      : (open(session.transcript, 'transcript') as TranscriptTurn[] | null)) ?? [],
  features: (session, open) =>
    byName(
      session.features === null
        ? null
        : (open(session.features, 'features') as Record<string, number> | null),
      session.biometric,
    ),
};

const hasResult = (session: SessionRecord): boolean =>
  session.completedAt !== null && session.mhci !== null;

export function sessionView(session: SessionRecord, open: SealedOpener): SessionDto {
  const view: Record<string, unknown> = {};
  for (const field of sessionFieldsAt(hasResult(session) ? session.privacyLevel : 0)) {
    view[field] = FIELD_VALUES[field](session, open);
  }
  return view as unknown as SessionDto;
}
