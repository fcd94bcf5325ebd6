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
exports.SessionDto = exports.TranscriptTurnDto = exports.SubscoresDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const privacy_model_1 = require("../../common/privacy-model");
const examples_1 = require("../../common/swagger/examples");
const fromLevel = (field, text) => `${text} Present when the session is shared at privacy level ${(0, privacy_model_1.levelRevealing)(field)} or more: ` +
    "the lower of the check-in's own level and the participant's level now.";
class SubscoresDto {
    vision;
    audio;
    transcript;
    assessment;
}
exports.SubscoresDto = SubscoresDto;
__decorate([
    (0, swagger_1.ApiProperty)({ example: 64 }),
    __metadata("design:type", Number)
], SubscoresDto.prototype, "vision", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 70 }),
    __metadata("design:type", Number)
], SubscoresDto.prototype, "audio", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 77 }),
    __metadata("design:type", Number)
], SubscoresDto.prototype, "transcript", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 73 }),
    __metadata("design:type", Number)
], SubscoresDto.prototype, "assessment", void 0);
class TranscriptTurnDto {
    role;
    content;
}
exports.TranscriptTurnDto = TranscriptTurnDto;
__decorate([
    (0, swagger_1.ApiProperty)({ enum: ['assistant', 'user'], example: 'user' }),
    __metadata("design:type", String)
], TranscriptTurnDto.prototype, "role", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'Better this week, thanks.' }),
    __metadata("design:type", String)
], TranscriptTurnDto.prototype, "content", void 0);
const NUMBER_MAP = { type: 'object', additionalProperties: { type: 'number' } };
/**
 * The Session resource (spec "Session"): the level-0 fields always, then the fields of the level
 * the session is shared at now — the lower of its own level and the membership's (docs/privacy.md,
 * common/privacy-model.ts).
 * A session without a result yet shows level 0 only.
 */
class SessionDto {
    externalID;
    sessionID;
    timestamp;
    groupID;
    version;
    mhci;
    subscores;
    groupPercentiles;
    userPercentiles;
    transcript;
    features;
}
exports.SessionDto = SessionDto;
__decorate([
    (0, swagger_1.ApiProperty)({ example: examples_1.EXAMPLE_IDS.externalId }),
    __metadata("design:type", String)
], SessionDto.prototype, "externalID", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: examples_1.EXAMPLE_IDS.sessionId }),
    __metadata("design:type", String)
], SessionDto.prototype, "sessionID", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({
        example: '2026-11-22T09:42:10.000Z',
        description: 'Completion time (ISO 8601, UTC), or creation time while the result is pending.',
    }),
    __metadata("design:type", String)
], SessionDto.prototype, "timestamp", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 12 }),
    __metadata("design:type", Number)
], SessionDto.prototype, "groupID", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({
        example: 'v1.4.0',
        description: "The analysis engine's version that scored the session (`v0.0.0` while pending).",
    }),
    __metadata("design:type", String)
], SessionDto.prototype, "version", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ example: 71.5, description: fromLevel('mhci', 'MHCI score, 0–100.') }),
    __metadata("design:type", Number)
], SessionDto.prototype, "mhci", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ type: SubscoresDto, description: fromLevel('subscores', 'Subscores.') }),
    __metadata("design:type", SubscoresDto)
], SessionDto.prototype, "subscores", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({
        ...NUMBER_MAP,
        example: { pitch_variability: 0.5 },
        description: fromLevel('groupPercentiles', "Each feature's mid-rank percentile (0–1) among the group's completed sessions."),
    }),
    __metadata("design:type", Object)
], SessionDto.prototype, "groupPercentiles", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({
        ...NUMBER_MAP,
        example: { pitch_variability: 0.25 },
        description: fromLevel('userPercentiles', "Each feature's mid-rank percentile (0–1) among the participant's own sessions."),
    }),
    __metadata("design:type", Object)
], SessionDto.prototype, "userPercentiles", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({
        type: [TranscriptTurnDto],
        description: fromLevel('transcript', 'The check-in conversation.'),
    }),
    __metadata("design:type", Array)
], SessionDto.prototype, "transcript", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({
        ...NUMBER_MAP,
        example: { speech_rate: 2.7 },
        description: fromLevel('features', 'Voice and video features measured by the engine.'),
    }),
    __metadata("design:type", Object)
], SessionDto.prototype, "features", void 0);
//# sourceMappingURL=session.dto.js.map