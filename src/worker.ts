/**
 * A worker process (`npm run start:worker`): the queue consumers (webhook deliveries, emails) and
 * their sweepers, no HTTP. Run several next to API processes started with RUN_WORKERS=false to scale out. SIGTERM
 * lets in-flight deliveries finish (their leases would otherwise expire and be retried).
 */
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { Logger as PinoLogger } from 'nestjs-pino';
import { startupChecks, startupNotice } from './startup';
import { WORKER_QUEUES, WorkerModule } from './worker.module';

async function main(): Promise<void> {
  const config = await startupChecks();
  const app = await NestFactory.createApplicationContext(WorkerModule.register(config), {
    bufferLogs: true,
  });
  app.useLogger(app.get(PinoLogger));
  app.enableShutdownHooks();
  await app.init();
  // "Started" means every queue's Redis clients are connected and its processor is consuming.
  await Promise.all(WORKER_QUEUES.map((name) => app.get<Queue>(getQueueToken(name)).isReady()));
  const notice = startupNotice();
  if (notice) new Logger('Worker').warn(notice);
  new Logger('Worker').log(`Worker started: ${WORKER_QUEUES.join(', ')} queues`);
}

main().catch((error: unknown) => {
  console.error(`Start-up failed: ${(error as Error).message}`);
  process.exit(1);
});
