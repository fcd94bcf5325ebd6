import { Controller, Get, Injectable, PipeTransform, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EnterpriseId } from '../common/auth/enterprise.decorator';
import { ApiError } from '../common/errors/api-error';
import { CommonErrors } from '../common/errors/common.errors';
import { ApiEndpointErrors } from '../common/swagger/api-errors.decorator';
import { ExternalIdParam } from '../common/validation/external-id';
import { AbsentPathParameters, GroupIdParam } from '../common/validation/path-params';
import {
  describeGroupCount,
  describeParticipantMetric,
  describeSealedCells,
  type Metric,
  METRICS,
} from '../common/privacy-model';
import { GroupErrors } from '../groups/groups.errors';
import { ParticipantErrors } from '../participants/participants.errors';
import {
  CountAnswer,
  METRIC_ACCURACY_SCHEMAS,
  METRIC_ANSWER_SCHEMAS,
  MhciAnswer,
  MhciStatsDto,
  WordcloudAnswer,
} from './dto/metric-answers.dto';
import {
  GroupMhciQueryDto,
  GroupWordcloudQueryDto,
  MetricsQueryDto,
  WordcloudQueryDto,
} from './dto/metrics-query.dto';
import { MetricsErrors } from './metrics.errors';
import { MetricsService } from './metrics.service';

/** `count`, `mhci` or `wordcloud`; any other name is an unknown route (404). */
@Injectable()
class MetricPipe implements PipeTransform<string, Metric> {
  transform(value: string): Metric {
    if (!(METRICS as readonly string[]).includes(value)) {
      throw new ApiError(404, CommonErrors.NotFound);
    }
    return value as Metric;
  }
}

/** A metric operation's 400 messages, in the order they are checked. */
const metricErrors = (
  path: string[],
  notFound: string,
  options: { top?: boolean; accuracy?: boolean } = {},
) => [
  ...path,
  MetricsErrors.FromInvalid,
  MetricsErrors.ToInvalid,
  MetricsErrors.GroupByInvalid,
  ...(options.top ? [MetricsErrors.TopInvalid] : []),
  ...(options.accuracy ? [MetricsErrors.AccuracyInvalid] : []),
  MetricsErrors.RangeInvalid,
  notFound,
];
const GROUP_PATH = [GroupErrors.GroupIdMissing, GroupErrors.GroupIdNotNumber];
const GROUP_ERRORS = metricErrors(GROUP_PATH, GroupErrors.NotFound);
const GROUP_MHCI_ERRORS = metricErrors(GROUP_PATH, GroupErrors.NotFound, { accuracy: true });
const GROUP_WORDCLOUD_ERRORS = metricErrors(GROUP_PATH, GroupErrors.NotFound, {
  top: true,
  accuracy: true,
});
const PARTICIPANT_PATH = [ParticipantErrors.ExternalIdMissing];
const PARTICIPANT_ERRORS = metricErrors(PARTICIPANT_PATH, ParticipantErrors.NotFound);
const PARTICIPANT_WORDCLOUD_ERRORS = metricErrors(PARTICIPANT_PATH, ParticipantErrors.NotFound, {
  top: true,
});

