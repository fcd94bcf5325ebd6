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
exports.GroupDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const privacy_model_1 = require("../../common/privacy-model");
/** The Group resource, fields in the spec's order. */
class GroupDto {
    groupID;
    groupName;
    requestedPrivacyLevel;
    inviteCode;
    key;
    consentRequired;
    credits;
}
exports.GroupDto = GroupDto;
__decorate([
    (0, swagger_1.ApiProperty)({ example: 12, description: 'Identifier of the group.' }),
    __metadata("design:type", Number)
], GroupDto.prototype, "groupID", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'Night shift' }),
    __metadata("design:type", String)
], GroupDto.prototype, "groupName", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({
        type: [String],
        enum: privacy_model_1.PRIVACY_NAMES,
        example: [],
        description: "Privacy level requested from the group's participants (empty when none).",
    }),
    __metadata("design:type", Array)
], GroupDto.prototype, "requestedPrivacyLevel", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'k3v9q0w2x7m1p' }),
    __metadata("design:type", String)
], GroupDto.prototype, "inviteCode", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({
        example: 'gk_4fJ9kQ2mZ8xW1vB7nR3tY6uP0sL5aD2c',
        description: 'The group key, used as `groupKey` when creating sessions.',
    }),
    __metadata("design:type", String)
], GroupDto.prototype, "key", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({
        enum: ['true', 'false'],
        example: 'false',
        description: 'A string, not a boolean.',
    }),
    __metadata("design:type", String)
], GroupDto.prototype, "consentRequired", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 0, description: 'Credit balance (one credit per completed check-in).' }),
    __metadata("design:type", Number)
], GroupDto.prototype, "credits", void 0);
//# sourceMappingURL=group.dto.js.map