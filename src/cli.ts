/**
 * Operator CLI: `npm run cli -- <command>` (nest-commander). It prepares the database like the
 * API does (create, migrate), so it works on a fresh machine. See `npm run cli -- --help`.
 */
import 'reflect-metadata';
import { CommandFactory } from 'nest-commander';
import { CliModule } from './cli/cli.module';
import { startupChecks } from './startup';

async function main(): Promise<void> {
  const config = await startupChecks({ redis: false });
  await CommandFactory.run(CliModule.register(config), {
    logger: ['error'],
    errorHandler: (error) => {
      // commander's own exits (--help, --version) are not failures.
      const code = (error as { code?: string }).code;
      if (code === 'commander.helpDisplayed' || code === 'commander.version') return;
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 1;
    },
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
});
