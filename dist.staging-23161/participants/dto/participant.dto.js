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
exports.ParticipantDto = exports.MembershipDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const examples_1 = require("../../common/swagger/examples");
class MembershipDto {
    externalID;
    groupID;
    joinDate;
    privacyLevel;
}
exports.MembershipDto = MembershipDto;
__decorate([
    (0, swagger_1.ApiProperty)({ example: examples_1.EXAMPLE_IDS.externalId }),
    __metadata("design:type", String)
], MembershipDto.prototype, "externalID", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 12 }),
    __metadata("design:type", Number)
], MembershipDto.prototype, "groupID", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: '2026-11-22T09:30:00.000Z', description: 'ISO 8601, UTC.' }),
    __metadata("design:type", String)
], MembershipDto.prototype, "joinDate", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({
        example: 0,
        minimum: 0,
        maximum: 5,
        description: "The participant's own privacy level for this group (0 = anonymised).",
    }),
    __metadata("design:type", Number)
], MembershipDto.prototype, "privacyLevel", void 0);
class ParticipantDto {
    externalID;
    userGroups;
}
exports.ParticipantDto = ParticipantDto;
__decorate([
    (0, swagger_1.ApiProperty)({ example: examples_1.EXAMPLE_IDS.externalId }),
    __metadata("design:type", String)
], ParticipantDto.prototype, "externalID", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ type: [MembershipDto] }),
    __metadata("design:type", Array)
], ParticipantDto.prototype, "userGroups", void 0);
//# sourceMappingURL=participant.dto.js.map