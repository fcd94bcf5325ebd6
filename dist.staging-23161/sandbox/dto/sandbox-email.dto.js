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
exports.SandboxEmailDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const examples_1 = require("../../common/swagger/examples");
const interact_errors_1 = require("../../interact/interact.errors");
const mail_templates_1 = require("../../interact/sending/mail-templates");
const example_links_1 = require("../../participant-links/example-links");
/** The example mail: a check-in reminder as the mail template renders it, with real-format links. */
const EXAMPLE_MEMBERSHIP = {
    participantId: '337139fd-08e4-4b6d-99a3-b584d767fabf',
    groupId: examples_1.EXAMPLE_IDS.groupId,
    linkVersion: 0,
};
const EXAMPLE_MAIL = (0, mail_templates_1.renderMail)({
    type: 'checkinReminder',
    locale: 'en',
    enterpriseName: 'Acme',
    operatorName: 'Wellbeing Services Ltd',
    privacyNoticeUrl: 'https://wellbeing.example/privacy',
    groupName: 'Night shift',
    settingsUrl: (0, example_links_1.exampleSettingsUrl)(EXAMPLE_MEMBERSHIP),
    unsubscribeUrl: (0, example_links_1.exampleUnsubscribeUrl)(EXAMPLE_MEMBERSHIP, 'checkinReminder'),
    checkinUrl: null,
    requestedLevel: 0,
    currentLevel: 0,
    notice: null,
});
/** A mail of a sandbox enterprise, captured instead of sent (`GET /sandbox/emails`, docs/integrating.md). */
class SandboxEmailDto {
    to;
    userIdentifier;
    emailType;
    subject;
    text;
    groupID;
    createdAt;
}
exports.SandboxEmailDto = SandboxEmailDto;
__decorate([
    (0, swagger_1.ApiProperty)({
        example: 'ana@example.com',
        description: "The recipient: the participant's email address.",
    }),
    __metadata("design:type", String)
], SandboxEmailDto.prototype, "to", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({
        example: examples_1.EXAMPLE_IDS.externalId,
        description: "The participant's external ID (`ok_…`).",
    }),
    __metadata("design:type", String)
], SandboxEmailDto.prototype, "userIdentifier", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({
        enum: interact_errors_1.MAIL_TYPES,
        example: 'checkinReminder',
        description: 'The two types an enterprise requests, or `privacyNotice`: the notice a participant gets ' +
            'when they raise their privacy level.',
    }),
    __metadata("design:type", String)
], SandboxEmailDto.prototype, "emailType", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: EXAMPLE_MAIL.subject }),
    __metadata("design:type", String)
], SandboxEmailDto.prototype, "subject", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({
        example: EXAMPLE_MAIL.text,
        description: "The text part exactly as it would have been sent, with the participant's signed links " +
            "(settings, unsubscribe): they work like a real mail's.",
    }),
    __metadata("design:type", String)
], SandboxEmailDto.prototype, "text", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: examples_1.EXAMPLE_IDS.groupId, description: 'The group the mail is about.' }),
    __metadata("design:type", Number)
], SandboxEmailDto.prototype, "groupID", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({
        example: '2026-11-22T09:42:10.000Z',
        description: 'When the mail was captured, i.e. when it would have been sent (ISO 8601, UTC).',
    }),
    __metadata("design:type", String)
], SandboxEmailDto.prototype, "createdAt", void 0);
//# sourceMappingURL=sandbox-email.dto.js.map