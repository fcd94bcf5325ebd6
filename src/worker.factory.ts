import { getQueueToken } from '@nestjs/bull';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Queue } from 'bull';
import { Logger as PinoLogger } from 'nestjs-pino';
import { ShutdownState } from './common/lifecycle/shutdown-state';
import type { AppConfig } from './config/config';
import { WORKER_QUEUES, WorkerModule } from './worker.module';

/**
 * The worker process's application (the worker's counterpart of app.factory.ts): the queue
 * consumers and sweeps, logging through pino. It resolves once every queue's Redis clients are
 * connected and its processor is consuming. worker.ts stops it on SIGTERM (closeWorker).
 */
export async function createWorker(config: AppConfig): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WorkerModule.register(config), {
    bufferLogs: true,
  });
  app.useLogger(app.get(PinoLogger));
  await app.init();
  await Promise.all(WORKER_QUEUES.map((name) => app.get<Queue>(getQueueToken(name)).isReady()));
  return app;
}

/**
 * Graceful stop of a worker (SIGTERM): mark it draining (/readyz 503), then close: the sweepers
 * stop, deliveries and mails in flight finish and their outcomes are written, the pools close.
 */
export async function closeWorker(app: INestApplicationContext): Promise<void> {
  app.get(ShutdownState).draining = true;
  await app.close();
}
