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
exports.InteractController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const enterprise_decorator_1 = require("../common/auth/enterprise.decorator");
const message_dto_1 = require("../common/http/message.dto");
const api_errors_decorator_1 = require("../common/swagger/api-errors.decorator");
const external_id_1 = require("../common/validation/external-id");
const path_params_1 = require("../common/validation/path-params");
const groups_errors_1 = require("../groups/groups.errors");
const participants_errors_1 = require("../participants/participants.errors");
const interact_errors_1 = require("./interact.errors");
const interact_service_1 = require("./interact.service");
const send_email_dto_1 = require("./send-email.dto");
let InteractController = class InteractController {
    interact;
    constructor(interact) {
        this.interact = interact;
    }
    async emailGroup(groupId, enterpriseId, body) {
        await this.interact.emailGroup(enterpriseId, groupId, body.emailType);
        return message_dto_1.SUCCESS;
    }
    async emailParticipant(externalId, enterpriseId, body) {
        await this.interact.emailParticipant(enterpriseId, externalId, body.emailType);
        return message_dto_1.SUCCESS;
    }
};
exports.InteractController = InteractController;
__decorate([
    (0, common_1.Post)('groups/:groupID/email'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiOperation)({
        summary: "Email a group's participants (those with that email preference on)",
        description: 'Answers as soon as the mails are queued; they are sent in the background.',
    }),
    (0, swagger_1.ApiOkResponse)({ type: message_dto_1.MessageDto }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([
        groups_errors_1.GroupErrors.GroupIdMissing,
        groups_errors_1.GroupErrors.GroupIdNotNumber,
        interact_errors_1.InteractErrors.EmailTypeMissing,
        interact_errors_1.InteractErrors.EmailTypeInvalid,
        groups_errors_1.GroupErrors.NotFound,
        groups_errors_1.GroupErrors.NotAssociated,
    ]),
    __param(0, (0, path_params_1.GroupIdParam)()),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __param(2, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Number, String, send_email_dto_1.SendEmailDto]),
    __metadata("design:returntype", Promise)
], InteractController.prototype, "emailGroup", null);
__decorate([
    (0, common_1.Post)('participants/:externalID/email'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiOperation)({ summary: 'Email one participant (if that email preference is on)' }),
    (0, swagger_1.ApiOkResponse)({ type: message_dto_1.MessageDto }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([
        participants_errors_1.ParticipantErrors.ExternalIdMissing,
        interact_errors_1.InteractErrors.EmailTypeMissing,
        interact_errors_1.InteractErrors.EmailTypeInvalid,
        participants_errors_1.ParticipantErrors.NotFound,
    ]),
    __param(0, (0, external_id_1.ExternalIdParam)()),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __param(2, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, String, send_email_dto_1.SendEmailDto]),
    __metadata("design:returntype", Promise)
], InteractController.prototype, "emailParticipant", null);
exports.InteractController = InteractController = __decorate([
    (0, swagger_1.ApiTags)('Emails'),
    (0, common_1.Controller)('interact'),
    (0, path_params_1.AbsentPathParameters)({ method: 'POST', path: 'groups//email', missing: 'groupID' }, { method: 'POST', path: 'participants//email', missing: 'externalID' }),
    __metadata("design:paramtypes", [interact_service_1.InteractService])
], InteractController);
//# sourceMappingURL=interact.controller.js.map