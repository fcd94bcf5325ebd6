"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runCli = runCli;
const nest_commander_1 = require("nest-commander");
const cli_module_1 = require("./cli.module");
/**
 * Runs one command line (`argv` as `process.argv` holds it: node, script, command, options) on a
 * configuration the start-up checks have passed. What a command prints goes to stdout; an
 * operator's mistake is one line on stderr and `process.exitCode = 1` (cli-output.ts). The CLI's
 * entry point (cli.ts) calls it with the process's own argv; the tests call it in their process.
 */
async function runCli(config, argv) {
    const app = await nest_commander_1.CommandFactory.createWithoutRunning(cli_module_1.CliModule.register(config), {
        logger: ['error'],
        errorHandler: (error) => {
            // commander's own exits (--help, --version) are not failures.
            const code = error.code;
            if (code === 'commander.helpDisplayed' || code === 'commander.version')
                return;
            process.stderr.write(`${error.message}\n`);
            process.exitCode = 1;
        },
    });
    try {
        await app.get(nest_commander_1.CommandRunnerService).run(argv);
    }
    finally {
        await app.close();
    }
}
//# sourceMappingURL=run-cli.js.map