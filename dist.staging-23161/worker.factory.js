"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createWorker = createWorker;
exports.closeWorker = closeWorker;
const bull_1 = require("@nestjs/bull");
const core_1 = require("@nestjs/core");
const nestjs_pino_1 = require("nestjs-pino");
const shutdown_state_1 = require("./common/lifecycle/shutdown-state");
const worker_module_1 = require("./worker.module");
/**
 * The worker process's application (the worker's counterpart of app.factory.ts): the queue
 * consumers and sweeps, logging through pino. It resolves once every queue's Redis clients are
 * connected and its processor is consuming. worker.ts stops it on SIGTERM (closeWorker).
 */
async function createWorker(config) {
    const app = await core_1.NestFactory.createApplicationContext(worker_module_1.WorkerModule.register(config), {
        bufferLogs: true,
    });
    app.useLogger(app.get(nestjs_pino_1.Logger));
    await app.init();
    await Promise.all(worker_module_1.WORKER_QUEUES.map((name) => app.get((0, bull_1.getQueueToken)(name)).isReady()));
    return app;
}
/**
 * Graceful stop of a worker (SIGTERM): mark it draining (/readyz 503), then close: the sweepers
 * stop, deliveries and mails in flight finish and their outcomes are written, the pools close.
 */
async function closeWorker(app) {
    app.get(shutdown_state_1.ShutdownState).draining = true;
    await app.close();
}
//# sourceMappingURL=worker.factory.js.map