"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.MetricsController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const enterprise_decorator_1 = require("../common/auth/enterprise.decorator");
const api_error_1 = require("../common/errors/api-error");
const common_errors_1 = require("../common/errors/common.errors");
const api_errors_decorator_1 = require("../common/swagger/api-errors.decorator");
const external_id_1 = require("../common/validation/external-id");
const path_params_1 = require("../common/validation/path-params");
const privacy_model_1 = require("../common/privacy-model");
const groups_errors_1 = require("../groups/groups.errors");
const participants_errors_1 = require("../participants/participants.errors");
const metric_answers_dto_1 = require("./dto/metric-answers.dto");
const metrics_query_dto_1 = require("./dto/metrics-query.dto");
const metrics_errors_1 = require("./metrics.errors");
const metrics_service_1 = require("./metrics.service");
/** `count`, `mhci` or `wordcloud`; any other name is an unknown route (404). */
let MetricPipe = class MetricPipe {
    transform(value) {
        if (!privacy_model_1.METRICS.includes(value)) {
            throw new api_error_1.ApiError(404, common_errors_1.CommonErrors.NotFound);
        }
        return value;
    }
};
MetricPipe = __decorate([
    (0, common_1.Injectable)()
], MetricPipe);
/** A metric operation's 400 messages, in the order they are checked. */
const metricErrors = (path, notFound, options = {}) => [
    ...path,
    metrics_errors_1.MetricsErrors.FromInvalid,
    metrics_errors_1.MetricsErrors.ToInvalid,
    metrics_errors_1.MetricsErrors.GroupByInvalid,
    ...(options.top ? [metrics_errors_1.MetricsErrors.TopInvalid] : []),
    ...(options.accuracy ? [metrics_errors_1.MetricsErrors.AccuracyInvalid] : []),
    metrics_errors_1.MetricsErrors.RangeInvalid,
    notFound,
];
const GROUP_PATH = [groups_errors_1.GroupErrors.GroupIdMissing, groups_errors_1.GroupErrors.GroupIdNotNumber];
const GROUP_ERRORS = metricErrors(GROUP_PATH, groups_errors_1.GroupErrors.NotFound);
const GROUP_MHCI_ERRORS = metricErrors(GROUP_PATH, groups_errors_1.GroupErrors.NotFound, { accuracy: true });
const GROUP_WORDCLOUD_ERRORS = metricErrors(GROUP_PATH, groups_errors_1.GroupErrors.NotFound, {
    top: true,
    accuracy: true,
});
const PARTICIPANT_PATH = [participants_errors_1.ParticipantErrors.ExternalIdMissing];
const PARTICIPANT_ERRORS = metricErrors(PARTICIPANT_PATH, participants_errors_1.ParticipantErrors.NotFound);
const PARTICIPANT_WORDCLOUD_ERRORS = metricErrors(PARTICIPANT_PATH, participants_errors_1.ParticipantErrors.NotFound, {
    top: true,
});
let MetricsController = class MetricsController {
    metrics;
    constructor(metrics) {
        this.metrics = metrics;
    }
    // One operation per metric (docs/integrating.md): each with its exact answer schema and query.
    groupCount(groupId, enterpriseId, query) {
        return this.metrics.forGroup(enterpriseId, groupId, 'count', query);
    }
    groupMhci(groupId, enterpriseId, query) {
        return this.metrics.forGroup(enterpriseId, groupId, 'mhci', query);
    }
    groupWordcloud(groupId, enterpriseId, query) {
        return this.metrics.forGroup(enterpriseId, groupId, 'wordcloud', query);
    }
    participantCount(externalId, enterpriseId, query) {
        return this.metrics.forParticipant(enterpriseId, externalId, 'count', query);
    }
    participantMhci(externalId, enterpriseId, query) {
        return this.metrics.forParticipant(enterpriseId, externalId, 'mhci', query);
    }
    participantWordcloud(externalId, enterpriseId, query) {
        return this.metrics.forParticipant(enterpriseId, externalId, 'wordcloud', query);
    }
};
exports.MetricsController = MetricsController;
__decorate([
    (0, common_1.Get)('groups/:groupID/count'),
    (0, swagger_1.ApiOperation)({
        summary: "A group's session count",
        description: (0, privacy_model_1.describeGroupCount)(),
    }),
    (0, swagger_1.ApiOkResponse)({ schema: metric_answers_dto_1.METRIC_ANSWER_SCHEMAS.count }),
    (0, api_errors_decorator_1.ApiEndpointErrors)(GROUP_ERRORS),
    __param(0, (0, path_params_1.GroupIdParam)()),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __param(2, (0, common_1.Query)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Number, String, metrics_query_dto_1.MetricsQueryDto]),
    __metadata("design:returntype", Promise)
], MetricsController.prototype, "groupCount", null);
__decorate([
    (0, common_1.Get)('groups/:groupID/mhci'),
    (0, swagger_1.ApiOperation)({
        summary: "A group's MHCI statistics",
        description: (0, privacy_model_1.describeSealedCells)('mhci'),
    }),
    (0, swagger_1.ApiOkResponse)({
        schema: { anyOf: [metric_answers_dto_1.METRIC_ANSWER_SCHEMAS.groupMhci, metric_answers_dto_1.METRIC_ACCURACY_SCHEMAS.groupMhci] },
    }),
    (0, api_errors_decorator_1.ApiEndpointErrors)(GROUP_MHCI_ERRORS),
    __param(0, (0, path_params_1.GroupIdParam)()),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __param(2, (0, common_1.Query)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Number, String, metrics_query_dto_1.GroupMhciQueryDto]),
    __metadata("design:returntype", Promise)
], MetricsController.prototype, "groupMhci", null);
__decorate([
    (0, common_1.Get)('groups/:groupID/wordcloud'),
    (0, swagger_1.ApiOperation)({
        summary: "A group's word cloud",
        description: (0, privacy_model_1.describeSealedCells)('wordcloud'),
    }),
    (0, swagger_1.ApiOkResponse)({
        schema: {
            anyOf: [metric_answers_dto_1.METRIC_ANSWER_SCHEMAS.groupWordcloud, metric_answers_dto_1.METRIC_ACCURACY_SCHEMAS.groupWordcloud],
        },
    }),
    (0, api_errors_decorator_1.ApiEndpointErrors)(GROUP_WORDCLOUD_ERRORS),
    __param(0, (0, path_params_1.GroupIdParam)()),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __param(2, (0, common_1.Query)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Number, String, metrics_query_dto_1.GroupWordcloudQueryDto]),
    __metadata("design:returntype", Promise)
], MetricsController.prototype, "groupWordcloud", null);
__decorate([
    (0, common_1.Get)('participants/:externalID/count'),
    (0, swagger_1.ApiOperation)({
        summary: "A participant's session count",
        description: (0, privacy_model_1.describeParticipantMetric)('count'),
    }),
    (0, swagger_1.ApiOkResponse)({ schema: metric_answers_dto_1.METRIC_ANSWER_SCHEMAS.count }),
    (0, api_errors_decorator_1.ApiEndpointErrors)(PARTICIPANT_ERRORS),
    __param(0, (0, external_id_1.ExternalIdParam)()),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __param(2, (0, common_1.Query)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, String, metrics_query_dto_1.MetricsQueryDto]),
    __metadata("design:returntype", Promise)
], MetricsController.prototype, "participantCount", null);
__decorate([
    (0, common_1.Get)('participants/:externalID/mhci'),
    (0, swagger_1.ApiOperation)({
        summary: "A participant's MHCI statistics",
        description: (0, privacy_model_1.describeParticipantMetric)('mhci'),
    }),
    (0, swagger_1.ApiOkResponse)({ schema: metric_answers_dto_1.METRIC_ANSWER_SCHEMAS.participantMhci }),
    (0, api_errors_decorator_1.ApiEndpointErrors)(PARTICIPANT_ERRORS),
    __param(0, (0, external_id_1.ExternalIdParam)()),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __param(2, (0, common_1.Query)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, String, metrics_query_dto_1.MetricsQueryDto]),
    __metadata("design:returntype", Promise)
], MetricsController.prototype, "participantMhci", null);
__decorate([
    (0, common_1.Get)('participants/:externalID/wordcloud'),
    (0, swagger_1.ApiOperation)({
        summary: "A participant's word cloud",
        description: (0, privacy_model_1.describeParticipantMetric)('wordcloud'),
    }),
    (0, swagger_1.ApiOkResponse)({ schema: metric_answers_dto_1.METRIC_ANSWER_SCHEMAS.participantWordcloud }),
    (0, api_errors_decorator_1.ApiEndpointErrors)(PARTICIPANT_WORDCLOUD_ERRORS),
    __param(0, (0, external_id_1.ExternalIdParam)()),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __param(2, (0, common_1.Query)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, String, metrics_query_dto_1.WordcloudQueryDto]),
    __metadata("design:returntype", Promise)
], MetricsController.prototype, "participantWordcloud", null);
exports.MetricsController = MetricsController = __decorate([
    (0, swagger_1.ApiTags)('Metrics'),
    (0, swagger_1.ApiExtraModels)(metric_answers_dto_1.MhciStatsDto),
    (0, common_1.Controller)('metrics')
    // `GET /metrics/groups//mhci`: an unknown metric is still an unknown route (404) first.
    ,
    (0, path_params_1.AbsentPathParameters)({
        method: 'GET',
        path: 'groups//:metric',
        missing: 'groupID',
        checkFirst: [['metric', MetricPipe]],
    }, {
        method: 'GET',
        path: 'participants//:metric',
        missing: 'externalID',
        checkFirst: [['metric', MetricPipe]],
    }),
    __metadata("design:paramtypes", [metrics_service_1.MetricsService])
], MetricsController);
//# sourceMappingURL=metrics.controller.js.map