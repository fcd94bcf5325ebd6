/**
 * The HTTP API process: validate configuration, make sure PostgreSQL (database created,
 * migrations run) and Redis are there, then serve. A failure at any of these steps is one clear
 * line on stderr and exit code 1.
 */
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { DemoBootstrap } from './enterprises/demo-bootstrap';
import { startupChecks } from './startup';

async function main(): Promise<void> {
  const config = await startupChecks();
  const app = await createApp(config);
  await app.listen({ port: config.port, host: config.host });
  const logger = new Logger('Main');
  if (config.developmentSecrets.length > 0) {
    logger.warn(
      `Using public development defaults for ${config.developmentSecrets.join(', ')}: set them before handling real data`,
    );
  }
  logger.log(
    `Listening on ${config.host}:${config.port} (public URL ${config.publicBaseUrl}, Swagger UI ${config.publicBaseUrl}/docs)`,
  );
  if (config.demoBootstrap) await app.get(DemoBootstrap).runOnEmptyDatabase();
}

main().catch((error: unknown) => {
  console.error(`Start-up failed: ${(error as Error).message}`);
  process.exit(1);
});
