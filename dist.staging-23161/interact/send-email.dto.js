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
exports.SendEmailDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const rules_1 = require("../common/validation/rules");
const interact_errors_1 = require("./interact.errors");
class SendEmailDto {
    emailType;
}
exports.SendEmailDto = SendEmailDto;
__decorate([
    (0, swagger_1.ApiProperty)({
        enum: interact_errors_1.EMAIL_TYPES,
        example: 'checkinReminder',
        description: '`checkinReminder` asks for a check-in; `privacyRequest` asks to review privacy settings. ' +
            'Only participants with that email preference on receive it, at most once per type per hour.',
    }),
    (0, rules_1.Rules)((0, rules_1.required)(interact_errors_1.InteractErrors.EmailTypeMissing), (0, rules_1.oneOf)(interact_errors_1.EMAIL_TYPES, interact_errors_1.InteractErrors.EmailTypeInvalid)),
    __metadata("design:type", String)
], SendEmailDto.prototype, "emailType", void 0);
//# sourceMappingURL=send-email.dto.js.map