/**
 * The HTTP API process: validate configuration, make sure PostgreSQL (database created,
 * migrations run) and Redis are there, open the operations port, then serve. A failure at any of
 * these steps is one clear line on stderr and exit code 1. SIGTERM drains, closes, logs
 * "Stopped" and exits 0 (docs/operations.md).
 */
import 'reflect-metadata';
import {
  dependencyTargets,
  onStopSignals,
  openOpsPort,
  startupChecks,
  startupNotice,
} from './startup';

async function main(): Promise<void> {
  // Tracing (when configured) starts in there, before the application is loaded.
  const config = await startupChecks('api');
  const ops = await openOpsPort(config, 'api');
  // The application is loaded once the checks pass: a refusal does not wait for it.
  const { Logger } = await import('@nestjs/common');
  const { createApp, drainAndClose } = await import('./app.factory.js');
  const { DemoBootstrap } = await import('./enterprises/demo-bootstrap.js');
  const { SealedDataCheck } = await import('./data-at-rest/sealed-data-check.js');
  const { ProgrammeCensus } = await import('./enterprises/programme/programme-census.js');
  const app = await createApp(config, { shutdownHooks: false });
  await app.listen({ port: config.port, host: config.host });
  if (ops) ops.serve((await import('./operations/ops-targets.js')).opsTargetsOf(app));
  const logger = new Logger('Main');
  // SIGTERM: drain, then close. SIGINT (Ctrl-C): close at once.
  onStopSignals(logger, async (signal) => {
    const drainMs = signal === 'SIGTERM' ? config.shutdownDrainMs : 0;
    logger.log(`${signal}: draining for ${drainMs} ms, then closing`);
    await drainAndClose(app, drainMs);
    await ops?.close();
  });
  const notice = startupNotice();
  if (notice) logger.warn(notice);
  logger.log(`Using ${dependencyTargets(config)}`);
  if (ops) logger.log(`Operations port on ${ops.address}: /metrics, /livez, /readyz`);
  logger.log(
    `Listening on ${config.host}:${config.port} (public URL ${config.publicBaseUrl}, Swagger UI ${config.publicBaseUrl}/docs)`,
  );
  if (config.demoBootstrap) await app.get(DemoBootstrap).runOnEmptyDatabase();
  await app.get(ProgrammeCensus).logAtStartup();
  // The last start-up step is done (the demo bootstrap included): what a test or a supervisor
  // can wait for.
  logger.log('Start-up complete');
  // Which sealed data these keys cannot open, if any (docs/data-at-rest.md), without delaying.
  app.get(SealedDataCheck).runInBackground();
}

main().catch((error: unknown) => {
  console.error(`Start-up failed: ${(error as Error).message}`);
  process.exit(1);
});
