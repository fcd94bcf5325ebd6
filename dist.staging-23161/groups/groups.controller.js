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
exports.GroupsController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const platform_fastify_1 = require("@nestjs/platform-fastify");
const response_schemas_1 = require("../common/http/response-schemas");
const enterprise_decorator_1 = require("../common/auth/enterprise.decorator");
const api_errors_decorator_1 = require("../common/swagger/api-errors.decorator");
const examples_1 = require("../common/swagger/examples");
const path_params_1 = require("../common/validation/path-params");
const create_group_dto_1 = require("./dto/create-group.dto");
const group_dto_1 = require("./dto/group.dto");
const message_dto_1 = require("../common/http/message.dto");
const update_group_dto_1 = require("./dto/update-group.dto");
const groups_errors_1 = require("./groups.errors");
const groups_service_1 = require("./groups.service");
let GroupsController = class GroupsController {
    groups;
    constructor(groups) {
        this.groups = groups;
    }
    list(enterpriseId) {
        return this.groups.list(enterpriseId);
    }
    create(enterpriseId, body) {
        return this.groups.create(enterpriseId, body.groupName);
    }
    update(groupId, enterpriseId, body) {
        return this.groups.update(enterpriseId, groupId, body);
    }
    async remove(groupId, enterpriseId) {
        await this.groups.remove(enterpriseId, groupId);
        return message_dto_1.SUCCESS;
    }
    listParticipants(groupId, enterpriseId) {
        return this.groups.listParticipants(enterpriseId, groupId);
    }
};
exports.GroupsController = GroupsController;
__decorate([
    (0, common_1.Get)(),
    (0, platform_fastify_1.RouteSchema)((0, response_schemas_1.okAnswer)({ type: 'array', items: response_schemas_1.GROUP_SCHEMA })),
    (0, swagger_1.ApiOperation)({ summary: "List the enterprise's groups" }),
    (0, swagger_1.ApiOkResponse)({ type: [group_dto_1.GroupDto] }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([]),
    __param(0, (0, enterprise_decorator_1.EnterpriseId)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", Promise)
], GroupsController.prototype, "list", null);
__decorate([
    (0, common_1.Post)(),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiOperation)({ summary: 'Create a group' }),
    (0, swagger_1.ApiOkResponse)({ type: group_dto_1.GroupDto }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([
        groups_errors_1.GroupErrors.GroupNameMissing,
        groups_errors_1.GroupErrors.GroupNameNotString,
        groups_errors_1.GroupErrors.GroupNameEmpty,
        groups_errors_1.GroupErrors.GroupNameTooLong,
    ]),
    __param(0, (0, enterprise_decorator_1.EnterpriseId)()),
    __param(1, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, create_group_dto_1.CreateGroupDto]),
    __metadata("design:returntype", Promise)
], GroupsController.prototype, "create", null);
__decorate([
    (0, common_1.Put)(':groupID'),
    (0, swagger_1.ApiOperation)({ summary: 'Rename a group or change whether it requires consent' }),
    (0, swagger_1.ApiOkResponse)({ type: group_dto_1.GroupDto }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([
        groups_errors_1.GroupErrors.GroupIdMissing,
        groups_errors_1.GroupErrors.GroupIdNotNumber,
        groups_errors_1.GroupErrors.GroupNameNotString,
        groups_errors_1.GroupErrors.GroupNameEmpty,
        groups_errors_1.GroupErrors.GroupNameTooLong,
        groups_errors_1.GroupErrors.ConsentRequiredInvalid,
        groups_errors_1.GroupErrors.NotFound,
    ]),
    __param(0, (0, path_params_1.GroupIdParam)()),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __param(2, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Number, String, update_group_dto_1.UpdateGroupDto]),
    __metadata("design:returntype", Promise)
], GroupsController.prototype, "update", null);
__decorate([
    (0, common_1.Delete)(':groupID'),
    (0, swagger_1.ApiOperation)({ summary: 'Delete a group and everything that belongs to it' }),
    (0, swagger_1.ApiOkResponse)({ type: message_dto_1.MessageDto }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([
        groups_errors_1.GroupErrors.GroupIdMissing,
        groups_errors_1.GroupErrors.GroupIdNotNumber,
        groups_errors_1.GroupErrors.NotFound,
    ]),
    __param(0, (0, path_params_1.GroupIdParam)()),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Number, String]),
    __metadata("design:returntype", Promise)
], GroupsController.prototype, "remove", null);
__decorate([
    (0, common_1.Get)(':groupID/participants'),
    (0, swagger_1.ApiOperation)({ summary: "External IDs of the group's participants" }),
    (0, swagger_1.ApiOkResponse)({
        schema: { type: 'array', items: { type: 'string', example: examples_1.EXAMPLE_IDS.externalId } },
    }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([
        groups_errors_1.GroupErrors.GroupIdMissing,
        groups_errors_1.GroupErrors.GroupIdNotNumber,
        groups_errors_1.GroupErrors.NotFound,
    ]),
    __param(0, (0, path_params_1.GroupIdParam)()),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Number, String]),
    __metadata("design:returntype", Promise)
], GroupsController.prototype, "listParticipants", null);
exports.GroupsController = GroupsController = __decorate([
    (0, swagger_1.ApiTags)('Groups'),
    (0, common_1.Controller)('groups')
    // `PUT /groups/`, `DELETE /groups/` (the router ignores a trailing slash), `GET /groups//participants`.
    ,
    (0, path_params_1.AbsentPathParameters)({ method: 'PUT', path: '', missing: 'groupID' }, { method: 'DELETE', path: '', missing: 'groupID' }, { method: 'GET', path: '//participants', missing: 'groupID' }),
    __metadata("design:paramtypes", [groups_service_1.GroupsService])
], GroupsController);
//# sourceMappingURL=groups.controller.js.map