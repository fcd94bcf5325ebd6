/**
 * Operator CLI: `npm run cli -- <command>` (nest-commander). It prepares the database like the
 * API does (create, migrate), so it works on a fresh machine. See `npm run cli -- --help`.
 */
import 'reflect-metadata';
import { startupChecks } from './startup';

async function main(): Promise<void> {
  const config = await startupChecks('cli', { redis: false });
  // The commands are loaded once the checks pass: a refusal does not wait for them.
  const { runCli } = await import('./cli/run-cli.js');
  await runCli(config, process.argv);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
});
