/**
 * A worker process (`npm run start:worker`): the queue consumers (webhook deliveries, emails) and
 * their sweepers, no HTTP API; its operations port serves /metrics, /livez and /readyz
 * (docs/operations.md). Run several next to API processes started with RUN_WORKERS=false to scale
 * out. SIGTERM lets in-flight deliveries and mails finish (their leases would otherwise expire and
 * be retried), logs "Stopped" and exits 0.
 */
import 'reflect-metadata';
import {
  dependencyTargets,
  onStopSignals,
  openOpsPort,
  startupChecks,
  startupNotice,
} from './startup';

/**
 * The start-up check of the data keys reads every sealed value once: in a worker's first seconds
 * it took a quarter of the delivery rate (2,585 against 3,551 deliveries/s with 115,000 sessions,
 * docs/performance.md), when a backlog is likeliest. The worker runs it this much later.
 */
const WORKER_KEY_CHECK_DELAY_MS = 60_000;

async function main(): Promise<void> {
  // Tracing (when configured) starts in there, before the application is loaded.
  const config = await startupChecks('worker');
  const ops = await openOpsPort(config, 'worker');
  // The application is loaded once the checks pass: a refusal does not wait for it.
  const { Logger } = await import('@nestjs/common');
  const { WORKER_QUEUES } = await import('./worker.module.js');
  const { closeWorker, createWorker } = await import('./worker.factory.js');
  const { SealedDataCheck } = await import('./data-at-rest/sealed-data-check.js');
  const { ProgrammeCensus } = await import('./enterprises/programme/programme-census.js');
  const app = await createWorker(config);
  if (ops) ops.serve((await import('./operations/ops-targets.js')).opsTargetsOf(app));
  const logger = new Logger('Worker');
  onStopSignals(logger, async (signal) => {
    logger.log(`${signal}: stopping; deliveries and mails in flight finish first`);
    await closeWorker(app);
    await ops?.close();
  });
  const notice = startupNotice();
  if (notice) logger.warn(notice);
  logger.log(`Using ${dependencyTargets(config)}`);
  if (ops) logger.log(`Operations port on ${ops.address}: /metrics, /livez, /readyz`);
  logger.log(`Worker started: ${WORKER_QUEUES.join(', ')} queues`);
  await app.get(ProgrammeCensus).logAtStartup();
  // Which sealed data these keys cannot open, if any (docs/data-at-rest.md): a minute after
  // start-up, so that the deliveries and mails waiting for a restarted worker go first.
  app.get(SealedDataCheck).runInBackground(WORKER_KEY_CHECK_DELAY_MS);
}

main().catch((error: unknown) => {
  console.error(`Start-up failed: ${(error as Error).message}`);
  process.exit(1);
});
