/** Runs the built entry points (dist/) as real processes, as an operator would. */
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { databaseUrl } from './databases';
import { runEnvironment, spawnMarker } from './run-environment';
import type { TestEnterprise } from './test-app';
import { POLL_INTERVAL_MS, sleep } from './webhook-receiver';

const ROOT = join(__dirname, '..', '..');

export function distEntry(name: 'main' | 'cli' | 'worker'): string {
  const file = join(ROOT, 'dist', `${name}.js`);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  return file;
}

/**
 * Settings for service processes on test database `databaseName` (a copy of the migrated
 * template), with queues of their own in the shared Redis, as startTestApp gives the in-process app.
 */
export function serviceEnv(
  databaseName: string,
  env: Record<string, string> = {},
): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl(databaseName),
    DB_MIGRATE_ON_START: 'false',
    QUEUE_PREFIX: databaseName,
    ...env,
  };
}

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Every child this worker started and has not seen exit: killed when the worker exits, whatever
 * the test did (the global teardown also ends any that a killed worker left, run-environment.ts).
 */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** Spawns `file` with `args`, tracked (above) and marked as this run's. */
export function spawnTracked(
  file: string,
  args: string[],
  options: Parameters<typeof spawn>[2] & { env: NodeJS.ProcessEnv },
): ChildProcessByStdio {
  const child = spawn(file, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
    env: { ...options.env, ...spawnMarker() },
  }) as ChildProcessByStdio;
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export type ChildProcessByStdio = ChildProcess & {
  stdout: NodeJS.ReadableStream;
  stderr: NodeJS.ReadableStream;
};

/**
 * Environment for a child: this process's PATH etc., this run's Redis database, mail folder and
 * secrets file, no inherited service settings.
 */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...runEnvironment(),
  };
  // No SIGTERM drain unless a test asks for one (test/chaos/sigterm.e2e-spec.ts).
  // Retention off: tests ingest results at fixed dates, which age (a test may set it).
  // Limits per client address off: every test talks from 127.0.0.1 (a test may set them).
  // No operations port: processes of parallel test files would all want 9464 (a test may set one).
  return {
    ...base,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    SHUTDOWN_DRAIN_MS: '0',
    TRANSCRIPT_RETENTION_DAYS: '0',
    PUBLIC_RATE_LIMIT_REQUESTS: '0',
    AUTH_FAILURE_LIMIT: '0',
    OPS_PORT: '0',
    ...env,
  };
}

/**
 * Runs `file` with `args` to its exit and answers its exit code and output; SIGKILL and a
 * rejection naming the command after `timeoutMs`. `onStdout` sees the output so far each time
 * more comes (to signal the process at a point of its run).
 */
export function runCommand(
  file: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string },
  timeoutMs = 20_000,
  onStdout: (stdout: string, child: ChildProcessByStdio) => void = () => {},
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawnTracked(file, args, options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      onStdout(stdout, child);
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `${file} ${args.join(' ')} did not exit in ${timeoutMs} ms: ${stdout}\n${stderr}`,
        ),
      );
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export function runToExit(
  entry: 'main' | 'worker' | 'cli',
  args: string[],
  env: Record<string, string>,
  timeoutMs = 20_000,
): Promise<ProcessResult> {
  return runCommand(
    process.execPath,
    [distEntry(entry), ...args],
    { env: childEnv(env) },
    timeoutMs,
  );
}

/** A new enterprise, as an operator creates one: `cli enterprises:create --json`. */
export async function createEnterpriseWithCli(
  env: Record<string, string>,
  name: string,
): Promise<TestEnterprise> {
  const result = await runToExit('cli', ['enterprises:create', '--name', name, '--json'], env);
  if (result.code !== 0)
    throw new Error(`enterprises:create exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as TestEnterprise;
}

export interface RunningProcess {
  child: ChildProcess;
  output: () => string;
  /** SIGTERM, then resolves true when the process shut down cleanly (exit 0, or by SIGTERM). */
  stop: () => Promise<boolean>;
}

/** Starts the API and resolves once `/health` answers 200. */
export async function startService(
  env: Record<string, string>,
  port: number,
  timeoutMs = 20_000,
): Promise<RunningProcess> {
  const child = spawnTracked(process.execPath, [distEntry('main')], {
    env: childEnv({ HOST: '127.0.0.1', PORT: String(port), ...env }),
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  // Both processes exit 0 after a clean stop (docs/operations.md).
  const exited = new Promise<boolean>((resolve) =>
    child.on('exit', (code, signal) => resolve(code === 0 || signal === 'SIGTERM')),
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  // Polled at the house's interval: until the port listens a poll is a refused connection, then
  // one /health request: next to nothing for the process that is starting.
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited: ${output}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health`);
      if (response.status === 200) return { child, output: () => output, stop };
    } catch {
      // not listening yet
    }
    await sleep(POLL_INTERVAL_MS);
  }
  await stop();
  throw new Error(`service did not become healthy: ${output}`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port was assigned')),
      );
    });
  });
}

/** SIGKILL, and resolves once the process is gone. */
export async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/**
 * Starts `dist/worker` and resolves once it says it is running: the process, its output, and a
 * SIGTERM that resolves true when it exited 0.
 */
export function startWorkerProcess(env: Record<string, string>): Promise<RunningProcess> {
  const worker = spawnTracked(process.execPath, [distEntry('worker')], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...runEnvironment(),
      NODE_ENV: 'test',
      OPS_PORT: '0',
      ...env,
      LOG_LEVEL: 'info',
    },
  });
  let output = '';
  const exited = new Promise<boolean>((resolve) =>
    worker.on('exit', (code) => resolve(code === 0)),
  );
  const stop = async () => {
    if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGTERM');
    return exited;
  };
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Worker started')) resolve({ child: worker, output: () => output, stop });
    };
    worker.stdout.on('data', onData);
    worker.stderr.on('data', onData);
    worker.once('exit', () => reject(new Error(`worker exited: ${output}`)));
  });
}

/** Starts `dist/worker` and resolves once it says it is running. */
export async function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  return (await startWorkerProcess(env)).child;
}
