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
exports.PrivacyRequestDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const privacy_model_1 = require("../../common/privacy-model");
const rules_1 = require("../../common/validation/rules");
const privacy_errors_1 = require("../privacy.errors");
class PrivacyRequestDto {
    requestedPrivacyLevel;
}
exports.PrivacyRequestDto = PrivacyRequestDto;
__decorate([
    (0, swagger_1.ApiProperty)({
        type: [String],
        enum: privacy_model_1.PRIVACY_NAMES,
        example: ['mhci', 'groupPerecntiles'],
        description: `What you ask participants to share. Levels: ${(0, privacy_model_1.describeRequestableLevels)()}; the request ` +
            'is the highest named level ([] withdraws it).',
    }),
    (0, rules_1.Rules)((0, rules_1.required)(privacy_errors_1.PrivacyErrors.RequestedPrivacyLevelMissing), (0, rules_1.holds)(privacy_model_1.isPrivacyNameArray, privacy_errors_1.PrivacyErrors.RequestedPrivacyLevelInvalid)),
    __metadata("design:type", Array)
], PrivacyRequestDto.prototype, "requestedPrivacyLevel", void 0);
//# sourceMappingURL=privacy-request.dto.js.map