"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
/**
 * Operator CLI: `npm run cli -- <command>` (nest-commander). It prepares the database like the
 * API does (create, migrate), so it works on a fresh machine. See `npm run cli -- --help`.
 */
require("reflect-metadata");
const startup_1 = require("./startup");
async function main() {
    const config = await (0, startup_1.startupChecks)('cli', { redis: false });
    // The commands are loaded once the checks pass: a refusal does not wait for them.
    const { runCli } = await import('./cli/run-cli.js');
    await runCli(config, process.argv);
}
main().catch((error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
});
//# sourceMappingURL=cli.js.map