"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.WebhookDeliveryWorkerModule = void 0;
const bull_1 = require("@nestjs/bull");
const common_1 = require("@nestjs/common");
const webhook_queue_1 = require("../webhook-queue");
const delivery_lease_repository_1 = require("./delivery-lease.repository");
const delivery_measurements_1 = require("./delivery-measurements");
const delivery_processor_1 = require("./delivery.processor");
const delivery_pump_1 = require("./delivery-pump");
const delivery_service_1 = require("./delivery.service");
const delivery_sweeper_1 = require("./delivery.sweeper");
/**
 * The webhook delivery worker: the sweeper (due deliveries in PostgreSQL → the `webhooks` queue),
 * the processor (a job wakes the pump) and the pump (leases in batches → signed HTTP POSTs on
 * keep-alive connections → outcomes in batches), and its figures (DeliveryMeasurements).
 * Imported by the worker process, and by the API process only with RUN_WORKERS=true. It serves
 * no HTTP route.
 */
let WebhookDeliveryWorkerModule = class WebhookDeliveryWorkerModule {
};
exports.WebhookDeliveryWorkerModule = WebhookDeliveryWorkerModule;
exports.WebhookDeliveryWorkerModule = WebhookDeliveryWorkerModule = __decorate([
    (0, common_1.Module)({
        imports: [bull_1.BullModule.registerQueue({ name: webhook_queue_1.WEBHOOK_QUEUE, settings: webhook_queue_1.WEBHOOK_QUEUE_SETTINGS })],
        providers: [
            delivery_lease_repository_1.DeliveryLeaseRepository,
            delivery_measurements_1.DeliveryMeasurements,
            delivery_service_1.DeliveryService,
            delivery_pump_1.DeliveryPump,
            delivery_processor_1.DeliveryProcessor,
            delivery_sweeper_1.DeliverySweeper,
        ],
    })
], WebhookDeliveryWorkerModule);
//# sourceMappingURL=delivery-worker.module.js.map