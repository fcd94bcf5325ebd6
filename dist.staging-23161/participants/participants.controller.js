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
exports.ParticipantsController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const enterprise_decorator_1 = require("../common/auth/enterprise.decorator");
const api_errors_decorator_1 = require("../common/swagger/api-errors.decorator");
const examples_1 = require("../common/swagger/examples");
const external_id_1 = require("../common/validation/external-id");
const path_params_1 = require("../common/validation/path-params");
const consent_record_dto_1 = require("./dto/consent-record.dto");
const participant_dto_1 = require("./dto/participant.dto");
const participants_errors_1 = require("./participants.errors");
const participants_service_1 = require("./participants.service");
const PARTICIPANT_ERRORS = [participants_errors_1.ParticipantErrors.ExternalIdMissing, participants_errors_1.ParticipantErrors.NotFound];
let ParticipantsController = class ParticipantsController {
    participants;
    constructor(participants) {
        this.participants = participants;
    }
    get(externalId, enterpriseId) {
        return this.participants.get(enterpriseId, externalId);
    }
    listConsents(externalId, enterpriseId) {
        return this.participants.listConsents(enterpriseId, externalId);
    }
    listSessions(externalId, enterpriseId) {
        return this.participants.listSessions(enterpriseId, externalId);
    }
};
exports.ParticipantsController = ParticipantsController;
__decorate([
    (0, common_1.Get)(':externalID'),
    (0, swagger_1.ApiOperation)({ summary: 'A participant and their group memberships' }),
    (0, swagger_1.ApiOkResponse)({ type: participant_dto_1.ParticipantDto }),
    (0, api_errors_decorator_1.ApiEndpointErrors)(PARTICIPANT_ERRORS),
    __param(0, (0, external_id_1.ExternalIdParam)()),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, String]),
    __metadata("design:returntype", Promise)
], ParticipantsController.prototype, "get", null);
__decorate([
    (0, common_1.Get)(':externalID/consents'),
    (0, swagger_1.ApiOperation)({
        summary: "The participant's consent records, oldest first",
        description: 'Every consent, privacy-level and email-preference change the participant made, and where ' +
            '(`checkin` page, `settings` page, `unsubscribe` link). Only the participant makes these ' +
            'changes. Email preferences apply to all their groups: `groupID` is the group whose page ' +
            'changed them, null from an unsubscribe link.',
    }),
    (0, swagger_1.ApiOkResponse)({ type: consent_record_dto_1.ConsentRecordDto, isArray: true }),
    (0, api_errors_decorator_1.ApiEndpointErrors)(PARTICIPANT_ERRORS),
    __param(0, (0, external_id_1.ExternalIdParam)()),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, String]),
    __metadata("design:returntype", Promise)
], ParticipantsController.prototype, "listConsents", null);
__decorate([
    (0, common_1.Get)(':externalID/sessions'),
    (0, swagger_1.ApiOperation)({ summary: "IDs of the participant's sessions, oldest first" }),
    (0, swagger_1.ApiOkResponse)({
        schema: { type: 'array', items: { type: 'string', example: examples_1.EXAMPLE_IDS.sessionId } },
    }),
    (0, api_errors_decorator_1.ApiEndpointErrors)(PARTICIPANT_ERRORS),
    __param(0, (0, external_id_1.ExternalIdParam)()),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, String]),
    __metadata("design:returntype", Promise)
], ParticipantsController.prototype, "listSessions", null);
exports.ParticipantsController = ParticipantsController = __decorate([
    (0, swagger_1.ApiTags)('Participants'),
    (0, common_1.Controller)('participants'),
    (0, path_params_1.AbsentPathParameters)({ method: 'GET', path: '', missing: 'externalID' }, { method: 'GET', path: '//sessions', missing: 'externalID' }, { method: 'GET', path: '//consents', missing: 'externalID' }),
    __metadata("design:paramtypes", [participants_service_1.ParticipantsService])
], ParticipantsController);
//# sourceMappingURL=participants.controller.js.map