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
Object.defineProperty(exports, "__esModule", { value: true });
exports.MetricsService = void 0;
const common_1 = require("@nestjs/common");
const api_error_1 = require("../common/errors/api-error");
const measurements_1 = require("../common/measurements/measurements");
const privacy_model_1 = require("../common/privacy-model");
const groups_errors_1 = require("../groups/groups.errors");
const groups_repository_1 = require("../groups/groups.repository");
const participants_service_1 = require("../participants/participants.service");
const group_releases_reader_1 = require("./windows/group-releases.reader");
const metric_windows_repository_1 = require("./windows/metric-windows.repository");
const window_releaser_1 = require("./windows/window-releaser");
const metrics_errors_1 = require("./metrics.errors");
const metrics_repository_1 = require("./metrics.repository");
const DEFAULT_TOP = 50;
/**
 * Metrics (docs/metrics.md). Privacy: a participant's metrics use only the sessions the privacy
 * model lets that metric see (PARTICIPANT_METRIC_LEVEL); a group's `mhci` and `wordcloud` are
 * computed from the releases of calendar windows, which never change (docs/metrics.md, "Release
 * windows", "Answers"): a read first releases what came due, then merges the releases.
 */
let MetricsService = class MetricsService {
    metrics;
    groups;
    participants;
    releaser;
    windows;
    releases;
    /** Group answers' values answered null (docs/metrics.md, "Answers"; docs/operations.md). */
    withheld;
    constructor(metrics, groups, participants, releaser, windows, releases, measurements) {
        this.metrics = metrics;
        this.groups = groups;
        this.participants = participants;
        this.releaser = releaser;
        this.windows = windows;
        this.releases = releases;
        this.withheld = measurements.counter({
            name: 'checkin_group_metric_values_withheld_total',
            help: 'Values of group mhci and wordcloud answers (the whole range, or a period of groupBy) answered null: finer than the release window, not released yet, too few participants, or a margin above maxMargin (docs/metrics.md).',
            labelNames: ['metric'],
        });
        for (const metric of ['mhci', 'wordcloud'])
            this.withheld.inc({ metric }, 0);
    }
    async forGroup(enterpriseId, groupId, metric, query) {
        const range = this.range(query);
        if (!(await this.groups.existsForEnterprise(enterpriseId, groupId))) {
            throw api_error_1.ApiError.badRequest(groups_errors_1.GroupErrors.NotFound);
        }
        let answer;
        if (metric === 'count') {
            answer = await this.compute({ kind: 'group', enterpriseId, groupId }, metric, range, query);
        }
        else {
            // Windows that came due since the last sweep are released first (an index probe if none).
            await this.releaser.releaseEnterprise(enterpriseId);
            const settings = (await this.windows.settingsOf(enterpriseId));
            const top = query.top;
            const periods = metric === 'mhci'
                ? await this.releases.mhci(enterpriseId, groupId, range, settings)
                : await this.releases.wordcloud(enterpriseId, groupId, range, settings, top ? Number(top) : DEFAULT_TOP);
            answer = this.shape(periods, range, query.accuracy === 'true');
        }
        const nulls = Object.values(answer).filter((value) => value === null || value.value === null).length;
        if (nulls > 0)
            this.withheld.inc({ metric }, nulls);
        return answer;
    }
    async forParticipant(enterpriseId, externalId, metric, query) {
        const range = this.range(query);
        const participant = await this.participants.require(enterpriseId, externalId);
        const answer = await this.compute({
            kind: 'participant',
            enterpriseId,
            participantId: participant.id,
            minimumLevel: privacy_model_1.PARTICIPANT_METRIC_LEVEL[metric],
        }, metric, range, query);
        return answer;
    }
    /**
     * A group answer's shape (docs/metrics.md): the specification's, `{period: value}`, or with
     * `accuracy=true` `{period: {value, accuracy}}`. A range without sessions is `{"all": null}`.
     */
    shape(periods, range, withAccuracy) {
        if (periods.length === 0)
            return range.groupBy ? {} : { all: null };
        return Object.fromEntries(periods.map(({ key, value, accuracy }) => [key, withAccuracy ? { value, accuracy } : value]));
    }
    range(query) {
        if (query.from && query.to && query.from > query.to) {
            throw api_error_1.ApiError.badRequest(metrics_errors_1.MetricsErrors.RangeInvalid);
        }
        return { from: query.from ?? null, to: query.to ?? null, groupBy: query.groupBy ?? null };
    }
    async compute(scope, metric, range, query) {
        if (metric === 'count') {
            const rows = await this.metrics.count(scope, range);
            return Object.fromEntries(rows.map((row) => [row.key, row.value]));
        }
        if (scope.kind === 'group')
            throw new Error('group mhci and wordcloud read releases');
        if (metric === 'mhci') {
            const rows = await this.metrics.mhci(scope, range);
            if (!range.groupBy && (rows.length === 0 || rows[0].sessions === 0))
                return { all: null };
            const answer = {};
            for (const { key, sessions: _sessions, shown, ...stats } of rows) {
                answer[key] = shown ? stats : null;
            }
            return answer;
        }
        const top = query.top ? Number(query.top) : DEFAULT_TOP;
        const rows = await this.metrics.wordcloud(scope, range, top);
        // A group's range without sessions has no bucket: nothing to show, as `mhci` answers it.
        const answer = range.groupBy ? {} : { all: {} };
        for (const row of rows) {
            if (!row.shown)
                answer[row.key] = null;
            else if (row.word === null)
                answer[row.key] ??= {};
            else
                (answer[row.key] ??= {})[row.word] = row.share;
        }
        return answer;
    }
};
exports.MetricsService = MetricsService;
exports.MetricsService = MetricsService = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [metrics_repository_1.MetricsRepository,
        groups_repository_1.GroupsRepository,
        participants_service_1.ParticipantsService,
        window_releaser_1.WindowReleaser,
        metric_windows_repository_1.MetricWindowsRepository,
        group_releases_reader_1.GroupReleasesReader,
        measurements_1.Measurements])
], MetricsService);
//# sourceMappingURL=metrics.service.js.map