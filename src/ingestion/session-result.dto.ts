import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SubscoresDto, TranscriptTurnDto } from '../sessions/dto/session.dto';
import { FreeText, holds, isString, required, Rules, satisfies } from '../common/validation/rules';
import { HANDOFF_TOKEN } from '../sessions/handoff-token';
import { isWordFeature, wordFeaturesOnly } from '../enterprises/programme/programme';
import { IngestionErrors } from './ingestion.errors';

const isScore = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 100;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const SUBSCORE_NAMES = ['vision', 'audio', 'transcript', 'assessment'] as const;
/** What a result carries when biometric inference is off (docs/compliance.md): her words only. */
const WORD_SUBSCORE_NAMES = ['transcript', 'assessment'] as const;

/** All four subscores, or the two from her words only (whether the session allows it: the service). */
export const isSubscores = (value: unknown): boolean =>
  isPlainObject(value) &&
  [SUBSCORE_NAMES, WORD_SUBSCORE_NAMES].some(
    (names) =>
      Object.keys(value).length === names.length && names.every((name) => isScore(value[name])),
  );

/** Whether a valid result carries anything inferred from voice or face (docs/compliance.md). */
export const carriesBiometric = (result: SessionResultDto): boolean =>
  result.subscores.vision !== undefined ||
  result.subscores.audio !== undefined ||
  Object.keys(result.features).some((name) => !isWordFeature(name));

/** A valid result without anything inferred from voice or face. */
export const withoutBiometric = (result: SessionResultDto): SessionResultDto => ({
  ...result,
  subscores: { transcript: result.subscores.transcript, assessment: result.subscores.assessment },
  features: wordFeaturesOnly(result.features),
});

export const isTranscript = (value: unknown): boolean =>
  Array.isArray(value) &&
  value.length <= 10_000 &&
  value.every(
    (turn) =>
      isPlainObject(turn) &&
      Object.keys(turn).length === 2 &&
      (turn.role === 'assistant' || turn.role === 'user') &&
      typeof turn.content === 'string',
  );

const FEATURE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export const isFeatures = (value: unknown): boolean =>
  isPlainObject(value) &&
  Object.keys(value).length <= 500 &&
  Object.entries(value).every(
    ([name, number]) =>
      FEATURE_NAME.test(name) && typeof number === 'number' && Number.isFinite(number),
  );

/** Allows the engine's clock to run up to 5 minutes ahead of ours. */
const CLOCK_SKEW_MS = 5 * 60_000;
/** No check-in happened before the service existed: earlier dates are mistakes (docs/security.md). */
const EARLIEST_COMPLETION = Date.UTC(2000, 0, 1);
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/**
 * Whether the fields name a real calendar day and time: `Date.parse` rolls 2026-02-30 over to
 * March 2nd rather than refusing it.
 */
const isRealDateTime = (fields: (string | undefined)[]): boolean => {
  const [year, month, day, hour, minute, second = '0', offsetHours = '0', offsetMinutes = '0'] =
    fields;
  const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  return (
    Number(month) >= 1 &&
    Number(month) <= 12 &&
    Number(day) >= 1 &&
    Number(day) <= daysInMonth &&
    Number(hour) <= 23 &&
    Number(minute) <= 59 &&
    Number(second) <= 59 &&
    Number(offsetHours) <= 23 &&
    Number(offsetMinutes) <= 59
  );
};

export const isPlausibleCompletionTime = (value: string): boolean => {
  const match = ISO_DATE_TIME.exec(value);
  if (!match || !isRealDateTime(match.slice(1))) {
    return false;
  }
  const time = Date.parse(value);
  return Number.isFinite(time) && time >= EARLIEST_COMPLETION && time <= Date.now() + CLOCK_SKEW_MS;
};

/** A finished analysis, as the engine posts it (docs/checkin-flow.md). Validated strictly. */
export class SessionResultDto {
  @ApiProperty({ example: 'v1.4.0', description: 'Version of the engine that scored the session.' })
  @Rules(
    required(IngestionErrors.VersionMissing),
    isString(IngestionErrors.VersionNotString),
    satisfies((value) => /^v\d{1,6}\.\d{1,6}\.\d{1,6}$/.test(value), IngestionErrors.VersionFormat),
  )
  version!: string;

  @ApiProperty({ example: 71.5, minimum: 0, maximum: 100 })
  @Rules(required(IngestionErrors.MhciMissing), holds(isScore, IngestionErrors.MhciInvalid))
  mhci!: number;

  @ApiProperty({
    type: SubscoresDto,
    description:
      'Each a number from 0 to 100: all four, or, for a session handed off with `biometric=off`, ' +
      '`transcript` and `assessment` only (docs/compliance.md).',
    example: { vision: 64, audio: 70, transcript: 77, assessment: 73 },
  })
  @Rules(
    required(IngestionErrors.SubscoresMissing),
    holds(isSubscores, IngestionErrors.SubscoresInvalid),
  )
  subscores!: { vision?: number; audio?: number; transcript: number; assessment: number };

  @ApiProperty({
    type: [TranscriptTurnDto],
    example: [
      { role: 'assistant', content: 'How have you been sleeping?' },
      { role: 'user', content: 'Better this week, thanks.' },
    ],
  })
  @FreeText()
  @Rules(
    required(IngestionErrors.TranscriptMissing),
    holds(isTranscript, IngestionErrors.TranscriptInvalid),
  )
  transcript!: { role: 'assistant' | 'user'; content: string }[];

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number' },
    maxProperties: 500,
    description:
      'Feature name (letters, digits, `_ . -`, up to 64 characters) → a finite number. Names ' +
      'starting `transcript.` or `assessment.` are derived from her words and answers; every other ' +
      'feature counts as inferred from her voice or face, and is refused for a session handed off ' +
      'with `biometric=off`.',
    example: { speech_rate: 2.7, pitch_variability: 0.31 },
  })
  @Rules(
    required(IngestionErrors.FeaturesMissing),
    holds(isFeatures, IngestionErrors.FeaturesInvalid),
  )
  features!: Record<string, number>;

  @ApiPropertyOptional({
    example: '2026-11-22T09:42:10Z',
    description:
      'When the check-in ended: an ISO 8601 date-time with a time zone, from 2000-01-01 to at most ' +
      '5 minutes ahead of the service clock. Defaults to the time of ingestion.',
  })
  @Rules(
    isString(IngestionErrors.CompletedAtInvalid),
    satisfies(isPlausibleCompletionTime, IngestionErrors.CompletedAtInvalid),
  )
  completedAt?: string;

  @ApiPropertyOptional({
    example: 'Jq0x3sWm2cD8yT1bVb6lqF0QeU9HnZk3mXo4aR7pLwE',
    description:
      'The `handoff` query parameter of the address the check-in page sent the participant to ' +
      '(docs/checkin-flow.md, "Hand-off"). Optional; when given it must be the current hand-off ' +
      'of this session, or the result is refused with 409 and nothing is stored. The result ' +
      'counts at the level the participant handed off at only when the browser that handed off ' +
      'passed `GET /checkin/confirm`; otherwise it is recorded at level 0.',
  })
  @Rules(
    isString(IngestionErrors.HandoffInvalid),
    satisfies((value) => HANDOFF_TOKEN.test(value), IngestionErrors.HandoffInvalid),
  )
  handoff?: string;
}
