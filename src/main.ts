/**
 * The HTTP API process: validate configuration, make sure PostgreSQL (database created,
 * migrations run) and Redis are there, then serve. A failure at any of these steps is one clear
 * line on stderr and exit code 1.
 */
import 'reflect-metadata';
import { startupChecks, startupNotice } from './startup';

async function main(): Promise<void> {
  // Tracing (when configured) starts in there, before the application is loaded.
  const config = await startupChecks({ traced: 'checkin-api' });
  // The application is loaded once the checks pass: a refusal does not wait for it.
  const { Logger } = await import('@nestjs/common');
  const { createApp, drainAndClose } = await import('./app.factory.js');
  const { DemoBootstrap } = await import('./enterprises/demo-bootstrap.js');
  const app = await createApp(config, { shutdownHooks: false });
  await app.listen({ port: config.port, host: config.host });
  const logger = new Logger('Main');
  // SIGTERM (orchestrators, `kill`): drain, then close. SIGINT (Ctrl-C): close at once.
  let stopping = false;
  const stop = (signal: NodeJS.Signals, drainMs: number) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal}: draining for ${drainMs} ms, then closing`);
    drainAndClose(app, drainMs).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error(`Shutdown failed: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM', config.shutdownDrainMs));
  process.on('SIGINT', () => stop('SIGINT', 0));
  const notice = startupNotice();
  if (notice) logger.warn(notice);
  logger.log(
    `Listening on ${config.host}:${config.port} (public URL ${config.publicBaseUrl}, Swagger UI ${config.publicBaseUrl}/docs)`,
  );
  if (config.demoBootstrap) await app.get(DemoBootstrap).runOnEmptyDatabase();
}

main().catch((error: unknown) => {
  console.error(`Start-up failed: ${(error as Error).message}`);
  process.exit(1);
});
