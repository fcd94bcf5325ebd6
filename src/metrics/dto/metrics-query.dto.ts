import { ApiPropertyOptional } from '@nestjs/swagger';
import { holds, oneOf, Rules } from '../../common/validation/rules';
import { GROUP_BY, MetricsErrors } from '../metrics.errors';
import type { GroupBy } from '../metrics.errors';

/** A real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export const isCalendarDate = (value: unknown): boolean => {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
};

/** The most words a cloud answers (docs/metrics.md): more would only list rarer, more telling words. */
export const MAX_TOP = 200;

/** A whole number 1–MAX_TOP, written plainly (no sign, no leading zero). */
const isTopValue = (value: unknown): boolean =>
  typeof value === 'string' && /^[1-9]\d{0,2}$/.test(value) && Number(value) <= MAX_TOP;

/** count and mhci's query parameters, checked in the spec's order: from, to, groupBy. */
export class MetricsQueryDto {
  @ApiPropertyOptional({ example: '2026-11-01', description: 'First day (UTC), inclusive.' })
  @Rules(holds(isCalendarDate, MetricsErrors.FromInvalid))
  from?: string;

  @ApiPropertyOptional({ example: '2026-11-30', description: 'Last day (UTC), inclusive.' })
  @Rules(holds(isCalendarDate, MetricsErrors.ToInvalid))
  to?: string;

  @ApiPropertyOptional({
    enum: GROUP_BY,
    description: "Keys become periods: YYYY-MM-DD, the ISO week's Monday, or YYYY-MM.",
  })
  @Rules(oneOf(GROUP_BY, MetricsErrors.GroupByInvalid))
  groupBy?: GroupBy;
}

/**
 * wordcloud's query parameters: count's and mhci's, then `top` (the spec's "wordcloud only": the
 * other metrics do not read it, and the validation pipe drops it there unread).
 */
export class WordcloudQueryDto extends MetricsQueryDto {
  @ApiPropertyOptional({
    example: '50',
    description: `How many words, 1–${MAX_TOP} (default 50).`,
  })
  @Rules(holds(isTopValue, MetricsErrors.TopInvalid))
  top?: string;
}

const ACCURACY = ['true', 'false'] as const;

const ACCURACY_DESCRIPTION =
  'true: each period answers `{"value": …, "accuracy": {…}}`, with the participants behind ' +
  'it, the windows merged, results in no release, the privacy it spent and a 95 % interval for ' +
  'each number, and why a `null` is null (docs/metrics.md). Default false: the plain answer.';

/** Group mhci's query parameters: count's, then `accuracy`. */
export class GroupMhciQueryDto extends MetricsQueryDto {
  @ApiPropertyOptional({ enum: ACCURACY, description: ACCURACY_DESCRIPTION })
  @Rules(oneOf(ACCURACY, MetricsErrors.AccuracyInvalid))
  accuracy?: (typeof ACCURACY)[number];
}

/** Group wordcloud's query parameters: the word cloud's, then `accuracy`. */
export class GroupWordcloudQueryDto extends WordcloudQueryDto {
  @ApiPropertyOptional({ enum: ACCURACY, description: ACCURACY_DESCRIPTION })
  @Rules(oneOf(ACCURACY, MetricsErrors.AccuracyInvalid))
  accuracy?: (typeof ACCURACY)[number];
}
