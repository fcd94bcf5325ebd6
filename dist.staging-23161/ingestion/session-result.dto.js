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
exports.SessionResultDto = exports.isPlausibleCompletionTime = exports.isFeatures = exports.isTranscript = exports.isSubscores = void 0;
const swagger_1 = require("@nestjs/swagger");
const session_dto_1 = require("../sessions/dto/session.dto");
const rules_1 = require("../common/validation/rules");
const handoff_token_1 = require("../sessions/handoff-token");
const ingestion_errors_1 = require("./ingestion.errors");
const isScore = (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 100;
const isPlainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const SUBSCORE_NAMES = ['vision', 'audio', 'transcript', 'assessment'];
const isSubscores = (value) => isPlainObject(value) &&
    Object.keys(value).length === SUBSCORE_NAMES.length &&
    SUBSCORE_NAMES.every((name) => isScore(value[name]));
exports.isSubscores = isSubscores;
const isTranscript = (value) => Array.isArray(value) &&
    value.length <= 10_000 &&
    value.every((turn) => isPlainObject(turn) &&
        Object.keys(turn).length === 2 &&
        (turn.role === 'assistant' || turn.role === 'user') &&
        typeof turn.content === 'string');
exports.isTranscript = isTranscript;
const FEATURE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const isFeatures = (value) => isPlainObject(value) &&
    Object.keys(value).length <= 500 &&
    Object.entries(value).every(([name, number]) => FEATURE_NAME.test(name) && typeof number === 'number' && Number.isFinite(number));
exports.isFeatures = isFeatures;
/** Allows the engine's clock to run up to 5 minutes ahead of ours. */
const CLOCK_SKEW_MS = 5 * 60_000;
/** No check-in happened before the service existed: earlier dates are mistakes (docs/security.md). */
const EARLIEST_COMPLETION = Date.UTC(2000, 0, 1);
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;
/**
 * Whether the fields name a real calendar day and time: `Date.parse` rolls 2026-02-30 over to
 * March 2nd rather than refusing it.
 */
const isRealDateTime = (fields) => {
    const [year, month, day, hour, minute, second = '0', offsetHours = '0', offsetMinutes = '0'] = fields;
    const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
    return (Number(month) >= 1 &&
        Number(month) <= 12 &&
        Number(day) >= 1 &&
        Number(day) <= daysInMonth &&
        Number(hour) <= 23 &&
        Number(minute) <= 59 &&
        Number(second) <= 59 &&
        Number(offsetHours) <= 23 &&
        Number(offsetMinutes) <= 59);
};
const isPlausibleCompletionTime = (value) => {
    const match = ISO_DATE_TIME.exec(value);
    if (!match || !isRealDateTime(match.slice(1))) {
        return false;
    }
    const time = Date.parse(value);
    return Number.isFinite(time) && time >= EARLIEST_COMPLETION && time <= Date.now() + CLOCK_SKEW_MS;
};
exports.isPlausibleCompletionTime = isPlausibleCompletionTime;
/** A finished analysis, as the engine posts it (docs/checkin-flow.md). Validated strictly. */
class SessionResultDto {
    version;
    mhci;
    subscores;
    transcript;
    features;
    completedAt;
    handoff;
}
exports.SessionResultDto = SessionResultDto;
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'v1.4.0', description: 'Version of the engine that scored the session.' }),
    (0, rules_1.Rules)((0, rules_1.required)(ingestion_errors_1.IngestionErrors.VersionMissing), (0, rules_1.isString)(ingestion_errors_1.IngestionErrors.VersionNotString), (0, rules_1.satisfies)((value) => /^v\d{1,6}\.\d{1,6}\.\d{1,6}$/.test(value), ingestion_errors_1.IngestionErrors.VersionFormat)),
    __metadata("design:type", String)
], SessionResultDto.prototype, "version", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 71.5, minimum: 0, maximum: 100 }),
    (0, rules_1.Rules)((0, rules_1.required)(ingestion_errors_1.IngestionErrors.MhciMissing), (0, rules_1.holds)(isScore, ingestion_errors_1.IngestionErrors.MhciInvalid)),
    __metadata("design:type", Number)
], SessionResultDto.prototype, "mhci", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({
        type: session_dto_1.SubscoresDto,
        description: 'Each a number from 0 to 100.',
        example: { vision: 64, audio: 70, transcript: 77, assessment: 73 },
    }),
    (0, rules_1.Rules)((0, rules_1.required)(ingestion_errors_1.IngestionErrors.SubscoresMissing), (0, rules_1.holds)(exports.isSubscores, ingestion_errors_1.IngestionErrors.SubscoresInvalid)),
    __metadata("design:type", Object)
], SessionResultDto.prototype, "subscores", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({
        type: [session_dto_1.TranscriptTurnDto],
        example: [
            { role: 'assistant', content: 'How have you been sleeping?' },
            { role: 'user', content: 'Better this week, thanks.' },
        ],
    }),
    (0, rules_1.FreeText)(),
    (0, rules_1.Rules)((0, rules_1.required)(ingestion_errors_1.IngestionErrors.TranscriptMissing), (0, rules_1.holds)(exports.isTranscript, ingestion_errors_1.IngestionErrors.TranscriptInvalid)),
    __metadata("design:type", Array)
], SessionResultDto.prototype, "transcript", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({
        type: 'object',
        additionalProperties: { type: 'number' },
        maxProperties: 500,
        description: 'Feature name (letters, digits, `_ . -`, up to 64 characters) → a finite number.',
        example: { speech_rate: 2.7, pitch_variability: 0.31 },
    }),
    (0, rules_1.Rules)((0, rules_1.required)(ingestion_errors_1.IngestionErrors.FeaturesMissing), (0, rules_1.holds)(exports.isFeatures, ingestion_errors_1.IngestionErrors.FeaturesInvalid)),
    __metadata("design:type", Object)
], SessionResultDto.prototype, "features", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({
        example: '2026-11-22T09:42:10Z',
        description: 'When the check-in ended: an ISO 8601 date-time with a time zone, from 2000-01-01 to at most ' +
            '5 minutes ahead of the service clock. Defaults to the time of ingestion.',
    }),
    (0, rules_1.Rules)((0, rules_1.isString)(ingestion_errors_1.IngestionErrors.CompletedAtInvalid), (0, rules_1.satisfies)(exports.isPlausibleCompletionTime, ingestion_errors_1.IngestionErrors.CompletedAtInvalid)),
    __metadata("design:type", String)
], SessionResultDto.prototype, "completedAt", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({
        example: 'Jq0x3sWm2cD8yT1bVb6lqF0QeU9HnZk3mXo4aR7pLwE',
        description: 'The `handoff` query parameter of the address the check-in page sent the participant to ' +
            '(docs/checkin-flow.md, "Hand-off"). Optional; when given it must be the current hand-off ' +
            'of this session, or the result is refused with 409 and nothing is stored. The result ' +
            'counts at the level the participant handed off at only when the browser that handed off ' +
            'passed `GET /checkin/confirm`; otherwise it is recorded at level 0.',
    }),
    (0, rules_1.Rules)((0, rules_1.isString)(ingestion_errors_1.IngestionErrors.HandoffInvalid), (0, rules_1.satisfies)((value) => handoff_token_1.HANDOFF_TOKEN.test(value), ingestion_errors_1.IngestionErrors.HandoffInvalid)),
    __metadata("design:type", String)
], SessionResultDto.prototype, "handoff", void 0);
//# sourceMappingURL=session-result.dto.js.map