import { Injectable } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { ApiError } from '../common/errors/api-error';
import { Measurements } from '../common/measurements/measurements';
import { type Metric, PARTICIPANT_METRIC_LEVEL } from '../common/privacy-model';
import { GroupErrors } from '../groups/groups.errors';
import { GroupAccess } from '../groups/group-access';
import { ParticipantsService } from '../participants/participants.service';
import type {
  MetricAnswer,
  MetricAnswers,
  MhciAnswer,
  MhciStatsDto,
  WordcloudAnswer,
} from './dto/metric-answers.dto';
import { MetricsQueryDto, WordcloudQueryDto } from './dto/metrics-query.dto';
import { GroupReleasesReader, type PeriodAnswer } from './windows/group-releases.reader';
import { MetricWindowsRepository } from './windows/metric-windows.repository';
import { WindowReleaser } from './windows/window-releaser';
import { MetricsErrors } from './metrics.errors';
import { MetricRange, MetricScope, MetricsRepository } from './metrics.repository';

const DEFAULT_TOP = 50;

/**
 * Metrics (docs/metrics.md). Privacy: a participant's metrics use only the sessions the privacy
 * model lets that metric see (PARTICIPANT_METRIC_LEVEL); a group's `mhci` and `wordcloud` are
 * computed from the releases of calendar windows, which never change (docs/metrics.md, "Release
 * windows", "Answers"): a read first releases what came due, then merges the releases.
 */
@Injectable()
export class MetricsService {
  /** Group answers' values answered null (docs/metrics.md, "Answers"; docs/operations.md). */
  private readonly withheld: Counter<'metric'>;

  constructor(
    private readonly metrics: MetricsRepository,
    private readonly groups: GroupAccess,
    private readonly participants: ParticipantsService,
    private readonly releaser: WindowReleaser,
    private readonly windows: MetricWindowsRepository,
    private readonly releases: GroupReleasesReader,
    measurements: Measurements,
  ) {
    this.withheld = measurements.counter({
      name: 'checkin_group_metric_values_withheld_total',
      help: 'Values of group mhci and wordcloud answers (the whole range, or a period of groupBy) answered null: finer than the release window, not released yet, too few participants, or a margin above maxMargin (docs/metrics.md).',
      labelNames: ['metric'],
    });
    for (const metric of ['mhci', 'wordcloud']) this.withheld.inc({ metric }, 0);
  }

  async forGroup<M extends Metric>(
    enterpriseId: string,
    groupId: number,
    metric: M,
    query: MetricsQueryDto | WordcloudQueryDto,
  ): Promise<MetricAnswers[M]> {
    const range = this.range(query);
    if (!(await this.groups.existsForEnterprise(enterpriseId, groupId))) {
      throw ApiError.badRequest(GroupErrors.NotFound);
    }
    let answer: MetricAnswer;
    if (metric === 'count') {
      answer = await this.compute({ kind: 'group', enterpriseId, groupId }, metric, range, query);
    } else {
      // Windows that came due since the last sweep are released first (an index probe if none).
      await this.releaser.releaseEnterprise(enterpriseId);
      const settings = (await this.windows.settingsOf(enterpriseId))!;
      const top = (query as WordcloudQueryDto).top;
      const periods: PeriodAnswer<unknown, unknown>[] =
        metric === 'mhci'
          ? await this.releases.mhci(enterpriseId, groupId, range, settings)
          : await this.releases.wordcloud(
              enterpriseId,
              groupId,
              range,
              settings,
              top ? Number(top) : DEFAULT_TOP,
            );
      answer = this.shape(periods, range, (query as { accuracy?: string }).accuracy === 'true');
    }
    const nulls = Object.values(answer).filter(
      (value) => value === null || (value as { value?: unknown }).value === null,
    ).length;
    if (nulls > 0) this.withheld.inc({ metric }, nulls);
    return answer as MetricAnswers[M];
  }

  async forParticipant<M extends Metric>(
    enterpriseId: string,
    externalId: string,
    metric: M,
    query: MetricsQueryDto | WordcloudQueryDto,
  ): Promise<MetricAnswers[M]> {
    const range = this.range(query);
    const participant = await this.participants.require(enterpriseId, externalId);
    const answer = await this.compute(
      {
        kind: 'participant',
        enterpriseId,
        participantId: participant.id,
        minimumLevel: PARTICIPANT_METRIC_LEVEL[metric],
      },
      metric,
      range,
      query,
    );
    return answer as MetricAnswers[M];
  }

  /**
   * A group answer's shape (docs/metrics.md): the specification's, `{period: value}`, or with
   * `accuracy=true` `{period: {value, accuracy}}`. A range without sessions is `{"all": null}`.
   */
  private shape<V, A>(
    periods: PeriodAnswer<V, A>[],
    range: MetricRange,
    withAccuracy: boolean,
  ): MetricAnswer {
    if (periods.length === 0) return range.groupBy ? {} : { all: null };
    return Object.fromEntries(
      periods.map(({ key, value, accuracy }) => [key, withAccuracy ? { value, accuracy } : value]),
    ) as MetricAnswer;
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
    query: MetricsQueryDto & { top?: string },
  ): Promise<MetricAnswer> {
    if (metric === 'count') {
      const rows = await this.metrics.count(scope, range);
      return Object.fromEntries(rows.map((row) => [row.key, row.value]));
    }
    if (scope.kind === 'group') throw new Error('group mhci and wordcloud read releases');
    if (metric === 'mhci') {
      const rows = await this.metrics.mhci(scope, range);
      if (!range.groupBy && (rows.length === 0 || rows[0].sessions === 0)) return { all: null };
      const answer: MhciAnswer = {};
      for (const { key, sessions: _sessions, shown, ...stats } of rows) {
        answer[key] = shown ? (stats as MhciStatsDto) : null;
      }
      return answer;
    }
    const top = query.top ? Number(query.top) : DEFAULT_TOP;
    const rows = await this.metrics.wordcloud(scope, range, top);
    // A group's range without sessions has no bucket: nothing to show, as `mhci` answers it.
    const answer: WordcloudAnswer = range.groupBy ? {} : { all: {} };
    for (const row of rows) {
      if (!row.shown) answer[row.key] = null;
      else if (row.word === null) answer[row.key] ??= {};
      else (answer[row.key] ??= {})[row.word] = row.share;
    }
    return answer;
  }
}
