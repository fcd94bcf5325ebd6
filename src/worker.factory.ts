import { getQueueToken } from '@nestjs/bull';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Queue } from 'bull';
import { Logger as PinoLogger } from 'nestjs-pino';
import type { AppConfig } from './config/config';
import { WORKER_QUEUES, WorkerModule } from './worker.module';

/**
 * The worker process's application (the worker's counterpart of app.factory.ts): the queue
 * consumers and sweeps, logging through pino, stopped by SIGTERM. It resolves once every queue's
 * Redis clients are connected and its processor is consuming.
 */
export async function createWorker(config: AppConfig): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WorkerModule.register(config), {
    bufferLogs: true,
  });
  app.useLogger(app.get(PinoLogger));
  app.enableShutdownHooks();
  await app.init();
  await Promise.all(WORKER_QUEUES.map((name) => app.get<Queue>(getQueueToken(name)).isReady()));
  return app;
}
