import { ApiProperty, getSchemaPath } from '@nestjs/swagger';

/** MHCI statistics of one period (continuous percentiles, as PostgreSQL `percentile_cont`). */
export class MhciStatsDto {
  @ApiProperty({ example: 31.2 }) minMhci!: number;
  @ApiProperty({ example: 88.4 }) maxMhci!: number;
  @ApiProperty({ example: 64.07 }) avgMhci!: number;
  @ApiProperty({ example: 55.5 }) percentile25Mhci!: number;
  @ApiProperty({ example: 64.1 }) percentile50Mhci!: number;
  @ApiProperty({ example: 73.9 }) percentile75Mhci!: number;
}

/** `{"all": n}`, or one count per period with `groupBy`. */
export type CountAnswer = Record<string, number>;
/** `{"all": stats | null}`, or stats per period with `groupBy`. */
export type MhciAnswer = Record<string, MhciStatsDto | null>;
/**
 * `{"all": {word: share}}`, or one word cloud per period with `groupBy`; a group's period under
 * the privacy floor is `null`.
 */
export type WordcloudAnswer = Record<string, Record<string, number> | null>;

export type MetricAnswer = CountAnswer | MhciAnswer | WordcloudAnswer;

/** The OpenAPI schema of a metric's answer: one of the three shapes, by metric. */
export const METRIC_ANSWER_SCHEMA = {
  description:
    'Without groupBy `{"all": X}`; with groupBy one key per period that has sessions (day ' +
    "`YYYY-MM-DD`, the ISO week's Monday `YYYY-MM-DD`, month `YYYY-MM`). A group's mhci or " +
    'wordcloud bucket under the privacy floor is `null`.',
  oneOf: [
    {
      title: 'count',
      type: 'object',
      additionalProperties: { type: 'integer' },
      example: { all: 42 },
    },
    {
      title: 'mhci',
      type: 'object',
      additionalProperties: {
        nullable: true,
        allOf: [{ $ref: getSchemaPath(MhciStatsDto) }],
      },
      example: { all: null },
    },
    {
      title: 'wordcloud',
      type: 'object',
      additionalProperties: {
        type: 'object',
        nullable: true,
        additionalProperties: { type: 'number' },
      },
      example: { all: { tired: 0.12, sleep: 0.08 } },
    },
  ],
};
