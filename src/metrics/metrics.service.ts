import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { GroupErrors } from '../groups/groups.errors';
import { GroupsRepository } from '../groups/groups.repository';
import { ParticipantsService } from '../participants/participants.service';
import { MetricsQueryDto } from './metrics-query.dto';
import { MetricsErrors } from './metrics.errors';
import { MetricRange, MetricScope, MetricsRepository } from './metrics.repository';

export type Metric = 'count' | 'mhci' | 'wordcloud';
const DEFAULT_TOP = 50;

/**
 * Privacy (DESIGN §11): a participant's `count` uses every session; `mhci` only sessions whose
 * membership level is now ≥ 1, `wordcloud` ≥ 4. Group metrics are anonymised aggregates.
 */
const PARTICIPANT_LEVEL: Record<Metric, number> = { count: 0, mhci: 1, wordcloud: 4 };

@Injectable()
export class MetricsService {
  constructor(
    private readonly metrics: MetricsRepository,
    private readonly groups: GroupsRepository,
    private readonly participants: ParticipantsService,
  ) {}

  async forGroup(enterpriseId: string, groupId: number, metric: Metric, query: MetricsQueryDto) {
    const range = this.range(query);
    if (!(await this.groups.existsForEnterprise(enterpriseId, groupId))) {
      throw ApiError.badRequest(GroupErrors.NotFound);
    }
    return this.compute({ kind: 'group', groupId }, metric, range, query);
  }

  async forParticipant(
    enterpriseId: string,
    externalId: string,
    metric: Metric,
    query: MetricsQueryDto,
  ) {
    const range = this.range(query);
    const participant = await this.participants.require(enterpriseId, externalId);
    return this.compute(
      {
        kind: 'participant',
        participantId: participant.id,
        minimumLevel: PARTICIPANT_LEVEL[metric],
      },
      metric,
      range,
      query,
    );
  }

  private range(query: MetricsQueryDto): MetricRange {
    if (query.from && query.to && query.from > query.to) {
      throw ApiError.badRequest(MetricsErrors.RangeInvalid);
    }
    return { from: query.from ?? null, to: query.to ?? null, groupBy: query.groupBy ?? null };
  }

  private async compute(
    scope: MetricScope,
    metric: Metric,
    range: MetricRange,
    query: MetricsQueryDto,
  ): Promise<Record<string, unknown>> {
    if (metric === 'count') {
      const rows = await this.metrics.count(scope, range);
      return Object.fromEntries(rows.map((row) => [row.key, row.value]));
    }
    if (metric === 'mhci') {
      const rows = await this.metrics.mhci(scope, range);
      if (!range.groupBy && (rows.length === 0 || rows[0].sessions === 0)) return { all: null };
      return Object.fromEntries(rows.map(({ key, sessions: _sessions, ...stats }) => [key, stats]));
    }
    const rows = await this.metrics.wordcloud(
      scope,
      range,
      query.top ? Number(query.top) : DEFAULT_TOP,
    );
    const result: Record<string, Record<string, number>> = range.groupBy ? {} : { all: {} };
    for (const row of rows) (result[row.key] ??= {})[row.word] = row.share;
    return result;
  }
}
