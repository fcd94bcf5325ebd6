"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var WorkerModule_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.WorkerModule = exports.WORKER_QUEUES = exports.WORKER_MODULES = exports.QUEUE_WORKER_MODULES = void 0;
const common_1 = require("@nestjs/common");
const config_1 = require("./config/config");
const shutdown_state_1 = require("./common/lifecycle/shutdown-state");
const core_module_1 = require("./core.module");
const data_keys_module_1 = require("./data-at-rest/data-keys.module");
const email_queue_1 = require("./interact/email-queue");
const email_worker_module_1 = require("./interact/sending/email-worker.module");
const bull_root_1 = require("./queues/bull-root");
const retention_worker_module_1 = require("./data-at-rest/retention-worker.module");
const metric_release_worker_module_1 = require("./metrics/windows/metric-release-worker.module");
const operations_module_1 = require("./operations/operations.module");
const delivery_worker_module_1 = require("./webhooks/delivery/delivery-worker.module");
const webhook_queue_1 = require("./webhooks/webhook-queue");
/**
 * Every queue consumer, each a module of its own (its processor and the sweeper that feeds it):
 * the worker process runs them all; the API process imports them only with RUN_WORKERS=true.
 */
exports.QUEUE_WORKER_MODULES = [delivery_worker_module_1.WebhookDeliveryWorkerModule, email_worker_module_1.EmailWorkerModule];
/**
 * Everything a worker runs: the queue consumers, and the periodic sweeps that consume no queue
 * (data at rest: transcript encryption and retention; the release of group metrics' windows).
 */
exports.WORKER_MODULES = [
    ...exports.QUEUE_WORKER_MODULES,
    retention_worker_module_1.RetentionWorkerModule,
    metric_release_worker_module_1.MetricReleaseWorkerModule,
];
/** The queues those modules consume. */
exports.WORKER_QUEUES = [webhook_queue_1.WEBHOOK_QUEUE, email_queue_1.EMAIL_QUEUE];
/**
 * The worker process: queue consumers and sweeps only, no HTTP API, no controllers, no pages;
 * its operations port (docs/operations.md) is opened by worker.ts.
 */
let WorkerModule = WorkerModule_1 = class WorkerModule {
    static register(config) {
        return {
            module: WorkerModule_1,
            imports: [
                core_module_1.CoreModule.register(config),
                shutdown_state_1.LifecycleModule,
                (0, bull_root_1.bullRoot)(config),
                ...exports.WORKER_MODULES,
                data_keys_module_1.DataKeysModule,
                ...((0, config_1.opsPortOf)(config, 'worker') !== 0 ? [operations_module_1.OperationsModule] : []),
            ],
        };
    }
};
exports.WorkerModule = WorkerModule;
exports.WorkerModule = WorkerModule = WorkerModule_1 = __decorate([
    (0, common_1.Module)({})
], WorkerModule);
//# sourceMappingURL=worker.module.js.map