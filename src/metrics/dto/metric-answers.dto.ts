import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import type { Metric } from '../../common/privacy-model';
import { namedSchema } from '../../common/swagger/named-schemas';

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

/** What each metric answers. */
export interface MetricAnswers {
  count: CountAnswer;
  mhci: MhciAnswer;
  wordcloud: WordcloudAnswer;
}

export type MetricAnswer = MetricAnswers[Metric];

const PERIODS =
  'Without groupBy the one key is `all`; with groupBy there is one key per period that has ' +
  "sessions (day `YYYY-MM-DD`, the ISO week's Monday `YYYY-MM-DD`, month `YYYY-MM`).";

/**
 * The OpenAPI schemas of the answers, one named schema per shape (DESIGN §17: a generated client
 * knows that `count` answers numbers and `mhci` statistics). A group's `mhci` and `wordcloud`
 * can be `null` (a period under the privacy floor, or no sessions at all); a participant's
 * `mhci` is `null` without sessions, and a participant's word cloud is never `null` (`{}`).
 */
export const METRIC_ANSWER_SCHEMAS = {
  count: namedSchema('CountAnswer', {
    description: `Sessions per period. ${PERIODS}`,
    type: 'object',
    properties: { all: { type: 'integer', minimum: 0 } },
    additionalProperties: { type: 'integer', minimum: 0 },
    example: { all: 42 },
  }),
  groupMhci: namedSchema('GroupMhciAnswer', {
    description:
      `MHCI statistics per period; \`null\` for a period whose sessions come from fewer ` +
      `participants than the enterprise's privacy floor, and for a range without sessions. ${PERIODS}`,
    type: 'object',
    properties: {
      all: { nullable: true, allOf: [{ $ref: getSchemaPath(MhciStatsDto) }] },
    },
    additionalProperties: { nullable: true, allOf: [{ $ref: getSchemaPath(MhciStatsDto) }] },
    example: {
      all: {
        minMhci: 31.2,
        maxMhci: 88.4,
        avgMhci: 64.07,
        percentile25Mhci: 55.5,
        percentile50Mhci: 64.1,
        percentile75Mhci: 73.9,
      },
    },
  }),
  participantMhci: namedSchema('ParticipantMhciAnswer', {
    description:
      `MHCI statistics per period of the sessions the participant shares at that level; ` +
      `\`null\` when there are none. ${PERIODS}`,
    type: 'object',
    properties: {
      all: { nullable: true, allOf: [{ $ref: getSchemaPath(MhciStatsDto) }] },
    },
    additionalProperties: { nullable: true, allOf: [{ $ref: getSchemaPath(MhciStatsDto) }] },
    example: { all: null },
  }),
  groupWordcloud: namedSchema('GroupWordcloudAnswer', {
    description:
      "Each word's share of the counted words, per period; `null` for a period under the " +
      `privacy floor, and for a range without sessions. ${PERIODS}`,
    type: 'object',
    properties: {
      all: { type: 'object', nullable: true, additionalProperties: { type: 'number' } },
    },
    additionalProperties: {
      type: 'object',
      nullable: true,
      additionalProperties: { type: 'number' },
    },
    example: { all: { tired: 0.12, sleep: 0.08 } },
  }),
  participantWordcloud: namedSchema('ParticipantWordcloudAnswer', {
    description: `Each word's share of the participant's counted words, per period. ${PERIODS}`,
    type: 'object',
    properties: { all: { type: 'object', additionalProperties: { type: 'number' } } },
    additionalProperties: { type: 'object', additionalProperties: { type: 'number' } },
    example: { all: { walking: 0.25, calmer: 0.25 } },
  }),
};
