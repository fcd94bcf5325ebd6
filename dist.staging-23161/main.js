"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
/**
 * The HTTP API process: validate configuration, make sure PostgreSQL (database created,
 * migrations run) and Redis are there, open the operations port, then serve. A failure at any of
 * these steps is one clear line on stderr and exit code 1. SIGTERM drains, closes, logs
 * "Stopped" and exits 0 (docs/operations.md).
 */
require("reflect-metadata");
const startup_1 = require("./startup");
async function main() {
    // Tracing (when configured) starts in there, before the application is loaded.
    const config = await (0, startup_1.startupChecks)('api');
    const ops = await (0, startup_1.openOpsPort)(config, 'api');
    // The application is loaded once the checks pass: a refusal does not wait for it.
    const { Logger } = await import('@nestjs/common');
    const { createApp, drainAndClose } = await import('./app.factory.js');
    const { DemoBootstrap } = await import('./enterprises/demo-bootstrap.js');
    const { SealedDataCheck } = await import('./data-at-rest/sealed-data-check.js');
    const app = await createApp(config, { shutdownHooks: false });
    await app.listen({ port: config.port, host: config.host });
    if (ops)
        ops.serve((await import('./operations/ops-targets.js')).opsTargetsOf(app));
    const logger = new Logger('Main');
    // SIGTERM: drain, then close. SIGINT (Ctrl-C): close at once.
    (0, startup_1.onStopSignals)(logger, async (signal) => {
        const drainMs = signal === 'SIGTERM' ? config.shutdownDrainMs : 0;
        logger.log(`${signal}: draining for ${drainMs} ms, then closing`);
        await drainAndClose(app, drainMs);
        await ops?.close();
    });
    const notice = (0, startup_1.startupNotice)();
    if (notice)
        logger.warn(notice);
    logger.log(`Using ${(0, startup_1.dependencyTargets)(config)}`);
    if (ops)
        logger.log(`Operations port on ${ops.address}: /metrics, /livez, /readyz`);
    logger.log(`Listening on ${config.host}:${config.port} (public URL ${config.publicBaseUrl}, Swagger UI ${config.publicBaseUrl}/docs)`);
    if (config.demoBootstrap)
        await app.get(DemoBootstrap).runOnEmptyDatabase();
    // The last start-up step is done (the demo bootstrap included): what a test or a supervisor
    // can wait for.
    logger.log('Start-up complete');
    // Which sealed data these keys cannot open, if any (docs/data-at-rest.md), without delaying.
    app.get(SealedDataCheck).runInBackground();
}
main().catch((error) => {
    console.error(`Start-up failed: ${error.message}`);
    process.exit(1);
});
//# sourceMappingURL=main.js.map