@ApiTags('Metrics')
@ApiExtraModels(MhciStatsDto)
@Controller('metrics')
// `GET /metrics/groups//mhci`: an unknown metric is still an unknown route (404) first.
@AbsentPathParameters(
  {
    method: 'GET',
    path: 'groups//:metric',
    missing: 'groupID',
    checkFirst: [['metric', MetricPipe]],
  },
  {
    method: 'GET',
    path: 'participants//:metric',
    missing: 'externalID',
    checkFirst: [['metric', MetricPipe]],
  },
)
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  // One operation per metric (docs/integrating.md): each with its exact answer schema and query.

  @Get('groups/:groupID/count')
  @ApiOperation({
    summary: "A group's session count",
    description: describeGroupCount(),
  })
  @ApiOkResponse({ schema: METRIC_ANSWER_SCHEMAS.count })
  @ApiEndpointErrors(GROUP_ERRORS)
  groupCount(
    @GroupIdParam() groupId: number,
    @EnterpriseId() enterpriseId: string,
    @Query() query: MetricsQueryDto,
  ): Promise<CountAnswer> {
    return this.metrics.forGroup(enterpriseId, groupId, 'count', query);
  }

  @Get('groups/:groupID/mhci')
  @ApiOperation({
    summary: "A group's MHCI statistics",
    description: describeSealedCells('mhci'),
  })
  @ApiOkResponse({
    schema: { anyOf: [METRIC_ANSWER_SCHEMAS.groupMhci, METRIC_ACCURACY_SCHEMAS.groupMhci] },
  })
  @ApiEndpointErrors(GROUP_MHCI_ERRORS)
  groupMhci(
    @GroupIdParam() groupId: number,
    @EnterpriseId() enterpriseId: string,
    @Query() query: GroupMhciQueryDto,
  ): Promise<MhciAnswer> {
    return this.metrics.forGroup(enterpriseId, groupId, 'mhci', query);
  }

  @Get('groups/:groupID/wordcloud')
  @ApiOperation({
    summary: "A group's word cloud",
    description: describeSealedCells('wordcloud'),
  })
  @ApiOkResponse({
    schema: {
      anyOf: [METRIC_ANSWER_SCHEMAS.groupWordcloud, METRIC_ACCURACY_SCHEMAS.groupWordcloud],
    },
  })
  @ApiEndpointErrors(GROUP_WORDCLOUD_ERRORS)
  groupWordcloud(
    @GroupIdParam() groupId: number,
    @EnterpriseId() enterpriseId: string,
    @Query() query: GroupWordcloudQueryDto,
  ): Promise<WordcloudAnswer> {
    return this.metrics.forGroup(enterpriseId, groupId, 'wordcloud', query);
  }

  @Get('participants/:externalID/count')
  @ApiOperation({
    summary: "A participant's session count",
    description: describeParticipantMetric('count'),
  })
  @ApiOkResponse({ schema: METRIC_ANSWER_SCHEMAS.count })
  @ApiEndpointErrors(PARTICIPANT_ERRORS)
  participantCount(
    @ExternalIdParam() externalId: string,
    @EnterpriseId() enterpriseId: string,
    @Query() query: MetricsQueryDto,
  ): Promise<CountAnswer> {
    return this.metrics.forParticipant(enterpriseId, externalId, 'count', query);
  }

  @Get('participants/:externalID/mhci')
  @ApiOperation({
    summary: "A participant's MHCI statistics",
    description: describeParticipantMetric('mhci'),
  })
  @ApiOkResponse({ schema: METRIC_ANSWER_SCHEMAS.participantMhci })
  @ApiEndpointErrors(PARTICIPANT_ERRORS)
  participantMhci(
    @ExternalIdParam() externalId: string,
    @EnterpriseId() enterpriseId: string,
    @Query() query: MetricsQueryDto,
  ): Promise<MhciAnswer> {
    return this.metrics.forParticipant(enterpriseId, externalId, 'mhci', query);
  }

  @Get('participants/:externalID/wordcloud')
  @ApiOperation({
    summary: "A participant's word cloud",
    description: describeParticipantMetric('wordcloud'),
  })
  @ApiOkResponse({ schema: METRIC_ANSWER_SCHEMAS.participantWordcloud })
  @ApiEndpointErrors(PARTICIPANT_WORDCLOUD_ERRORS)
  participantWordcloud(
    @ExternalIdParam() externalId: string,
    @EnterpriseId() enterpriseId: string,
    @Query() query: WordcloudQueryDto,
  ): Promise<WordcloudAnswer> {
    return this.metrics.forParticipant(enterpriseId, externalId, 'wordcloud', query);
  }
}
