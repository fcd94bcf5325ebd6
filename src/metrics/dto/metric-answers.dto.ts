import { ApiProperty, getSchemaPath, type SchemaObject } from '@nestjs/swagger';
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

/** An answer keyed by period (`all`, or one key per period), each value `value`. */
const byPeriod = (value: SchemaObject, description: string, example: object): SchemaObject => ({
  description: `${description} ${PERIODS}`,
  type: 'object',
  properties: { all: value },
  additionalProperties: value,
  example,
});

/**
 * `null` in OpenAPI 3.0 (docs/integrating.md): `nullable` lets its own schema's `type` take null,
 * so `nullable` beside an `allOf` of a reference does not make the reference nullable (strict
 * tools drop the null). One of the statistics or a schema that accepts null alone does; the typed
 * client has it as `MhciStatsDto | null` (scripts/openapi.js).
 */
const NULL: SchemaObject = { type: 'object', nullable: true, enum: [null] };
const MHCI_STATS_OR_NULL: SchemaObject = {
  oneOf: [{ $ref: getSchemaPath(MhciStatsDto) }, NULL],
};
const WORD_SHARES = { type: 'object', additionalProperties: { type: 'number' } } as const;

/**
 * The OpenAPI schemas of the answers, one named schema per shape (docs/integrating.md: a generated client
 * knows that `count` answers numbers and `mhci` statistics). A group's `mhci` and `wordcloud`
 * can be `null` (a period under the privacy floor, or no sessions at all); a participant's
 * `mhci` is `null` without sessions, and a participant's word cloud is never `null` (`{}`).
 */
export const METRIC_ANSWER_SCHEMAS = {
  count: namedSchema(
    'CountAnswer',
    byPeriod({ type: 'integer', minimum: 0 }, 'Sessions per period.', { all: 42 }),
  ),
  groupMhci: namedSchema(
    'GroupMhciAnswer',
    byPeriod(
      MHCI_STATS_OR_NULL,
      'MHCI statistics per period; `null` for a period whose sessions come from fewer ' +
        "participants than the enterprise's privacy floor, and for a range without sessions.",
      {
        all: {
          minMhci: 31.2,
          maxMhci: 88.4,
          avgMhci: 64.07,
          percentile25Mhci: 55.5,
          percentile50Mhci: 64.1,
          percentile75Mhci: 73.9,
        },
      },
    ),
  ),
  participantMhci: namedSchema(
    'ParticipantMhciAnswer',
    byPeriod(
      MHCI_STATS_OR_NULL,
      'MHCI statistics per period of the sessions the participant shares at that level; ' +
        '`null` when there are none.',
      { all: null },
    ),
  ),
  groupWordcloud: namedSchema(
    'GroupWordcloudAnswer',
    byPeriod(
      { ...WORD_SHARES, nullable: true },
      "Each word's share of the counted words, per period; `null` for a period under the " +
        'privacy floor, and for a range without sessions.',
      { all: { tired: 0.12, sleep: 0.08 } },
    ),
  ),
  participantWordcloud: namedSchema(
    'ParticipantWordcloudAnswer',
    byPeriod(WORD_SHARES, "Each word's share of the participant's counted words, per period.", {
      all: { walking: 0.25, calmer: 0.25 },
    }),
  ),
};
