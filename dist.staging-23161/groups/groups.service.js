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
exports.GroupsService = exports.toGroupDto = void 0;
const common_1 = require("@nestjs/common");
const api_error_1 = require("../common/errors/api-error");
const ids_1 = require("../common/ids");
const groups_errors_1 = require("./groups.errors");
const groups_repository_1 = require("./groups.repository");
/** Unique-violation retries when a freshly drawn key or invite code collides (astronomically rare). */
const INSERT_ATTEMPTS = 3;
const toGroupDto = (group) => ({
    groupID: group.groupId,
    groupName: group.name,
    requestedPrivacyLevel: group.requestedPrivacy,
    inviteCode: group.inviteCode,
    key: group.key,
    consentRequired: group.consentRequired ? 'true' : 'false',
    credits: group.credits,
});
exports.toGroupDto = toGroupDto;
let GroupsService = class GroupsService {
    groups;
    constructor(groups) {
        this.groups = groups;
    }
    async list(enterpriseId) {
        return (await this.groups.listForEnterprise(enterpriseId)).map(exports.toGroupDto);
    }
    async create(enterpriseId, groupName) {
        for (let attempt = 1;; attempt++) {
            try {
                const group = await this.groups.insertForEnterprise(enterpriseId, {
                    name: groupName,
                    key: (0, ids_1.newGroupKey)(),
                    inviteCode: (0, ids_1.newInviteCode)(),
                });
                return (0, exports.toGroupDto)(group);
            }
            catch (error) {
                const isUniqueViolation = error.code === '23505';
                if (!isUniqueViolation || attempt >= INSERT_ATTEMPTS)
                    throw error;
            }
        }
    }
    async update(enterpriseId, groupId, changes) {
        const group = await this.groups.updateForEnterprise(enterpriseId, groupId, {
            name: changes.groupName ?? null,
            consentRequired: changes.consentRequired === undefined ? null : changes.consentRequired === 'true',
        });
        if (!group)
            throw api_error_1.ApiError.badRequest(groups_errors_1.GroupErrors.NotFound);
        return (0, exports.toGroupDto)(group);
    }
    async remove(enterpriseId, groupId) {
        const deleted = await this.groups.deleteForEnterprise(enterpriseId, groupId);
        if (!deleted)
            throw api_error_1.ApiError.badRequest(groups_errors_1.GroupErrors.NotFound);
    }
    /** External IDs of the group's participants, in the order they joined. */
    async listParticipants(enterpriseId, groupId) {
        if (!(await this.groups.existsForEnterprise(enterpriseId, groupId))) {
            throw api_error_1.ApiError.badRequest(groups_errors_1.GroupErrors.NotFound);
        }
        return this.groups.listParticipantExternalIds(enterpriseId, groupId);
    }
};
exports.GroupsService = GroupsService;
exports.GroupsService = GroupsService = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [groups_repository_1.GroupsRepository])
], GroupsService);
//# sourceMappingURL=groups.service.js.map