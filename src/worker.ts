/**
 * A worker process (`npm run start:worker`): webhook delivery processors and the sweeper, no
 * HTTP. Run several next to API processes started with RUN_WORKERS=false to scale out. SIGTERM
 * lets in-flight deliveries finish (their leases would otherwise expire and be retried).
 */
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { WEBHOOK_QUEUE } from './webhooks/webhook-queue';
import { Logger as PinoLogger } from 'nestjs-pino';
import { startupChecks } from './startup';
import { WorkerModule } from './worker.module';

async function main(): Promise<void> {
  const config = await startupChecks();
  const app = await NestFactory.createApplicationContext(WorkerModule.register(config), {
    bufferLogs: true,
  });
  app.useLogger(app.get(PinoLogger));
  app.enableShutdownHooks();
  await app.init();
  // "Started" means the queue's Redis clients are connected and its processor is consuming.
  await app.get<Queue>(getQueueToken(WEBHOOK_QUEUE)).isReady();
  new Logger('Worker').log('Worker started: webhook deliveries');
}

main().catch((error: unknown) => {
  console.error(`Start-up failed: ${(error as Error).message}`);
  process.exit(1);
});
