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
exports.InteractService = void 0;
const common_1 = require("@nestjs/common");
const api_error_1 = require("../common/errors/api-error");
const ids_1 = require("../common/ids");
const config_module_1 = require("../config/config.module");
const groups_errors_1 = require("../groups/groups.errors");
const groups_repository_1 = require("../groups/groups.repository");
const participants_errors_1 = require("../participants/participants.errors");
const interact_repository_1 = require("./interact.repository");
/** Email requests (docs/emails.md): validate, queue in PostgreSQL, answer at once. */
let InteractService = class InteractService {
    repository;
    groups;
    config;
    constructor(repository, groups, config) {
        this.repository = repository;
        this.groups = groups;
        this.config = config;
    }
    async emailGroup(enterpriseId, groupId, type) {
        if (!(await this.groups.existsForEnterprise(enterpriseId, groupId))) {
            throw api_error_1.ApiError.badRequest((await this.groups.existsAnywhere(groupId))
                ? groups_errors_1.GroupErrors.NotAssociated
                : groups_errors_1.GroupErrors.NotFound);
        }
        return this.repository.queueForGroup(enterpriseId, groupId, type, this.config.email.dedupWindowMs);
    }
    async emailParticipant(enterpriseId, externalId, type) {
        const queued = ids_1.EXTERNAL_ID_PATTERN.test(externalId)
            ? await this.repository.queueForParticipant(enterpriseId, externalId, type, this.config.email.dedupWindowMs)
            : null;
        if (queued === null)
            throw api_error_1.ApiError.badRequest(participants_errors_1.ParticipantErrors.NotFound);
        return queued;
    }
};
exports.InteractService = InteractService;
exports.InteractService = InteractService = __decorate([
    (0, common_1.Injectable)(),
    __param(2, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [interact_repository_1.InteractRepository,
        groups_repository_1.GroupsRepository, Object])
], InteractService);
//# sourceMappingURL=interact.service.js.map