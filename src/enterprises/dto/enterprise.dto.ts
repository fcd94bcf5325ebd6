import { ApiProperty } from '@nestjs/swagger';
import { METRICS_BUDGET, PRIVACY_FLOOR } from '../../common/privacy-model';

/** The enterprise's declared programme (docs/compliance.md), as the operator recorded it. */
export class ProgrammeDto {
  @ApiProperty({ enum: ['eu', 'other'], example: 'eu' })
  jurisdiction!: 'eu' | 'other';

  @ApiProperty({ enum: ['wellbeing', 'medical', 'safety'], example: 'wellbeing' })
  purpose!: 'wellbeing' | 'medical' | 'safety';

  @ApiProperty({ example: 'GDPR art. 9(2)(a): explicit consent of each participant' })
  basis!: string;

  @ApiProperty({ example: 'dpo@example.com' })
  contact!: string;

  @ApiProperty({ example: '2026-12-08T09:00:00.000Z' })
  declaredAt!: string;

  @ApiProperty({
    enum: ['on', 'off'],
    example: 'off',
    description:
      '`off` for `eu` + `wellbeing` (EU AI Act art. 5(1)(f)): the engine is told not to infer ' +
      'from voice and face, results carrying such values are refused, and `vision`, `audio` and ' +
      'voice and face features are absent from every answer.',
  })
  biometricInference!: 'on' | 'off';
}

/** Group metrics' parameters (docs/metrics.md), set by the operator. */
export class MetricsParametersDto {
  @ApiProperty({
    example: METRICS_BUDGET.defaultEpsilonYear,
    description:
      'ε_year: over any 365 days, all group releases of a participant together are (ε_year, 10⁻⁶)-differentially private.',
  })
  epsilonYear!: number;

  @ApiProperty({ enum: ['month', 'week'], example: 'month', description: 'The release window.' })
  window!: 'month' | 'week';

  @ApiProperty({
    example: METRICS_BUDGET.defaultMaxMargin,
    description:
      'An answer whose 95 % margin of `avgMhci` is wider, in points, is withheld (`null`).',
  })
  maxMargin!: number;

  @ApiProperty({
    example: PRIVACY_FLOOR.defaultScores,
    description: 'k for scores: the fewest participants a release of group `mhci` needs.',
  })
  minParticipantsScores!: number;

  @ApiProperty({
    example: PRIVACY_FLOOR.defaultWords,
    description: 'k for words: the fewest participants a release of group `wordcloud` needs.',
  })
  minParticipantsWords!: number;

  @ApiProperty({
    example: PRIVACY_FLOOR.defaultSpeakers,
    description:
      'The fewest participants of a release who said a word before noise for it to be a candidate.',
  })
  minWordSpeakers!: number;
}

/** `GET /enterprise`: the caller's own settings, so nothing about its answers is hidden from it. */
export class EnterpriseDto {
  @ApiProperty({ example: 'Acme' })
  name!: string;

  @ApiProperty({ example: false, description: 'A sandbox (test mode, docs/integrating.md).' })
  sandbox!: boolean;

  @ApiProperty({
    type: ProgrammeDto,
    nullable: true,
    description:
      'The declared programme; null: none declared (voice and face are analysed, as before declarations existed).',
  })
  programme!: ProgrammeDto | null;

  @ApiProperty({ type: MetricsParametersDto })
  metrics!: MetricsParametersDto;
}
