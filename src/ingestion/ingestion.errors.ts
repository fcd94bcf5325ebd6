/** Messages of the analysis engine's ingestion endpoint (internal; docs/checkin-flow.md wording). */
import { missingBodyParameter, mustBeString } from '../common/errors/common.errors';

export const IngestionErrors = {
  VersionMissing: missingBodyParameter('version'),
  VersionNotString: mustBeString('version'),
  VersionFormat: 'version must look like v<major>.<minor>.<patch>',
  MhciMissing: missingBodyParameter('mhci'),
  MhciInvalid: 'mhci must be a number between 0 and 100',
  SubscoresMissing: missingBodyParameter('subscores'),
  SubscoresInvalid:
    'subscores must be an object with numbers between 0 and 100 for vision, audio, transcript and assessment',
  TranscriptMissing: missingBodyParameter('transcript'),
  TranscriptInvalid:
    "transcript must be an array of {role, content} with role 'assistant' or 'user' and content a string",
  FeaturesMissing: missingBodyParameter('features'),
  FeaturesInvalid:
    'features must be an object of at most 500 names (letters, digits, _ . -, up to 64 characters) mapping to finite numbers',
  CompletedAtInvalid: 'Invalid completedAt',
  HandoffInvalid: 'handoff must be the hand-off token from the engine address (43 characters)',
  SessionNotFound: 'Session not found',
  DifferentResult: 'A different result was already recorded for this session',
  ConsentMissing: 'The participant has not consented to this check-in',
  HandoffMismatch: 'The handoff token is not the current hand-off of this session',
  SandboxSession:
    'This session belongs to a sandbox enterprise: no analysis result is recorded for it',
  BiometricOff:
    'Biometric inference is off for this session: send no subscores.vision, no subscores.audio and only features named transcript.* or assessment.*',
} as const;

/** A result body's 400 messages, in the order its fields are checked (ingestion and the sandbox). */
export const RESULT_BODY_ERRORS = [
  IngestionErrors.VersionMissing,
  IngestionErrors.VersionNotString,
  IngestionErrors.VersionFormat,
  IngestionErrors.MhciMissing,
  IngestionErrors.MhciInvalid,
  IngestionErrors.SubscoresMissing,
  IngestionErrors.SubscoresInvalid,
  IngestionErrors.TranscriptMissing,
  IngestionErrors.TranscriptInvalid,
  IngestionErrors.FeaturesMissing,
  IngestionErrors.FeaturesInvalid,
  IngestionErrors.CompletedAtInvalid,
  IngestionErrors.HandoffInvalid,
] as const;
