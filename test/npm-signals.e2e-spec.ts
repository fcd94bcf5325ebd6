/**
 * The npm scripts that start long-running processes hand signals to the process itself
 * (docs/operations.md, "Production"). npm forwards SIGTERM and SIGINT to the one child it started,
 * `sh -c '<script>'`. dash, the /bin/sh of Debian and of the node images, runs the script's last
 * command as a child of its own and dies of the signal at once: node runs on under PID 1, and npm
 * ends by the same signal (143 in a shell). So every such script ends in `exec node …`: the shell
 * becomes node, npm's child is the service, and SIGTERM to npm is a clean stop (the service logs
 * `Stopped` and exits 0, and npm exits 0 with it).
 *
 * Spawned processes are the subject here (npm, then the built dist/ under it); Linux only, as
 * the process tree is read from /proc. About 10 s: two service start-ups.
 */
import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDatabase, dropDatabase } from './support/databases';
import {
  childEnv,
  freePort,
  serviceEnv,
  spawnTracked,
  type ChildProcessByStdio,
} from './support/processes';
import { runDirectory } from './support/run-environment';

const ROOT = join(__dirname, '..');

interface ProcessStat {
  state: string;
  ppid: number;
}

/** /proc/<pid>/stat's state and parent, or null once the process is gone. */
function processStat(pid: number): ProcessStat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (command) state ppid …": the command may hold spaces and parentheses.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    return null;
  }
}

/** Running: not gone, and not a zombie waiting for its parent to read its exit. */
function running(pid: number): boolean {
  const stat = processStat(pid);
  return stat !== null && stat.state !== 'Z';
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Every process below `pid`: its children, theirs, and so on. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = processStat(Number(name));
    if (!stat) continue;
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), Number(name)]);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

