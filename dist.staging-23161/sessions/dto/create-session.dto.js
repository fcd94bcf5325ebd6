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
exports.SessionCreatedDto = exports.CreateSessionDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const examples_1 = require("../../common/swagger/examples");
const rules_1 = require("../../common/validation/rules");
const example_links_1 = require("../../participant-links/example-links");
const return_url_1 = require("../return-url");
const sessions_errors_1 = require("../sessions.errors");
/** Fields in the spec's order: their checks run in this order. */
class CreateSessionDto {
    groupID;
    groupKey;
    userIdentifier;
    returnURL;
}
exports.CreateSessionDto = CreateSessionDto;
__decorate([
    (0, swagger_1.ApiProperty)({ example: 12, description: 'The group (a JSON number).' }),
    (0, rules_1.Rules)((0, rules_1.required)(sessions_errors_1.SessionErrors.GroupIdMissing), (0, rules_1.isNumber)(sessions_errors_1.SessionErrors.GroupIdNotNumber)),
    __metadata("design:type", Number)
], CreateSessionDto.prototype, "groupID", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 'gk_4fJ9kQ2mZ8xW1vB7nR3tY6uP0sL5aD2c', description: "The group's key." }),
    (0, rules_1.Rules)((0, rules_1.required)(sessions_errors_1.SessionErrors.GroupKeyMissing), (0, rules_1.isString)(sessions_errors_1.SessionErrors.GroupKeyNotString), (0, rules_1.noControlCharacters)(sessions_errors_1.SessionErrors.InvalidGroupKey)),
    __metadata("design:type", String)
], CreateSessionDto.prototype, "groupKey", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({
        example: 'person@example.com',
        description: "The participant's email for a first session (one plain address: no display name, list, " +
            'group or comment), their ok_ external ID afterwards.',
    }),
    (0, rules_1.Rules)((0, rules_1.required)(sessions_errors_1.SessionErrors.UserIdentifierMissing), (0, rules_1.isString)(sessions_errors_1.SessionErrors.UserIdentifierNotString), (0, rules_1.noControlCharacters)(sessions_errors_1.SessionErrors.IdentifierInvalid)),
    __metadata("design:type", String)
], CreateSessionDto.prototype, "userIdentifier", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({
        example: 'https://app.example.com/checkin/finished',
        description: 'HTTPS address the participant is sent to when the check-in is complete: a public host ' +
            '(not localhost, nor a private or reserved IP address), no control characters. Stored ' +
            'normalised (`new URL(v).href`).',
    }),
    (0, rules_1.Rules)((0, rules_1.required)(sessions_errors_1.SessionErrors.ReturnUrlMissing), (0, rules_1.isString)(sessions_errors_1.SessionErrors.ReturnUrlNotString), (0, rules_1.satisfies)(return_url_1.isAcceptableReturnUrl, sessions_errors_1.SessionErrors.ReturnUrlNotHttps)),
    __metadata("design:type", String)
], CreateSessionDto.prototype, "returnURL", void 0);
class SessionCreatedDto {
    success;
    message;
    userIdentifier;
    redirectUrl;
    sessionID;
}
exports.SessionCreatedDto = SessionCreatedDto;
__decorate([
    (0, swagger_1.ApiProperty)({ example: true }),
    __metadata("design:type", Boolean)
], SessionCreatedDto.prototype, "success", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: sessions_errors_1.SESSION_CREATED_MESSAGE }),
    __metadata("design:type", String)
], SessionCreatedDto.prototype, "message", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: examples_1.EXAMPLE_IDS.externalId, description: "The participant's external ID." }),
    __metadata("design:type", String)
], SessionCreatedDto.prototype, "userIdentifier", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({
        example: (0, example_links_1.exampleCheckinUrl)(examples_1.EXAMPLE_IDS.sessionId),
        description: 'Send the participant here: `<PUBLIC_BASE_URL>/checkin/<token>`, the token a signed ' +
            '`<key id>.<claims>.<signature>` naming this session, valid `CHECKIN_TOKEN_TTL_HOURS`.',
    }),
    __metadata("design:type", String)
], SessionCreatedDto.prototype, "redirectUrl", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: examples_1.EXAMPLE_IDS.sessionId }),
    __metadata("design:type", String)
], SessionCreatedDto.prototype, "sessionID", void 0);
//# sourceMappingURL=create-session.dto.js.map