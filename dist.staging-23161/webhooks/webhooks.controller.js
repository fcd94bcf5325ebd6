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
exports.WebhooksController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const enterprise_decorator_1 = require("../common/auth/enterprise.decorator");
const message_dto_1 = require("../common/http/message.dto");
const api_errors_decorator_1 = require("../common/swagger/api-errors.decorator");
const examples_1 = require("../common/swagger/examples");
const path_params_1 = require("../common/validation/path-params");
const groups_errors_1 = require("../groups/groups.errors");
const webhook_dto_1 = require("./dto/webhook.dto");
const events_1 = require("./events/events");
const webhooks_errors_1 = require("./webhooks.errors");
const webhooks_service_1 = require("./webhooks.service");
const GROUP_PATH_ERRORS = [groups_errors_1.GroupErrors.GroupIdMissing, groups_errors_1.GroupErrors.GroupIdNotNumber];
const ENDPOINT_PATH_ERRORS = [...GROUP_PATH_ERRORS, webhooks_errors_1.WebhookErrors.WebhookIdMissing];
let WebhooksController = class WebhooksController {
    webhooks;
    constructor(webhooks) {
        this.webhooks = webhooks;
    }
    list(groupId, enterpriseId) {
        return this.webhooks.list(enterpriseId, groupId);
    }
    create(groupId, enterpriseId, body) {
        return this.webhooks.create(enterpriseId, groupId, body);
    }
    update(groupId, webhookId, enterpriseId, body) {
        return this.webhooks.update(enterpriseId, groupId, webhookId, body);
    }
    async remove(groupId, webhookId, enterpriseId) {
        await this.webhooks.remove(enterpriseId, groupId, webhookId);
        return message_dto_1.SUCCESS;
    }
    rotateSecret(groupId, webhookId, enterpriseId) {
        return this.webhooks.rotateSecret(enterpriseId, groupId, webhookId);
    }
    sendTest(groupId, webhookId, enterpriseId) {
        return this.webhooks.sendTest(enterpriseId, groupId, webhookId);
    }
    listDeliveries(groupId, webhookId, enterpriseId) {
        return this.webhooks.listDeliveries(enterpriseId, groupId, webhookId);
    }
    async redeliver(groupId, webhookId, deliveryId, enterpriseId) {
        await this.webhooks.redeliver(enterpriseId, groupId, webhookId, deliveryId);
        return message_dto_1.SUCCESS;
    }
    replay(groupId, webhookId, enterpriseId, body) {
        return this.webhooks.replay(enterpriseId, groupId, webhookId, body);
    }
};
exports.WebhooksController = WebhooksController;
__decorate([
    (0, common_1.Get)(':groupID'),
    (0, swagger_1.ApiOperation)({ summary: "The group's webhook endpoints" }),
    (0, swagger_1.ApiOkResponse)({ type: [webhook_dto_1.WebhookDto] }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([...GROUP_PATH_ERRORS, groups_errors_1.GroupErrors.NotFound]),
    __param(0, (0, path_params_1.GroupIdParam)()),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Number, String]),
    __metadata("design:returntype", Promise)
], WebhooksController.prototype, "list", null);
__decorate([
    (0, common_1.Post)(':groupID'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiOperation)({
        summary: 'Add a webhook endpoint to a group',
        description: 'New endpoints are `enabled` and receive the event types of `enabledEvents`: by default ' +
            `${(0, webhook_dto_1.codeProse)(events_1.DEFAULT_EVENTS)}; ${(0, webhook_dto_1.codeProse)(events_1.OPT_IN_EVENTS)} on request. ` +
            'The answer includes the signing `secret` (Standard Webhooks), shown only here and ' +
            'on rotation.',
    }),
    (0, swagger_1.ApiOkResponse)({ type: webhook_dto_1.WebhookWithSecretDto }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([
        ...GROUP_PATH_ERRORS,
        webhooks_errors_1.WebhookErrors.UrlMissing,
        webhooks_errors_1.WebhookErrors.UrlNotString,
        webhooks_errors_1.WebhookErrors.InvalidUrl,
        webhooks_errors_1.WebhookErrors.DescriptionMissing,
        webhooks_errors_1.WebhookErrors.DescriptionNotString,
        webhooks_errors_1.WebhookErrors.DescriptionTooLong,
        webhooks_errors_1.WebhookErrors.EnabledEventsInvalid,
        groups_errors_1.GroupErrors.NotFound,
    ]),
    __param(0, (0, path_params_1.GroupIdParam)()),
    __param(1, (0, enterprise_decorator_1.EnterpriseId)()),
    __param(2, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Number, String, webhook_dto_1.CreateWebhookDto]),
    __metadata("design:returntype", Promise)
], WebhooksController.prototype, "create", null);
__decorate([
    (0, common_1.Put)(':groupID/:webhookID'),
    (0, swagger_1.ApiOperation)({
        summary: "Change an endpoint's url, description, status or enabled events",
        description: 'Fields left out stay as they are.',
    }),
    (0, swagger_1.ApiOkResponse)({ type: webhook_dto_1.WebhookDto }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([
        ...ENDPOINT_PATH_ERRORS,
        webhooks_errors_1.WebhookErrors.UrlNotString,
        webhooks_errors_1.WebhookErrors.InvalidUrl,
        webhooks_errors_1.WebhookErrors.DescriptionNotString,
        webhooks_errors_1.WebhookErrors.DescriptionTooLong,
        webhooks_errors_1.WebhookErrors.StatusInvalid,
        webhooks_errors_1.WebhookErrors.EnabledEventsInvalid,
        groups_errors_1.GroupErrors.NotFound,
        webhooks_errors_1.WebhookErrors.NotFound,
    ]),
    __param(0, (0, path_params_1.GroupIdParam)()),
    __param(1, (0, common_1.Param)('webhookID')),
    __param(2, (0, enterprise_decorator_1.EnterpriseId)()),
    __param(3, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Number, String, String, webhook_dto_1.UpdateWebhookDto]),
    __metadata("design:returntype", Promise)
], WebhooksController.prototype, "update", null);
__decorate([
    (0, common_1.Delete)(':groupID/:webhookID'),
    (0, swagger_1.ApiOperation)({ summary: 'Delete an endpoint (its pending deliveries stop)' }),
    (0, swagger_1.ApiOkResponse)({ type: message_dto_1.MessageDto }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([...ENDPOINT_PATH_ERRORS, groups_errors_1.GroupErrors.NotFound, webhooks_errors_1.WebhookErrors.NotFound]),
    __param(0, (0, path_params_1.GroupIdParam)()),
    __param(1, (0, common_1.Param)('webhookID')),
    __param(2, (0, enterprise_decorator_1.EnterpriseId)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Number, String, String]),
    __metadata("design:returntype", Promise)
], WebhooksController.prototype, "remove", null);
__decorate([
    (0, common_1.Post)(':groupID/:webhookID/rotate-secret'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiOperation)({
        summary: 'Issue a new signing secret; the old one keeps signing for 24 h',
    }),
    (0, swagger_1.ApiOkResponse)({ type: webhook_dto_1.WebhookWithSecretDto }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([...ENDPOINT_PATH_ERRORS, groups_errors_1.GroupErrors.NotFound, webhooks_errors_1.WebhookErrors.NotFound]),
    __param(0, (0, path_params_1.GroupIdParam)()),
    __param(1, (0, common_1.Param)('webhookID')),
    __param(2, (0, enterprise_decorator_1.EnterpriseId)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Number, String, String]),
    __metadata("design:returntype", Promise)
], WebhooksController.prototype, "rotateSecret", null);
__decorate([
    (0, common_1.Post)(':groupID/:webhookID/test'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiOperation)({ summary: 'Send a `webhook.test` event to this endpoint' }),
    (0, swagger_1.ApiOkResponse)({
        schema: {
            type: 'object',
            properties: { eventId: { type: 'string', example: examples_1.EXAMPLE_IDS.eventId } },
        },
    }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([...ENDPOINT_PATH_ERRORS, groups_errors_1.GroupErrors.NotFound, webhooks_errors_1.WebhookErrors.NotFound]),
    __param(0, (0, path_params_1.GroupIdParam)()),
    __param(1, (0, common_1.Param)('webhookID')),
    __param(2, (0, enterprise_decorator_1.EnterpriseId)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Number, String, String]),
    __metadata("design:returntype", Promise)
], WebhooksController.prototype, "sendTest", null);
__decorate([
    (0, common_1.Get)(':groupID/:webhookID/deliveries'),
    (0, swagger_1.ApiOperation)({ summary: "The endpoint's last 100 deliveries, newest first, with every attempt" }),
    (0, swagger_1.ApiOkResponse)({ type: [webhook_dto_1.DeliveryDto] }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([...ENDPOINT_PATH_ERRORS, groups_errors_1.GroupErrors.NotFound, webhooks_errors_1.WebhookErrors.NotFound]),
    __param(0, (0, path_params_1.GroupIdParam)()),
    __param(1, (0, common_1.Param)('webhookID')),
    __param(2, (0, enterprise_decorator_1.EnterpriseId)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Number, String, String]),
    __metadata("design:returntype", Promise)
], WebhooksController.prototype, "listDeliveries", null);
__decorate([
    (0, common_1.Post)(':groupID/:webhookID/deliveries/:deliveryID/redeliver'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiOperation)({ summary: 'Attempt a delivery again now' }),
    (0, swagger_1.ApiOkResponse)({ type: message_dto_1.MessageDto }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([
        ...ENDPOINT_PATH_ERRORS,
        groups_errors_1.GroupErrors.NotFound,
        webhooks_errors_1.WebhookErrors.NotFound,
        webhooks_errors_1.WebhookErrors.DeliveryNotFound,
    ]),
    __param(0, (0, path_params_1.GroupIdParam)()),
    __param(1, (0, common_1.Param)('webhookID')),
    __param(2, (0, common_1.Param)('deliveryID')),
    __param(3, (0, enterprise_decorator_1.EnterpriseId)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Number, String, String, String]),
    __metadata("design:returntype", Promise)
], WebhooksController.prototype, "redeliver", null);
__decorate([
    (0, common_1.Post)(':groupID/:webhookID/replay'),
    (0, common_1.HttpCode)(200),
    (0, swagger_1.ApiOperation)({
        summary: 'Send the events of a time window to this endpoint again',
        description: 'Every event of the group created in [`since`, `until`) whose type the endpoint enables ' +
            'becomes a new delivery to this endpoint (same envelope and event id, so `webhook-id` is ' +
            'unchanged; personal data already cleared by retention is sent as `null`). At most ' +
            `${webhooks_errors_1.REPLAY_MAX_EVENTS} events per call: a larger window is refused and nothing is created. ` +
            'A disabled endpoint is refused with 409.',
    }),
    (0, swagger_1.ApiOkResponse)({ type: webhook_dto_1.ReplayResultDto }),
    (0, api_errors_decorator_1.ApiEndpointErrors)([
        ...ENDPOINT_PATH_ERRORS,
        webhooks_errors_1.WebhookErrors.SinceMissing,
        webhooks_errors_1.WebhookErrors.SinceNotString,
        webhooks_errors_1.WebhookErrors.SinceInvalid,
        webhooks_errors_1.WebhookErrors.UntilNotString,
        webhooks_errors_1.WebhookErrors.UntilInvalid,
        webhooks_errors_1.WebhookErrors.SinceInFuture,
        webhooks_errors_1.WebhookErrors.UntilNotAfterSince,
        groups_errors_1.GroupErrors.NotFound,
        webhooks_errors_1.WebhookErrors.NotFound,
        webhooks_errors_1.WebhookErrors.ReplayTooLarge,
    ]),
    (0, api_errors_decorator_1.ApiErrorResponse)(409, 'The endpoint is disabled; nothing was created.', [
        webhooks_errors_1.WebhookErrors.ReplayDisabledEndpoint,
    ]),
    __param(0, (0, path_params_1.GroupIdParam)()),
    __param(1, (0, common_1.Param)('webhookID')),
    __param(2, (0, enterprise_decorator_1.EnterpriseId)()),
    __param(3, (0, common_1.Body)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Number, String, String, webhook_dto_1.ReplayWebhookDto]),
    __metadata("design:returntype", Promise)
], WebhooksController.prototype, "replay", null);
exports.WebhooksController = WebhooksController = __decorate([
    (0, swagger_1.ApiTags)('Webhooks'),
    (0, common_1.Controller)('webhooks')
    // `GET|POST /webhooks/`, `PUT|DELETE /webhooks/12/` (the router ignores the trailing slash; the
    // groupID present is checked first) and `PUT|DELETE /webhooks//we_…`.
    ,
    (0, path_params_1.AbsentPathParameters)({ method: 'GET', path: '', missing: 'groupID' }, { method: 'POST', path: '', missing: 'groupID' }, { method: 'PUT', path: ':groupID', missing: 'webhookID', checkFirst: [['groupID', path_params_1.GroupIdPipe]] }, {
        method: 'DELETE',
        path: ':groupID',
        missing: 'webhookID',
        checkFirst: [['groupID', path_params_1.GroupIdPipe]],
    }, { method: 'PUT', path: '//:webhookID', missing: 'groupID' }, { method: 'DELETE', path: '//:webhookID', missing: 'groupID' }),
    __metadata("design:paramtypes", [webhooks_service_1.WebhooksService])
], WebhooksController);
//# sourceMappingURL=webhooks.controller.js.map