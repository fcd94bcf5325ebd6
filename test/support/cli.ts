/**
 * The operator CLI run in the test's own process: the same code as `dist/cli.js` from the checked
 * configuration on (src/cli/run-cli.ts), with what it writes to stdout and stderr and its exit code
 * captured. Loading the CLI in a fresh process costs about two seconds, so tests about a command's
 * effect and output run it here; tests about the process itself (start-up refusals, the built entry
 * point) spawn it with runToExit (processes.ts).
 */
import { runCli } from '../../src/cli/run-cli';
import { loadConfig } from '../../src/config/config';
import { withLocalSecrets } from '../../src/config/local-secrets';
import type { ProcessResult } from './processes';
import { runEnvironment } from './run-environment';

/** As a spawned CLI gets it (processes.ts): test mode, logs quiet, no drain, retention off. */
const CLI_ENV = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  SHUTDOWN_DRAIN_MS: '0',
  TRANSCRIPT_RETENTION_DAYS: '0',
};

/** Replaces a stream's write for the duration of a command; answers the function that restores it. */
function captureWrites(stream: NodeJS.WriteStream, into: (text: string) => void): () => void {
  const original = Object.getOwnPropertyDescriptor(stream, 'write');
  Object.defineProperty(stream, 'write', {
    configurable: true,
    writable: true,
    value: (chunk: string | Uint8Array) => {
      into(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
      return true;
    },
  });
  return () => {
    if (original) Object.defineProperty(stream, 'write', original);
    else delete (stream as { write?: unknown }).write;
  };
}

/** One command line (`args` as typed after `cli`), with `env` as the process environment. */
export async function cli(args: string[], env: Record<string, string>): Promise<ProcessResult> {
  const captured = { stdout: '', stderr: '' };
  const exitCode = process.exitCode;
  process.exitCode = undefined;
  const restoreStdout = captureWrites(process.stdout, (text) => (captured.stdout += text));
  const restoreStderr = captureWrites(process.stderr, (text) => (captured.stderr += text));
  let code: number;
  try {
    const config = loadConfig(withLocalSecrets({ ...runEnvironment(), ...CLI_ENV, ...env }).env);
    await runCli(config, [process.execPath, 'cli', ...args]);
    code = Number(process.exitCode ?? 0);
  } catch (error) {
    // As cli.ts: a refused configuration or a failed start is one line and exit code 1.
    captured.stderr += `${(error as Error).message}\n`;
    code = 1;
  } finally {
    restoreStdout();
    restoreStderr();
    process.exitCode = exitCode;
  }
  return { code, ...captured };
}
