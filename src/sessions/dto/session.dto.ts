import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { levelRevealing, type SessionField } from '../../common/privacy-model';
import { EXAMPLE_IDS } from '../../common/swagger/examples';

const fromLevel = (field: SessionField, text: string): string =>
  `${text} Present when the session is shared at privacy level ${levelRevealing(field)} or more: ` +
  "the lower of the check-in's own level and the participant's level now.";

/** Inferred from voice and face (the AI Act's biometric data): when an answer leaves them out. */
export const BIOMETRIC_ABSENT =
  'absent when biometric inference is off for the session (its enterprise declared an `eu` programme for `wellbeing`, docs/compliance.md)';

export class SubscoresDto {
  @ApiPropertyOptional({ example: 64, description: `From the face; ${BIOMETRIC_ABSENT}.` })
  vision?: number;
  @ApiPropertyOptional({ example: 70, description: `From the voice; ${BIOMETRIC_ABSENT}.` })
  audio?: number;
  @ApiProperty({ example: 77 }) transcript!: number;
  @ApiProperty({ example: 73 }) assessment!: number;
}

export class TranscriptTurnDto {
  @ApiProperty({ enum: ['assistant', 'user'], example: 'user' })
  role!: 'assistant' | 'user';

  @ApiProperty({ example: 'Better this week, thanks.' })
  content!: string;
}

const NUMBER_MAP = { type: 'object', additionalProperties: { type: 'number' } } as const;

/**
 * The Session resource (spec "Session"): the level-0 fields always, then the fields of the level
 * the session is shared at now — the lower of its own level and the membership's (docs/privacy.md,
 * common/privacy-model.ts).
 * A session without a result yet shows level 0 only.
 */
export class SessionDto {
  @ApiProperty({ example: EXAMPLE_IDS.externalId })
  externalID!: string;

  @ApiProperty({ example: EXAMPLE_IDS.sessionId })
  sessionID!: string;

  @ApiProperty({
    example: '2026-11-22T09:42:10.000Z',
    description: 'Completion time (ISO 8601, UTC), or creation time while the result is pending.',
  })
  timestamp!: string;

  @ApiProperty({ example: 12 })
  groupID!: number;

  @ApiProperty({
    example: 'v1.4.0',
    description: "The analysis engine's version that scored the session (`v0.0.0` while pending).",
  })
  version!: string;

  @ApiPropertyOptional({ example: 71.5, description: fromLevel('mhci', 'MHCI score, 0–100.') })
  mhci?: number;

  @ApiPropertyOptional({ type: SubscoresDto, description: fromLevel('subscores', 'Subscores.') })
  subscores?: SubscoresDto;

  @ApiPropertyOptional({
    ...NUMBER_MAP,
    example: { pitch_variability: 0.5 },
    description: fromLevel(
      'groupPercentiles',
      "Each feature's mid-rank percentile (0–1) among the group's completed sessions. Voice and " +
        `face features' percentiles are ${BIOMETRIC_ABSENT}.`,
    ),
  })
  groupPercentiles?: Record<string, number>;

  @ApiPropertyOptional({
    ...NUMBER_MAP,
    example: { pitch_variability: 0.25 },
    description: fromLevel(
      'userPercentiles',
      "Each feature's mid-rank percentile (0–1) among the participant's own sessions. Voice and " +
        `face features' percentiles are ${BIOMETRIC_ABSENT}.`,
    ),
  })
  userPercentiles?: Record<string, number>;

  @ApiPropertyOptional({
    type: [TranscriptTurnDto],
    description: fromLevel('transcript', 'The check-in conversation.'),
  })
  transcript?: TranscriptTurnDto[];

  @ApiPropertyOptional({
    ...NUMBER_MAP,
    example: { speech_rate: 2.7 },
    description: fromLevel(
      'features',
      "Features measured by the engine: from the participant's words and answers (names " +
        'starting `transcript.` or `assessment.`) and from her voice and face (every other ' +
        `name), the latter ${BIOMETRIC_ABSENT}.`,
    ),
  })
  features?: Record<string, number>;
}
