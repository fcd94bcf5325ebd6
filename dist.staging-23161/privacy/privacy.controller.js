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
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.PrivacyController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const enterprise_decorator_1 = require("../common/auth/enterprise.decorator");
const message_dto_1 = require("../common/http/message.dto");
const api_errors_decorator_1 = require("../common/swagger/api-errors.decorator");
const external_id_1 = require("../common/validation/external-id");
const path_params_1 = require("../common/validation/path-params");
const groups_errors_1 = require("../groups/groups.errors");
const participants_errors_1 = require("../participants/participants.errors");
const privacy_request_dto_1 = require("./dto/privacy-request.dto");
const privacy_errors_1 = require("./privacy.errors");
const privacy_service_1 = require("./privacy.service");
let PrivacyController = class PrivacyController {
    privacy;
    constructor(privacy) {
        this.privacy = privacy;
    }
    async requestForGroup(groupId, enterpriseId, body) {
        await this.privacy.requestForGroup(enterpriseId, groupId, body.requestedPrivacyLevel);
        return message_dto_1.SUCCESS;
    }
    async requestForParticipant(externalId, enterpriseId, body) {
        await this.privacy.requestForParticipant(enterpriseId, externalId, body.requestedPrivacyLevel);
        return message_dto_1.SUCCESS;
    }
};
exports.PrivacyController = PrivacyController;
__decorate([
    (0, common_1.Post)('groups/:groupID/privacy'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiOperation)({
        summary: "Ask a group's participants for a privacy level",
        description: 'Participants whose level is below the request see a review notice at their next check-in; ' +
            "they may keep their level. Echoed as the group's `requestedPrivacyLevel`.",
    }),
    (0, swagger_1.ApiOkResponse)({ type: message_dto_1.MessageDto }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([
        groups_errors_1.GroupErrors.GroupIdMissing,
        groups_errors_1.GroupErrors.GroupIdNotNumber,
        privacy_errors_1.PrivacyErrors.RequestedPrivacyLevelMissing,
        privacy_errors_1.PrivacyErrors.RequestedPrivacyLevelInvalid,
        groups_errors_1.GroupErrors.NotFound,
        groups_errors_1.GroupErrors.NotAssociated,
    ]),
    __param(0, (0, path_params_1.GroupIdParam)()),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __param(2, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Number, String, privacy_request_dto_1.PrivacyRequestDto]),
    __metadata("design:returntype", Promise)
], PrivacyController.prototype, "requestForGroup", null);
__decorate([
    (0, common_1.Post)('participants/:externalID/privacy'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiOperation)({
        summary: "Ask one participant for a privacy level (overrides their groups' requests)",
    }),
    (0, swagger_1.ApiOkResponse)({ type: message_dto_1.MessageDto }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([
        participants_errors_1.ParticipantErrors.ExternalIdMissing,
        privacy_errors_1.PrivacyErrors.RequestedPrivacyLevelMissing,
        privacy_errors_1.PrivacyErrors.RequestedPrivacyLevelInvalid,
        participants_errors_1.ParticipantErrors.NotFound,
    ]),
    __param(0, (0, external_id_1.ExternalIdParam)()),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __param(2, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, String, privacy_request_dto_1.PrivacyRequestDto]),
    __metadata("design:returntype", Promise)
], PrivacyController.prototype, "requestForParticipant", null);
exports.PrivacyController = PrivacyController = __decorate([
    (0, swagger_1.ApiTags)('Privacy requests'),
    (0, common_1.Controller)('configure'),
    (0, path_params_1.AbsentPathParameters)({ method: 'POST', path: 'groups//privacy', missing: 'groupID' }, { method: 'POST', path: 'participants//privacy', missing: 'externalID' }),
    __metadata("design:paramtypes", [privacy_service_1.PrivacyService])
], PrivacyController);
//# sourceMappingURL=privacy.controller.js.map