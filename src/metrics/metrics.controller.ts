import { Controller, Get, Injectable, Param, PipeTransform, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { EnterpriseId } from '../common/auth/enterprise.decorator';
import { ApiError } from '../common/errors/api-error';
import { CommonErrors } from '../common/errors/common.errors';
import { ApiEndpointErrors } from '../common/swagger/api-errors.decorator';
import { ExternalIdParam } from '../common/validation/external-id';
import { AbsentPathParameters, GroupIdParam } from '../common/validation/path-params';
import {
  describePrivacyFloor,
  type Metric,
  METRICS,
  PARTICIPANT_METRIC_LEVEL,
} from '../common/privacy-model';
import { GroupErrors } from '../groups/groups.errors';
import { ParticipantErrors } from '../participants/participants.errors';
import { METRIC_ANSWER_SCHEMA, MetricAnswer, MhciStatsDto } from './dto/metric-answers.dto';
import { MetricsQueryDto } from './dto/metrics-query.dto';
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

const QUERY_ERRORS = [
  MetricsErrors.FromInvalid,
  MetricsErrors.ToInvalid,
  MetricsErrors.GroupByInvalid,
  MetricsErrors.TopInvalid,
  MetricsErrors.RangeInvalid,
];

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

  @Get('groups/:groupID/:metric')
  @ApiParam({ name: 'metric', enum: METRICS })
  @ApiOperation({
    summary: "A group's session count, MHCI statistics or word cloud",
    description:
      `count is never withheld. mhci — ${describePrivacyFloor('mhci')} ` +
      `wordcloud — ${describePrivacyFloor('wordcloud')}`,
  })
  @ApiOkResponse({ schema: METRIC_ANSWER_SCHEMA })
  @ApiEndpointErrors([
    GroupErrors.GroupIdMissing,
    GroupErrors.GroupIdNotNumber,
    ...QUERY_ERRORS,
    GroupErrors.NotFound,
  ])
  forGroup(
    @GroupIdParam() groupId: number,
    @Param('metric', MetricPipe) metric: Metric,
    @EnterpriseId() enterpriseId: string,
    @Query() query: MetricsQueryDto,
  ): Promise<MetricAnswer> {
    return this.metrics.forGroup(enterpriseId, groupId, metric, query);
  }

  @Get('participants/:externalID/:metric')
  @ApiParam({ name: 'metric', enum: METRICS })
  @ApiOperation({
    summary: "A participant's session count, MHCI statistics or word cloud",
    description:
      `mhci uses only sessions the participant shares at level ≥ ${PARTICIPANT_METRIC_LEVEL.mhci}; ` +
      `wordcloud at level ≥ ${PARTICIPANT_METRIC_LEVEL.wordcloud}.`,
  })
  @ApiOkResponse({ schema: METRIC_ANSWER_SCHEMA })
  @ApiEndpointErrors([
    ParticipantErrors.ExternalIdMissing,
    ...QUERY_ERRORS,
    ParticipantErrors.NotFound,
  ])
  forParticipant(
    @ExternalIdParam() externalId: string,
    @Param('metric', MetricPipe) metric: Metric,
    @EnterpriseId() enterpriseId: string,
    @Query() query: MetricsQueryDto,
  ): Promise<MetricAnswer> {
    return this.metrics.forParticipant(enterpriseId, externalId, metric, query);
  }
}
