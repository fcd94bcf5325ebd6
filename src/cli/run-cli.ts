import { CommandFactory, CommandRunnerService } from 'nest-commander';
import type { AppConfig } from '../config/config';
import { CliModule } from './cli.module';

/**
 * Runs one command line (`argv` as `process.argv` holds it: node, script, command, options) on a
 * configuration the start-up checks have passed. What a command prints goes to stdout; an
 * operator's mistake is one line on stderr and `process.exitCode = 1` (cli-output.ts). The CLI's
 * entry point (cli.ts) calls it with the process's own argv; the tests call it in their process.
 */
export async function runCli(config: AppConfig, argv: string[]): Promise<void> {
  const app = await CommandFactory.createWithoutRunning(CliModule.register(config), {
    logger: ['error'],
    errorHandler: (error) => {
      // commander's own exits (--help, --version) are not failures.
      const code = (error as { code?: string }).code;
      if (code === 'commander.helpDisplayed' || code === 'commander.version') return;
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 1;
    },
  });
  try {
    await app.get(CommandRunnerService).run(argv);
  } finally {
    await app.close();
  }
}
