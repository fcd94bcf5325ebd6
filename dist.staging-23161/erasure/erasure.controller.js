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
exports.ErasureController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const enterprise_decorator_1 = require("../common/auth/enterprise.decorator");
const api_error_1 = require("../common/errors/api-error");
const message_dto_1 = require("../common/http/message.dto");
const api_errors_decorator_1 = require("../common/swagger/api-errors.decorator");
const external_id_1 = require("../common/validation/external-id");
const path_params_1 = require("../common/validation/path-params");
const participants_errors_1 = require("../participants/participants.errors");
const erasure_service_1 = require("./erasure.service");
let ErasureController = class ErasureController {
    erasure;
    constructor(erasure) {
        this.erasure = erasure;
    }
    async erase(externalId, enterpriseId) {
        if (!(await this.erasure.erase(externalId, { by: 'enterprise', enterpriseId }))) {
            throw api_error_1.ApiError.badRequest(participants_errors_1.ParticipantErrors.NotFound);
        }
        return message_dto_1.SUCCESS;
    }
};
exports.ErasureController = ErasureController;
__decorate([
    (0, common_1.Delete)(':externalID'),
    (0, swagger_1.ApiOperation)({
        summary: 'Erase a participant (on a request the enterprise received)',
        description: 'Deletes, in one transaction, the participant’s identity (encrypted email and its lookup ' +
            'hash), memberships, sessions and results, word counts, features, privacy requests, mails, ' +
            'consent records and the idempotent answers and events that name them, and takes their ' +
            'share out of the group metrics. Each group they belonged to gets a `user.deleted` event. ' +
            'Afterwards the external ID is `Participant not found` everywhere, and the same email ' +
            'later becomes a new participant with a new ID. Participants can do the same from their ' +
            'settings page.',
    }),
    (0, swagger_1.ApiOkResponse)({ type: message_dto_1.MessageDto }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([participants_errors_1.ParticipantErrors.ExternalIdMissing, participants_errors_1.ParticipantErrors.NotFound]),
    __param(0, (0, external_id_1.ExternalIdParam)()),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, String]),
    __metadata("design:returntype", Promise)
], ErasureController.prototype, "erase", null);
exports.ErasureController = ErasureController = __decorate([
    (0, swagger_1.ApiTags)('Participants'),
    (0, common_1.Controller)('participants'),
    (0, path_params_1.AbsentPathParameters)({ method: 'DELETE', path: '', missing: 'externalID' }),
    __metadata("design:paramtypes", [erasure_service_1.ErasureService])
], ErasureController);
//# sourceMappingURL=erasure.controller.js.map