/**
 * A worker process (`npm run start:worker`): the queue consumers (webhook deliveries, emails) and
 * their sweepers, no HTTP. Run several next to API processes started with RUN_WORKERS=false to scale out. SIGTERM
 * lets in-flight deliveries finish (their leases would otherwise expire and be retried).
 */
import 'reflect-metadata';
import { startupChecks, startupNotice } from './startup';

async function main(): Promise<void> {
  // Tracing (when configured) starts in there, before the application is loaded.
  const config = await startupChecks({ traced: 'checkin-worker' });
  // The application is loaded once the checks pass: a refusal does not wait for it.
  const { Logger } = await import('@nestjs/common');
  const { WORKER_QUEUES } = await import('./worker.module.js');
  const { createWorker } = await import('./worker.factory.js');
  await createWorker(config);
  const notice = startupNotice();
  if (notice) new Logger('Worker').warn(notice);
  new Logger('Worker').log(`Worker started: ${WORKER_QUEUES.join(', ')} queues`);
}

main().catch((error: unknown) => {
  console.error(`Start-up failed: ${(error as Error).message}`);
  process.exit(1);
});
