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
exports.DeliveryProcessor = void 0;
const bull_1 = require("@nestjs/bull");
const common_1 = require("@nestjs/common");
const config_module_1 = require("../../config/config.module");
const outbox_sweeper_1 = require("../../queues/outbox-sweeper");
const webhook_queue_1 = require("../webhook-queue");
const delivery_pump_1 = require("./delivery-pump");
/**
 * Runs in worker processes (and in the API process with RUN_WORKERS=true). A job says that
 * something is due: it wakes this process's DeliveryPump, which leases and sends in batches
 * (the job's own delivery among them, or already taken by another worker).
 */
let DeliveryProcessor = class DeliveryProcessor {
    pump;
    config;
    constructor(pump, config) {
        this.pump = pump;
        this.config = config;
    }
    deliver() {
        this.pump.wake();
    }
    /** Shutting down: sends in flight finish and their outcomes are written; no new leases. */
    async beforeApplicationShutdown() {
        await (0, outbox_sweeper_1.withTimeout)(this.pump.stop(), this.config.webhooks.timeoutMs + 2_000);
    }
};
exports.DeliveryProcessor = DeliveryProcessor;
__decorate([
    (0, bull_1.Process)({ name: webhook_queue_1.DELIVER_JOB, concurrency: webhook_queue_1.DELIVERY_CONCURRENCY }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], DeliveryProcessor.prototype, "deliver", null);
exports.DeliveryProcessor = DeliveryProcessor = __decorate([
    (0, bull_1.Processor)(webhook_queue_1.WEBHOOK_QUEUE),
    __param(1, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [delivery_pump_1.DeliveryPump, Object])
], DeliveryProcessor);
//# sourceMappingURL=delivery.processor.js.map