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
exports.PrivacyService = void 0;
const common_1 = require("@nestjs/common");
const api_error_1 = require("../common/errors/api-error");
const ids_1 = require("../common/ids");
const privacy_model_1 = require("../common/privacy-model");
const groups_errors_1 = require("../groups/groups.errors");
const groups_repository_1 = require("../groups/groups.repository");
const participants_errors_1 = require("../participants/participants.errors");
const participants_repository_1 = require("../participants/participants.repository");
/**
 * Privacy requests (docs/privacy.md): enterprises only ask; participants decide on the check-in and
 * settings pages. A participant's own request overrides their groups'.
 */
let PrivacyService = class PrivacyService {
    groups;
    participants;
    constructor(groups, participants) {
        this.groups = groups;
        this.participants = participants;
    }
    async requestForGroup(enterpriseId, groupId, names) {
        if (await this.groups.setRequestedPrivacy(enterpriseId, groupId, (0, privacy_model_1.canonicalNames)(names)))
            return;
        // The spec tells "exists, but not yours" apart from "does not exist" on this endpoint.
        throw api_error_1.ApiError.badRequest((await this.groups.existsAnywhere(groupId))
            ? groups_errors_1.GroupErrors.NotAssociated
            : groups_errors_1.GroupErrors.NotFound);
    }
    async requestForParticipant(enterpriseId, externalId, names) {
        const updated = ids_1.EXTERNAL_ID_PATTERN.test(externalId) &&
            (await this.participants.setRequestedPrivacy(enterpriseId, externalId, (0, privacy_model_1.canonicalNames)(names)));
        if (!updated)
            throw api_error_1.ApiError.badRequest(participants_errors_1.ParticipantErrors.NotFound);
    }
};
exports.PrivacyService = PrivacyService;
exports.PrivacyService = PrivacyService = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [groups_repository_1.GroupsRepository,
        participants_repository_1.ParticipantsRepository])
], PrivacyService);
//# sourceMappingURL=privacy.service.js.map