interface NpmRun {
  npm: ChildProcessByStdio;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `npm run <script>` in `cwd`, its output collected (npm's own lines and the script's). */
function npmRun(script: string, cwd: string, env: NodeJS.ProcessEnv): NpmRun {
  const npm = spawnTracked('npm', ['run', script], { cwd, env });
  let output = '';
  npm.stdout.on('data', (chunk) => (output += chunk));
  npm.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    npm.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { npm, output: () => output, exited };
}

/** Resolves once the output holds `text`; fails when npm exits first or after `timeoutMs`. */
async function outputHolds(run: NpmRun, text: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!run.output().includes(text)) {
    if (run.npm.exitCode !== null || run.npm.signalCode !== null) {
      throw new Error(`npm exited before "${text}": ${run.output()}`);
    }
    if (Date.now() > deadline) throw new Error(`no "${text}" in ${timeoutMs} ms: ${run.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** npm's exit, or a rejection naming what is still running after `timeoutMs`. */
async function exitOf(run: NpmRun, timeoutMs = 20_000) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`npm did not exit in ${timeoutMs} ms: ${run.output()}`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([run.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `script` until `ready` is in its output, then SIGTERM to npm alone (as a supervisor or
 * `kill <pid>` sends it): answers npm's exit, the output, and which of the processes npm had
 * started (`entry` names the one of interest) still run afterwards. Kills what is left.
 */
async function stopWithSigterm(
  script: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  ready: string,
  entry: string,
) {
  const run = npmRun(script, cwd, env);
  let below: number[] = [];
  try {
    await outputHolds(run, ready);
    below = descendants(run.npm.pid as number);
    const node = below.filter(
      (pid) => /^(\S*\/)?node /.test(commandLine(pid)) && commandLine(pid).includes(entry),
    );
    expect(node).toHaveLength(1);
    run.npm.kill('SIGTERM');
    const exit = await exitOf(run);
    return {
      exit,
      output: run.output(),
      nodePid: node[0],
      leftRunning: below.filter(running).map((pid) => `${pid} ${commandLine(pid)}`),
    };
  } finally {
    if (run.npm.exitCode === null && run.npm.signalCode === null) run.npm.kill('SIGKILL');
    for (const pid of below) if (running(pid)) process.kill(pid, 'SIGKILL');
  }
}

const describeOnLinux = process.platform === 'linux' ? describe : describe.skip;
const shIsDash = process.platform === 'linux' && realpathSync('/bin/sh').endsWith('dash');
const itWhereShIsDash = shIsDash ? it : it.skip;

describeOnLinux('npm scripts hand SIGTERM to the process they start', () => {
  let databaseName: string;

  beforeAll(async () => {
    databaseName = await createTestDatabase();
  });
  afterAll(() => dropDatabase(databaseName));

  it('every script that starts a process of ours runs it with `exec`, so sh is replaced by node', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    // The last command of a script is the one sh would run as its child.
    const lastCommands = Object.entries(scripts).map(
      ([name, script]) => [name, script.split('&&').pop()!.trim()] as const,
    );
    const starting = lastCommands.filter(([, command]) =>
      /\bnode (dist\/(main|worker|cli)\b|clients\/typescript\/dist\/)/.test(command),
    );
    expect(starting.map(([name]) => name).sort()).toEqual([
      'cli',
      'cli:dev',
      'quickstart',
      'start',
      'start:prod',
      'start:worker',
      'start:worker:dev',
    ]);
    for (const [name, command] of starting) {
      expect({ name, command }).toEqual({
        name,
        command: expect.stringMatching(/^([A-Z_]+=\S+ )*exec node /) as string,
      });
    }
  });

  itWhereShIsDash(
    'npm forwards SIGTERM to its child, the shell, which dies without passing it on: only `exec` reaches node',
    async () => {
      const scratch = join(runDirectory(), `npm-signals-${process.pid}`);
      mkdirSync(scratch, { recursive: true });
      writeFileSync(
        join(scratch, 'package.json'),
        JSON.stringify({
          name: 'npm-signals',
          version: '1.0.0',
          private: true,
          scripts: { 'without-exec': 'node waits.js', 'with-exec': 'exec node waits.js' },
        }),
      );
      writeFileSync(
        join(scratch, 'waits.js'),
        "process.on('SIGTERM', () => { console.log('SIGTERM reached node'); process.exit(0); });\n" +
          "console.log('waiting');\n" +
          'setInterval(() => {}, 1000);\n',
      );
      const env = childEnv({});

      const orphaned = await stopWithSigterm('without-exec', scratch, env, 'waiting', 'waits.js');
      // npm ends itself by the signal its child died of: 143 in a shell.
      expect(orphaned.exit).toEqual({ code: null, signal: 'SIGTERM' });
      expect(orphaned.output).not.toContain('SIGTERM reached node');
      expect(orphaned.leftRunning).toEqual([`${orphaned.nodePid} node waits.js`]);

      const stopped = await stopWithSigterm('with-exec', scratch, env, 'waiting', 'waits.js');
      expect(stopped.exit).toEqual({ code: 0, signal: null });
      expect(stopped.output).toContain('SIGTERM reached node');
      expect(stopped.leftRunning).toEqual([]);
    },
  );

  it('`npm run start:worker:dev`: SIGTERM to npm stops the worker cleanly, and npm exits 0', async () => {
    const env = childEnv(serviceEnv(databaseName, { LOG_LEVEL: 'info' }));
    const result = await stopWithSigterm(
      'start:worker:dev',
      ROOT,
      env,
      'Worker started',
      'dist/worker',
    );
    expect(result.output).toContain(
      'SIGTERM: stopping; deliveries and mails in flight finish first',
    );
    expect(result.output).toContain('Stopped');
    expect(result.leftRunning).toEqual([]);
    expect(result.exit).toEqual({ code: 0, signal: null });
  });

  it('`npm run start:prod`: SIGTERM to npm drains and stops the API, and npm exits 0', async () => {
    const env = childEnv(
      serviceEnv(databaseName, {
        NODE_ENV: 'production',
        DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
        CHECKIN_TOKEN_SECRET: 't'.repeat(40),
        ENGINE_TOKEN: 'e'.repeat(40),
        PUBLIC_BASE_URL: 'https://checkin.example.com',
        TRUST_PROXY: 'none',
        OPERATOR_NAME: 'Wellbeing Services Ltd',
        PRIVACY_NOTICE_URL: 'https://wellbeing.example.com/privacy',
        EMAIL_FROM: 'Wellbeing <no-reply@wellbeing.example.com>',
        MAIL_TRANSPORT: 'file',
        HOST: '127.0.0.1',
        PORT: String(await freePort()),
        LOG_LEVEL: 'info',
      }),
    );
    const result = await stopWithSigterm('start:prod', ROOT, env, 'Start-up complete', 'dist/main');
    expect(result.output).toContain('SIGTERM: draining for 0 ms, then closing');
    expect(result.output).toContain('Stopped');
    expect(result.leftRunning).toEqual([]);
    expect(result.exit).toEqual({ code: 0, signal: null });
  });
});
