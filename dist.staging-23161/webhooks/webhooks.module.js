"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.WebhooksModule = void 0;
const common_1 = require("@nestjs/common");
const events_module_1 = require("./events/events.module");
const groups_module_1 = require("../groups/groups.module");
const webhooks_controller_1 = require("./webhooks.controller");
const webhooks_repository_1 = require("./webhooks.repository");
const webhooks_service_1 = require("./webhooks.service");
/**
 * Webhook endpoints and their delivery log, for enterprises (HTTP). Delivery itself is the
 * worker's (delivery/delivery-worker.module.ts): the API only writes deliveries to PostgreSQL.
 */
let WebhooksModule = class WebhooksModule {
};
exports.WebhooksModule = WebhooksModule;
exports.WebhooksModule = WebhooksModule = __decorate([
    (0, common_1.Module)({
        imports: [groups_module_1.GroupsModule, events_module_1.EventsModule],
        controllers: [webhooks_controller_1.WebhooksController],
        providers: [webhooks_repository_1.WebhooksRepository, webhooks_service_1.WebhooksService],
    })
], WebhooksModule);
//# sourceMappingURL=webhooks.module.js.map