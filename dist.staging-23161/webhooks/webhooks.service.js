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
exports.WebhooksService = void 0;
const common_1 = require("@nestjs/common");
const pii_cipher_1 = require("../common/crypto/pii-cipher");
const api_error_1 = require("../common/errors/api-error");
const ids_1 = require("../common/ids");
const config_module_1 = require("../config/config.module");
const database_1 = require("../database/database");
const events_1 = require("./events/events");
const events_repository_1 = require("./events/events.repository");
const groups_errors_1 = require("../groups/groups.errors");
const groups_repository_1 = require("../groups/groups.repository");
const webhook_dto_1 = require("./dto/webhook.dto");
const webhook_url_1 = require("./webhook-url");
const webhook_signer_1 = require("./webhook-signer");
const webhooks_errors_1 = require("./webhooks.errors");
const webhooks_repository_1 = require("./webhooks.repository");
/** The old secret keeps signing (and verifying) this long after a rotation. */
const ROTATION_OVERLAP_MS = 24 * 3_600_000;
const DELIVERY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DELIVERIES_LISTED = 100;
const toDto = (endpoint) => ({
    id: endpoint.id,
    description: endpoint.description,
    object: 'webhook_endpoint',
    status: endpoint.status,
    url: endpoint.url,
    enabledEvents: endpoint.enabledEvents,
});
/** Webhook endpoints per group (docs/webhooks.md); every call is scoped by the calling enterprise. */
let WebhooksService = class WebhooksService {
    db;
    endpoints;
    groups;
    events;
    cipher;
    config;
    constructor(db, endpoints, groups, events, cipher, config) {
        this.db = db;
        this.endpoints = endpoints;
        this.groups = groups;
        this.events = events;
        this.cipher = cipher;
        this.config = config;
    }
    async list(enterpriseId, groupId) {
        await this.requireGroup(enterpriseId, groupId);
        return (await this.endpoints.listForGroup(enterpriseId, groupId)).map(toDto);
    }
    async create(enterpriseId, groupId, request) {
        this.assertUrlAllowed(request.url);
        await this.requireGroup(enterpriseId, groupId);
        const secret = (0, webhook_signer_1.newWebhookSecret)();
        const endpoint = await this.endpoints.insert({
            id: (0, ids_1.newWebhookId)(),
            enterpriseId,
            groupId,
            url: request.url,
            description: request.description,
            enabledEvents: (0, webhook_dto_1.canonicalEvents)(request.enabledEvents ?? events_1.DEFAULT_EVENTS),
            secretCiphertext: this.cipher.encrypt(secret),
        });
        return { ...toDto(endpoint), secret };
    }
    async update(enterpriseId, groupId, webhookId, changes) {
        if (changes.url !== undefined)
            this.assertUrlAllowed(changes.url);
        await this.requireGroup(enterpriseId, groupId);
        const endpoint = ids_1.WEBHOOK_ID_PATTERN.test(webhookId)
            ? await this.endpoints.update(enterpriseId, groupId, webhookId, {
                url: changes.url ?? null,
                description: changes.description ?? null,
                status: changes.status ?? null,
                enabledEvents: changes.enabledEvents ? (0, webhook_dto_1.canonicalEvents)(changes.enabledEvents) : null,
            })
            : null;
        if (!endpoint)
            throw api_error_1.ApiError.badRequest(webhooks_errors_1.WebhookErrors.NotFound);
        return toDto(endpoint);
    }
    async remove(enterpriseId, groupId, webhookId) {
        await this.requireGroup(enterpriseId, groupId);
        const deleted = ids_1.WEBHOOK_ID_PATTERN.test(webhookId) &&
            (await this.endpoints.delete(enterpriseId, groupId, webhookId));
        if (!deleted)
            throw api_error_1.ApiError.badRequest(webhooks_errors_1.WebhookErrors.NotFound);
    }
    async rotateSecret(enterpriseId, groupId, webhookId) {
        await this.requireGroup(enterpriseId, groupId);
        const secret = (0, webhook_signer_1.newWebhookSecret)();
        const endpoint = ids_1.WEBHOOK_ID_PATTERN.test(webhookId)
            ? await this.endpoints.rotateSecret(enterpriseId, groupId, webhookId, this.cipher.encrypt(secret), new Date(Date.now() + ROTATION_OVERLAP_MS))
            : null;
        if (!endpoint)
            throw api_error_1.ApiError.badRequest(webhooks_errors_1.WebhookErrors.NotFound);
        return { ...toDto(endpoint), secret };
    }
    /** Sends a `webhook.test` event to this endpoint only; answers the event id. */
    async sendTest(enterpriseId, groupId, webhookId) {
        const endpoint = await this.requireEndpoint(enterpriseId, groupId, webhookId);
        const eventId = await this.db.transaction((sql) => this.events.insertTest(enterpriseId, groupId, endpoint.id, sql));
        return { eventId };
    }
    async listDeliveries(enterpriseId, groupId, webhookId) {
        const endpoint = await this.requireEndpoint(enterpriseId, groupId, webhookId);
        const deliveries = await this.endpoints.listDeliveries(enterpriseId, endpoint.id, DELIVERIES_LISTED);
        return deliveries.map((delivery) => ({
            id: delivery.id,
            eventId: delivery.eventId,
            eventType: delivery.eventType,
            status: delivery.status,
            attempts: delivery.attempts,
            nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
            createdAt: delivery.createdAt.toISOString(),
            attemptLog: delivery.attemptLog.map((attempt) => ({
                ...attempt,
                startedAt: new Date(attempt.startedAt).toISOString(),
            })),
        }));
    }
    async redeliver(enterpriseId, groupId, webhookId, deliveryId) {
        const endpoint = await this.requireEndpoint(enterpriseId, groupId, webhookId);
        const found = DELIVERY_ID.test(deliveryId) &&
            (await this.endpoints.redeliver(enterpriseId, endpoint.id, deliveryId));
        if (!found)
            throw api_error_1.ApiError.badRequest(webhooks_errors_1.WebhookErrors.DeliveryNotFound);
    }
    /**
     * Replays the window [since, until) of the group's events to this endpoint as new deliveries
     * (docs/webhooks.md): only the types it enables, at most REPLAY_MAX_EVENTS, all or nothing. A disabled
     * endpoint is refused (409) rather than given deliveries that would be cancelled at once.
     */
    async replay(enterpriseId, groupId, webhookId, request) {
        const now = new Date();
        const since = new Date(request.since);
        const until = request.until === undefined ? now : new Date(request.until);
        if (since.getTime() > now.getTime())
            throw api_error_1.ApiError.badRequest(webhooks_errors_1.WebhookErrors.SinceInFuture);
        if (until.getTime() <= since.getTime()) {
            throw api_error_1.ApiError.badRequest(webhooks_errors_1.WebhookErrors.UntilNotAfterSince);
        }
        const endpoint = await this.requireEndpoint(enterpriseId, groupId, webhookId);
        if (endpoint.status !== 'enabled') {
            throw new api_error_1.ApiError(409, webhooks_errors_1.WebhookErrors.ReplayDisabledEndpoint);
        }
        const outcome = await this.endpoints.replay(enterpriseId, groupId, endpoint.id, { since, until }, webhooks_errors_1.REPLAY_MAX_EVENTS);
        // Disabled (or deleted) between the two statements.
        if (!outcome)
            throw new api_error_1.ApiError(409, webhooks_errors_1.WebhookErrors.ReplayDisabledEndpoint);
        if (outcome.inWindow > webhooks_errors_1.REPLAY_MAX_EVENTS) {
            throw api_error_1.ApiError.badRequest(webhooks_errors_1.WebhookErrors.ReplayTooLarge);
        }
        return { replayed: outcome.replayed };
    }
    assertUrlAllowed(url) {
        if (!(0, webhook_url_1.isAllowedWebhookUrl)(url, this.config.webhooks.allowPrivateUrls)) {
            throw api_error_1.ApiError.badRequest(webhooks_errors_1.WebhookErrors.InvalidUrl);
        }
    }
    async requireGroup(enterpriseId, groupId) {
        if (!(await this.groups.existsForEnterprise(enterpriseId, groupId))) {
            throw api_error_1.ApiError.badRequest(groups_errors_1.GroupErrors.NotFound);
        }
    }
    async requireEndpoint(enterpriseId, groupId, webhookId) {
        await this.requireGroup(enterpriseId, groupId);
        const endpoint = ids_1.WEBHOOK_ID_PATTERN.test(webhookId)
            ? await this.endpoints.find(enterpriseId, groupId, webhookId)
            : null;
        if (!endpoint)
            throw api_error_1.ApiError.badRequest(webhooks_errors_1.WebhookErrors.NotFound);
        return endpoint;
    }
};
exports.WebhooksService = WebhooksService;
exports.WebhooksService = WebhooksService = __decorate([
    (0, common_1.Injectable)(),
    __param(5, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [database_1.Database,
        webhooks_repository_1.WebhooksRepository,
        groups_repository_1.GroupsRepository,
        events_repository_1.EventsRepository,
        pii_cipher_1.PiiCipher, Object])
], WebhooksService);
//# sourceMappingURL=webhooks.service.js.map