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
exports.GroupWordcloudQueryDto = exports.GroupMhciQueryDto = exports.WordcloudQueryDto = exports.MetricsQueryDto = exports.MAX_TOP = exports.isCalendarDate = void 0;
const swagger_1 = require("@nestjs/swagger");
const rules_1 = require("../../common/validation/rules");
const metrics_errors_1 = require("../metrics.errors");
/** A real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
const isCalendarDate = (value) => {
    if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value))
        return false;
    const [year, month, day] = value.split('-').map(Number);
    const date = new Date(Date.UTC(year, month - 1, day));
    return (date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day);
};
exports.isCalendarDate = isCalendarDate;
/** The most words a cloud answers (docs/metrics.md): more would only list rarer, more telling words. */
exports.MAX_TOP = 200;
/** A whole number 1–MAX_TOP, written plainly (no sign, no leading zero). */
const isTopValue = (value) => typeof value === 'string' && /^[1-9]\d{0,2}$/.test(value) && Number(value) <= exports.MAX_TOP;
/** count and mhci's query parameters, checked in the spec's order: from, to, groupBy. */
class MetricsQueryDto {
    from;
    to;
    groupBy;
}
exports.MetricsQueryDto = MetricsQueryDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ example: '2026-11-01', description: 'First day (UTC), inclusive.' }),
    (0, rules_1.Rules)((0, rules_1.holds)(exports.isCalendarDate, metrics_errors_1.MetricsErrors.FromInvalid)),
    __metadata("design:type", String)
], MetricsQueryDto.prototype, "from", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ example: '2026-11-30', description: 'Last day (UTC), inclusive.' }),
    (0, rules_1.Rules)((0, rules_1.holds)(exports.isCalendarDate, metrics_errors_1.MetricsErrors.ToInvalid)),
    __metadata("design:type", String)
], MetricsQueryDto.prototype, "to", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({
        enum: metrics_errors_1.GROUP_BY,
        description: "Keys become periods: YYYY-MM-DD, the ISO week's Monday, or YYYY-MM.",
    }),
    (0, rules_1.Rules)((0, rules_1.oneOf)(metrics_errors_1.GROUP_BY, metrics_errors_1.MetricsErrors.GroupByInvalid)),
    __metadata("design:type", String)
], MetricsQueryDto.prototype, "groupBy", void 0);
/**
 * wordcloud's query parameters: count's and mhci's, then `top` (the spec's "wordcloud only": the
 * other metrics do not read it, and the validation pipe drops it there unread).
 */
class WordcloudQueryDto extends MetricsQueryDto {
    top;
}
exports.WordcloudQueryDto = WordcloudQueryDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)({
        example: '50',
        description: `How many words, 1–${exports.MAX_TOP} (default 50).`,
    }),
    (0, rules_1.Rules)((0, rules_1.holds)(isTopValue, metrics_errors_1.MetricsErrors.TopInvalid)),
    __metadata("design:type", String)
], WordcloudQueryDto.prototype, "top", void 0);
const ACCURACY = ['true', 'false'];
const ACCURACY_DESCRIPTION = 'true: each period answers `{"value": …, "accuracy": {…}}`, with the participants behind ' +
    'it, the windows merged, results in no release, the privacy it spent and a 95 % interval for ' +
    'each number, and why a `null` is null (docs/metrics.md). Default false: the plain answer.';
/** Group mhci's query parameters: count's, then `accuracy`. */
class GroupMhciQueryDto extends MetricsQueryDto {
    accuracy;
}
exports.GroupMhciQueryDto = GroupMhciQueryDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ enum: ACCURACY, description: ACCURACY_DESCRIPTION }),
    (0, rules_1.Rules)((0, rules_1.oneOf)(ACCURACY, metrics_errors_1.MetricsErrors.AccuracyInvalid)),
    __metadata("design:type", Object)
], GroupMhciQueryDto.prototype, "accuracy", void 0);
/** Group wordcloud's query parameters: the word cloud's, then `accuracy`. */
class GroupWordcloudQueryDto extends WordcloudQueryDto {
    accuracy;
}
exports.GroupWordcloudQueryDto = GroupWordcloudQueryDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ enum: ACCURACY, description: ACCURACY_DESCRIPTION }),
    (0, rules_1.Rules)((0, rules_1.oneOf)(ACCURACY, metrics_errors_1.MetricsErrors.AccuracyInvalid)),
    __metadata("design:type", Object)
], GroupWordcloudQueryDto.prototype, "accuracy", void 0);
//# sourceMappingURL=metrics-query.dto.js.map