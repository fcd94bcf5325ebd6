import { Controller, Get, Injectable, Param, PipeTransform, Query } from '@nestjs/common';
import {
  ApiExcludeEndpoint,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { EnterpriseId } from '../common/auth/enterprise.decorator';
import { ApiError } from '../common/errors/api-error';
import { CommonErrors } from '../common/errors/common.errors';
import { ApiEndpointErrors } from '../common/swagger/api-errors.decorator';
import { ExternalIdParam } from '../common/validation/external-id';
import { GroupIdParam, missingPathParameterError } from '../common/validation/path-params';
import { GroupErrors } from '../groups/groups.errors';
import { ParticipantErrors } from '../participants/participants.errors';
import { MetricsQueryDto } from './metrics-query.dto';
import { MetricsErrors } from './metrics.errors';
import { MetricsService } from './metrics.service';
import type { Metric } from './metrics.service';

const METRICS: readonly string[] = ['count', 'mhci', 'wordcloud'];

/** `count`, `mhci` or `wordcloud`; any other name is an unknown route (404). */
@Injectable()
class MetricPipe implements PipeTransform<string, Metric> {
  transform(value: string): Metric {
    if (!METRICS.includes(value)) throw new ApiError(404, CommonErrors.NotFound);
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

const RESULT_EXAMPLE = {
  schema: {
    type: 'object',
    description:
      'Without groupBy `{"all": X}`; with groupBy one key per period that has sessions. count: an integer; ' +
      'mhci: {minMhci, maxMhci, avgMhci, percentile25Mhci, percentile50Mhci, percentile75Mhci} (or ' +
      '`{"all": null}`); wordcloud: {word: share of all counted words}.',
    example: { all: 42 },
  },
};

@ApiTags('Metrics')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get('groups/:groupID/:metric')
  @ApiParam({ name: 'metric', enum: METRICS })
  @ApiOperation({ summary: "A group's session count, MHCI statistics or word cloud" })
  @ApiOkResponse(RESULT_EXAMPLE)
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
  ) {
    return this.metrics.forGroup(enterpriseId, groupId, metric, query);
  }

  @Get('participants/:externalID/:metric')
  @ApiParam({ name: 'metric', enum: METRICS })
  @ApiOperation({
    summary: "A participant's session count, MHCI statistics or word cloud",
    description:
      'mhci uses only sessions the participant shares at level ≥ 1; wordcloud at level ≥ 4.',
  })
  @ApiOkResponse(RESULT_EXAMPLE)
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
  ) {
    return this.metrics.forParticipant(enterpriseId, externalId, metric, query);
  }

  @Get('groups//:metric')
  @ApiExcludeEndpoint()
  forGroupWithoutId(@Param('metric', MetricPipe) _metric: Metric): never {
    throw missingPathParameterError('groupID');
  }

  @Get('participants//:metric')
  @ApiExcludeEndpoint()
  forParticipantWithoutId(@Param('metric', MetricPipe) _metric: Metric): never {
    throw missingPathParameterError('externalID');
  }
}
