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
exports.ConsentRecordDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const VALUE_SCHEMA = {
    oneOf: [{ type: 'integer', minimum: 0, maximum: 5 }, { type: 'boolean' }],
    description: 'A privacy level (privacyLevel) or a boolean (consent and email preferences).',
};
/** One change in the participant's consent ledger (docs/privacy.md). */
class ConsentRecordDto {
    groupID;
    sessionID;
    change;
    from;
    to;
    at;
    via;
}
exports.ConsentRecordDto = ConsentRecordDto;
__decorate([
    (0, swagger_1.ApiProperty)({
        type: 'integer',
        nullable: true,
        example: 12,
        description: 'The group; null for an email preference changed from an unsubscribe link.',
    }),
    __metadata("design:type", Object)
], ConsentRecordDto.prototype, "groupID", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({
        type: 'string',
        nullable: true,
        example: 'ses_9fQk2mZr4TtY7uW1xPb3Lc8N',
        description: 'The check-in whose page made the change (made in the browser that did that check-in); ' +
            'null from the settings page or an unsubscribe link.',
    }),
    __metadata("design:type", Object)
], ConsentRecordDto.prototype, "sessionID", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ enum: ['consent', 'privacyLevel', 'checkinReminder', 'privacyRequest'] }),
    __metadata("design:type", String)
], ConsentRecordDto.prototype, "change", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ ...VALUE_SCHEMA, example: 0 }),
    __metadata("design:type", Object)
], ConsentRecordDto.prototype, "from", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ ...VALUE_SCHEMA, example: 3 }),
    __metadata("design:type", Object)
], ConsentRecordDto.prototype, "to", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: '2026-11-22T09:30:00.000Z', description: 'ISO 8601, UTC.' }),
    __metadata("design:type", String)
], ConsentRecordDto.prototype, "at", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ enum: ['checkin', 'settings', 'unsubscribe'] }),
    __metadata("design:type", String)
], ConsentRecordDto.prototype, "via", void 0);
//# sourceMappingURL=consent-record.dto.js.map