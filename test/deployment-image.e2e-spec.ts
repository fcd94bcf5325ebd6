/**
 * The production container image and the compose example (docs/operations.md, "Container
 * image"), checked where no Docker daemon runs (this machine, CI) as far as that allows:
 *
 * - The Dockerfile: linted by dockerfile-utils (the validator of VS Code's Docker support), then
 *   held to the decisions the docs give: built once in a build stage; a final stage with
 *   production dependencies only, tini as PID 1, node run directly (not npm), a user that is not
 *   root; the Node.js line package.json's engines start at. Its .dockerignore lets in what the
 *   stages copy and keeps secrets and old builds out.
 * - compose.production.yml: two API processes and a worker from the image, health checks on
 *   /readyz, PostgreSQL 15, Redis with AOF and noeviction, stop grace periods that cover the drain,
 *   and deploy/production.env.example giving a valid production configuration once filled in.
 * - The final stage, laid out here as the Dockerfile says (its COPY lines, and for its
 *   `npm ci --omit=dev --omit=optional` the packages npm would install, hard-linked from node_modules),
 *   then run: the API and the worker start from dist/ with production settings, pass the
 *   compose health checks and exit 0 on SIGTERM; the CLI and the one-shot migration work. A
 *   package the service needs at run time but declared as a devDependency fails here.
 * - Where `docker info` succeeds, the image itself is built and run against the test database.
 *   Elsewhere that part is skipped with a message.
 *
 * About 15 s without Docker (processes are the subject); with Docker, a build of some minutes.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, posix } from 'node:path';
import { DockerfileParser, type Copy, type Env, type Instruction } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { load } from 'js-yaml';
import { minimatch } from 'minimatch';
import { Client } from 'pg';
import { minVersion } from 'semver';
import {
  CONFIG_VARIABLES,
  ConfigError,
  loadConfig,
  OPS_PORT_DEFAULTS,
  randomSecrets,
  REQUIRED_SECRETS,
  VARIABLES,
} from '../src/config/config';
import {
  ADMIN_DATABASE_URL,
  createTestDatabase,
  databaseUrl,
  dropDatabase,
  testDatabasePrefix,
  withAdmin,
} from './support/databases';
import { match } from './support/matchers';
import {
  childEnv,
  freePort,
  runCommand,
  spawnTracked,
  type ChildProcessByStdio,
} from './support/processes';
import { runDirectory, spawnMarker, TEST_REDIS_URL } from './support/run-environment';

const ROOT = join(__dirname, '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

// ---------------------------------------------------------------------------------------------
// The Dockerfile, by stage.

interface Stage {
  name: string | null;
  image: string;
  instructions: Instruction[];
}

/** The global ARGs' defaults, then each stage (FROM … [AS name]) with its instructions. */
function stagesOf(content: string): { args: Record<string, string>; stages: Stage[] } {
  const dockerfile = DockerfileParser.parse(content);
  const args = Object.fromEntries(
    dockerfile.getInitialARGs().flatMap((arg) => {
      const property = arg.getProperty();
      return property ? [[property.getName(), property.getValue() ?? '']] : [];
    }),
  );
  const stages: Stage[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction.getKeyword() === 'FROM') {
      const [image, as, name] = instruction.getArguments().map((argument) => argument.getValue());
      stages.push({
        image: image.replace(/\$\{(\w+)\}/g, (_, variable: string) => args[variable] ?? ''),
        name: as?.toUpperCase() === 'AS' ? name : null,
        instructions: [],
      });
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push(instruction);
    }
  }
  return { args, stages };
}

const keyword = (stage: Stage, name: string) =>
  stage.instructions.filter((instruction) => instruction.getKeyword() === name);
const runs = (stage: Stage) =>
  keyword(stage, 'RUN').map((instruction) => instruction.getArgumentsContent() ?? '');
/** An instruction's exec form (`["node", "dist/main.js"]`), or null for the shell form. */
function execForm(instruction: Instruction): string[] | null {
  const text = (instruction.getArgumentsContent() ?? '').trim();
  return text.startsWith('[') ? (JSON.parse(text) as string[]) : null;
}
/** A COPY's flag (`--from=build`): its value, or null. */
const flagOf = (copy: Instruction, name: string): string | null =>
  (copy as Copy)
    .getFlags()
    .find((flag) => flag.getName() === name)
    ?.getValue() ?? null;
/** A COPY's sources and destination, as written (flags are not arguments). */
const copyPaths = (copy: Instruction) => copy.getArguments().map((argument) => argument.getValue());
const workdirOf = (stage: Stage) =>
  keyword(stage, 'WORKDIR').at(-1)?.getArgumentsContent()?.trim() ?? '/';

const DOCKERFILE = read('Dockerfile');
const { args: DOCKERFILE_ARGS, stages: STAGES } = stagesOf(DOCKERFILE);
const FINAL = STAGES[STAGES.length - 1];
const stageNamed = (name: string) => STAGES.find((stage) => stage.name === name);

/**
 * Whether `.dockerignore` lets `file` into the build context: its patterns in order, the last
 * one matching the file or a folder above it deciding, `!` letting back in (as BuildKit reads it).
 */
function inBuildContext(file: string, patterns: string[]): boolean {
  const parts = file.split('/');
  const paths = parts.map((_, index) => parts.slice(0, index + 1).join('/'));
  let included = true;
  for (const line of patterns) {
    const negated = line.startsWith('!');
    const pattern = posix.normalize(negated ? line.slice(1) : line).replace(/^\/+/, '');
    if (paths.some((path) => minimatch(path, pattern, { dot: true }))) included = negated;
  }
  return included;
}

// ---------------------------------------------------------------------------------------------
// compose.production.yml and its environment file.

interface ComposeService {
  image?: string;
  read_only?: boolean;
  tmpfs?: string[];
  mem_limit?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  env_file?: string | string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  stop_grace_period?: string;
  ports?: string[];
  restart?: string;
  volumes?: string[];
}

const COMPOSE = load(read('compose.production.yml')) as {
  services: Record<string, ComposeService>;
};
const ENV_EXAMPLE = 'deploy/production.env.example';
/** compose's own settings in the env file: PostgreSQL's superuser and the two roles (init-roles.sh). */
const DATABASE_PASSWORDS = ['POSTGRES_PASSWORD', 'CHECKIN_OWNER_PASSWORD', 'CHECKIN_APP_PASSWORD'];

/** `NAME=value` lines, as compose reads them: a value in double quotes loses its quotes. */
function parseEnvFile(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .filter((line) => /^[A-Z_][A-Z0-9_]*=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)])
      .map(([name, value]) => [name, /^".*"$/.test(value) ? value.slice(1, -1) : value]),
  );
}

/** Compose's `${NAME}`, `${NAME:-default}` and `${NAME:?error}`, from `variables`. */
function interpolate(text: string, variables: Record<string, string>): string {
  return text.replace(
    /\$\{([A-Z_][A-Z0-9_]*)(?::([-?])([^}]*))?\}/g,
    (_, name: string, operator?: string, argument?: string) => {
      if (variables[name]) return variables[name];
      if (operator === '-') return argument ?? '';
      throw new Error(`compose refuses to start: ${name}: ${argument ?? 'not set'}`);
    },
  );
}

/** deploy/production.env.example with its empty values filled, as an operator fills them. */
function fillExample(): Record<string, string> {
  const secrets = randomSecrets();
  const example = parseEnvFile(read(ENV_EXAMPLE));
  return Object.fromEntries(
    Object.entries(example).map(([name, value]) => {
      if (value !== '') return [name, value];
      if (DATABASE_PASSWORDS.includes(name)) return [name, randomBytes(24).toString('hex')];
      // For `docker run` only: compose's `environment` sets both (containerEnvironment).
      if (name === 'DATABASE_URL' || name === 'REDIS_URL') return [name, 'set by compose'];
      if (secrets[name]) return [name, secrets[name]];
      throw new Error(`${ENV_EXAMPLE}: no way to fill ${name}`);
    }),
  );
}

/** The service's environment as its container gets it: the env file, then `environment`. */
function containerEnvironment(
  service: ComposeService,
  envFile: Record<string, string>,
): Record<string, string> {
  return {
    ...envFile,
    ...Object.fromEntries(
      Object.entries(service.environment ?? {}).map(([name, value]) => [
        name,
        interpolate(String(value), envFile),
      ]),
    ),
  };
}

/** A size as compose and Redis write it (`512m`, `1g`, `384mb`), in bytes. */
function parseSize(text: string): number {
  const match = /^(\d+)(b|k|kb|m|mb|g|gb)?$/i.exec(text);
  if (!match) return 0;
  const unit = (match[2] ?? 'b').toLowerCase()[0];
  return Number(match[1]) * ({ b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[unit] ?? 0);
}

/** A compose duration (`15s`, `1m30s`, `500ms`) in milliseconds. */
function durationMs(text: string): number {
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001 };
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us)/g)];
  expect(parts.map((part) => part[0]).join('')).toBe(text);
  return parts.reduce((total, [, value, unit]) => total + Number(value) * units[unit], 0);
}

/** One filling for the whole file: every process here shares one database, so one data key. */
const FILLED = fillExample();

const declaredDefault = (name: string) =>
  Number(VARIABLES.find((variable) => variable.name === name)?.default);

const OUR_IMAGE = 'checkin-integration-service';
const appServices = () =>
  Object.entries(COMPOSE.services).filter(([, service]) => service.image === OUR_IMAGE);
const byCommand = (command: string[]) =>
  appServices().filter(([, service]) => service.command?.join(' ') === command.join(' '));
/** The one-shot migration of docs/operations.md, the compose `migrate` job's command. */
const MIGRATE_COMMAND = [
  'node',
  'node_modules/typeorm/cli.js',
  'migration:run',
  '-d',
  'dist/database/data-source.js',
];
/** The PostgreSQL role a service connects as (its DATABASE_URL's user). */
const roleOf = (service: ComposeService) =>
  new URL(interpolate(String(service.environment?.DATABASE_URL), FILLED)).username;

/** The health check script of a compose service, aimed at `port` instead of its own. */
function healthCheckScript(service: ComposeService, defaultPort: number, port: number): string {
  const [kind, node, flag, script] = service.healthcheck?.test ?? [];
  expect([kind, node, flag]).toEqual(['CMD', 'node', '-e']);
  const url = `http://127.0.0.1:${defaultPort}/readyz`;
  expect(script).toContain(`'${url}'`);
  return script.replace(url, `http://127.0.0.1:${port}/readyz`);
}

// ---------------------------------------------------------------------------------------------

describe('The container image: Dockerfile', () => {
  it('passes the Dockerfile validator of VS Code’s Docker support (dockerfile-utils), which catches a broken one', () => {
    expect(validate(DOCKERFILE)).toEqual([]);
    const broken = DOCKERFILE.replace('COPY --from=build', 'COPY --form=build');
    expect(validate(broken).map((diagnostic) => diagnostic.message)).toEqual([
      'Unknown flag: form',
    ]);
  });

  it('builds in a build stage, and the final stage has production dependencies and the build only', () => {
    expect(STAGES.length).toBeGreaterThanOrEqual(2);
    const build = stageNamed('build') as Stage;
    expect(build).toBeDefined();
    expect(runs(build)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^npm ci --ignore-scripts\b/),
        'npm run build',
      ]) as unknown,
    );
    expect(FINAL.name).not.toBe('build');
    // Installed from the lockfile, dev dependencies left out, no install script run (none is
    // needed; npm 11 runs only approved ones, the image's npm 10 would run them all).
    expect(runs(FINAL)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^npm ci --omit=dev --omit=optional --ignore-scripts\b/),
      ]) as unknown,
    );
    expect(runs(FINAL).join('\n')).not.toMatch(/npm (install|run|ci(?! --omit=dev))/);
    // From the build: dist/ only (node_modules would bring the dev dependencies along).
    const fromBuild = keyword(FINAL, 'COPY').filter((copy) => flagOf(copy, 'from') === 'build');
    expect(fromBuild.map(copyPaths)).toEqual([['/app/dist', './dist']]);
    expect(keyword(FINAL, 'ENV').map((env) => env.getArgumentsContent())).toEqual(
      expect.arrayContaining(['NODE_ENV=production', 'NODE_OPTIONS=--max-semi-space-size=64']),
    );
  });

  it('runs node directly under tini as PID 1, as a user that is not root', () => {
    expect(runs(FINAL).join('\n')).toMatch(/apt-get install -y --no-install-recommends tini\b/);
    expect(keyword(FINAL, 'ENTRYPOINT').map(execForm)).toEqual([['/usr/bin/tini', '--']]);
    expect(keyword(FINAL, 'CMD').map(execForm)).toEqual([['node', 'dist/main.js']]);
    const user = keyword(FINAL, 'USER').at(-1)?.getArgumentsContent()?.trim() ?? 'root';
    expect(user.split(':')[0]).not.toMatch(/^(root|0)$/);
    // After USER, nothing runs as root again.
    const last = (name: string) =>
      FINAL.instructions.map((instruction) => instruction.getKeyword()).lastIndexOf(name);
    expect(last('USER')).toBeGreaterThan(last('RUN'));
  });

  it('is based on the official node image, Debian slim, by tag, on the oldest Node.js line package.json accepts', () => {
    const { engines } = JSON.parse(read('package.json')) as { engines: { node: string } };
    const oldest = minVersion(engines.node)?.major;
    expect(DOCKERFILE_ARGS.NODE_VERSION).toBe(String(oldest));
    for (const stage of STAGES) {
      expect(stage.image).toBe(`node:${oldest}-bookworm-slim`);
      expect(stage.image).not.toContain('@sha256:');
    }
  });

  it('its build context holds every file the stages copy, and no secret, dependency or old build', async () => {
    const patterns = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    const sources = STAGES.flatMap((stage) =>
      keyword(stage, 'COPY')
        .filter((copy) => flagOf(copy, 'from') === null)
        .flatMap((copy) => copyPaths(copy).slice(0, -1)),
    );
    expect(sources).toEqual(expect.arrayContaining(['package.json', 'src', 'migrations']));
    const tracked = await runCommand('git', ['ls-files', '--', ...sources], {
      cwd: ROOT,
      env: childEnv({}),
    });
    expect(tracked.code).toBe(0);
    const files = tracked.stdout.split('\n').filter(Boolean);
    expect(files.length).toBeGreaterThan(sources.length);
    expect(files.filter((file) => !inBuildContext(file, patterns))).toEqual([]);
    const kept = [
      '.env',
      'deploy/production.env',
      'var/local-secrets.env',
      '.git/config',
      'node_modules/pg/package.json',
      'dist/main.js',
      'clients/typescript/dist/src/index.js',
      'test/startup.e2e-spec.ts',
    ];
    expect(kept.filter((file) => inBuildContext(file, patterns))).toEqual([]);
  });
});

describe('compose.production.yml', () => {
  it('runs two API processes and one worker from the image, after PostgreSQL and Redis are healthy and the migrate job has succeeded', () => {
    const apis = byCommand(['node', 'dist/main.js']);
    const workers = byCommand(['node', 'dist/worker.js']);
    const migrations = byCommand(MIGRATE_COMMAND);
    expect(apis).toHaveLength(2);
    expect(workers).toHaveLength(1);
    expect(migrations.map(([name]) => name)).toEqual(['migrate']);
    expect(appServices()).toHaveLength(4);
    for (const [, api] of apis) expect(api.environment?.RUN_WORKERS).toBe('false');
    for (const [, service] of [...apis, ...workers]) {
      expect(service.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        migrate: { condition: 'service_completed_successfully' },
      });
      // The processes never migrate: the schema is the job's, and their role could not.
      expect(service.environment?.DB_MIGRATE_ON_START).toBe('false');
      expect(roleOf(service)).toBe('checkin_app');
    }
    const [, migrate] = migrations[0];
    expect(migrate.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(migrate.restart).toBe('no');
    expect(roleOf(migrate)).toBe('checkin_owner');
    for (const [, service] of appServices()) {
      expect(service.build).toBe('.');
      expect(service.env_file).toBe('deploy/production.env');
      // Secrets come from the env file only.
      for (const secret of REQUIRED_SECRETS) expect(service.environment).not.toHaveProperty(secret);
    }
    // The API ports only on the loopback, for the proxy in front, from the env file (with
    // defaults); nothing else published.
    expect(apis.flatMap(([, api]) => api.ports ?? [])).toEqual([
      '127.0.0.1:${API_1_PORT:-3001}:3000',
      '127.0.0.1:${API_2_PORT:-3002}:3000',
    ]);
    expect(
      apis.flatMap(([, api]) => api.ports ?? []).map((port) => interpolate(port, FILLED)),
    ).toEqual(['127.0.0.1:3001:3000', '127.0.0.1:3002:3000']);
    expect(interpolate(apis[0][1].ports![0], { ...FILLED, API_1_PORT: '4001' })).toBe(
      '127.0.0.1:4001:3000',
    );
    const published = Object.entries(COMPOSE.services).filter(([, service]) => service.ports);
    expect(published.map(([name]) => name).sort()).toEqual(apis.map(([name]) => name).sort());
  });

  it('checks each process’s /readyz on its operations port with node (the image has no curl)', () => {
    for (const [[, service], port] of [
      ...byCommand(['node', 'dist/main.js']).map(
        (entry) => [entry, OPS_PORT_DEFAULTS.api] as const,
      ),
      ...byCommand(['node', 'dist/worker.js']).map(
        (entry) => [entry, OPS_PORT_DEFAULTS.worker] as const,
      ),
    ]) {
      expect(service.environment?.OPS_PORT).toBeUndefined();
      healthCheckScript(service, port, port);
    }
  });

  it('runs PostgreSQL with the init script that makes the two roles, and no service connects as its superuser', () => {
    const { postgres } = COMPOSE.services;
    expect(postgres.volumes).toContain(
      './deploy/postgres/init-roles.sh:/docker-entrypoint-initdb.d/10-checkin-roles.sh:ro',
    );
    expect(Object.keys(postgres.environment ?? {}).sort()).toEqual([
      'CHECKIN_APP_PASSWORD',
      'CHECKIN_OWNER_PASSWORD',
      'POSTGRES_PASSWORD',
    ]);
    // Over TCP, which the server opens only once the init scripts have run.
    expect(postgres.healthcheck?.test).toEqual([
      'CMD',
      'pg_isready',
      '-h',
      '127.0.0.1',
      '-U',
      'postgres',
      '-d',
      'checkin',
    ]);
    const roles = appServices().map(([, service]) => roleOf(service));
    expect(new Set(roles)).toEqual(new Set(['checkin_owner', 'checkin_app']));
  });

  it('keeps PostgreSQL 15, and Redis 7 with an append-only file and no eviction, each health-checked', () => {
    const { postgres, redis } = COMPOSE.services;
    expect(postgres.image).toBe('postgres:15');
    expect(postgres.healthcheck?.test).toEqual(expect.arrayContaining(['pg_isready']) as unknown);
    expect(redis.image).toBe('redis:7');
    expect(redis.command?.join(' ')).toMatch(/--appendonly yes/);
    expect(redis.command?.join(' ')).toMatch(/--maxmemory-policy noeviction/);
    // A memory bound said explicitly, below the container's limit.
    const maxmemory = interpolate(
      redis.command![redis.command!.indexOf('--maxmemory') + 1],
      FILLED,
    );
    expect(maxmemory).toBe('384mb');
    expect(parseSize(maxmemory)).toBeLessThan(parseSize(redis.mem_limit!));
    expect(redis.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
  });

  it('runs the service read-only (tmpfs for /tmp and MAIL_DIR) and every container under a memory limit', () => {
    for (const [, service] of appServices()) {
      expect(service.read_only).toBe(true);
      expect(service.tmpfs).toEqual(['/tmp', '/app/var']);
    }
    for (const [name, service] of Object.entries(COMPOSE.services)) {
      expect({ name, limited: parseSize(service.mem_limit ?? '0') > 0 }).toEqual({
        name,
        limited: true,
      });
    }
  });

  it('gives each process the time its SIGTERM needs before SIGKILL', () => {
    /** Each service running `command` waits at least `variable` (its value or default) + 10 s. */
    const expectGrace = (command: string[], variable: string) => {
      for (const [name, service] of byCommand(command)) {
        const needed = Number(service.environment?.[variable] ?? declaredDefault(variable));
        const grace = durationMs(service.stop_grace_period ?? '10s');
        expect({ name, grace, enough: grace >= needed + 10_000 }).toEqual({
          name,
          grace,
          enough: true,
        });
      }
    };
    // The drain, plus 10 s for the longest request (docs/operations.md, "Shutdown and deploys").
    expectGrace(['node', 'dist/main.js'], 'SHUTDOWN_DRAIN_MS');
    // Deliveries in flight finish: a request's timeout, and then some.
    expectGrace(['node', 'dist/worker.js'], 'WEBHOOK_TIMEOUT_MS');
  });

  it('takes its secrets from an env file git ignores; the example, filled in, is a valid production configuration', async () => {
    const ignored = await runCommand('git', ['check-ignore', '--quiet', 'deploy/production.env'], {
      cwd: ROOT,
      env: childEnv({}),
    });
    expect(ignored.code).toBe(0);
    const example = parseEnvFile(read(ENV_EXAMPLE));
    const unknown = Object.keys(example).filter(
      (name) => !CONFIG_VARIABLES.includes(name) && !DATABASE_PASSWORDS.includes(name),
    );
    expect(unknown).toEqual([]);
    // As shipped, production refuses it, naming what is to be filled in.
    const [, api] = byCommand(['node', 'dist/main.js'])[0];
    expect(() => containerEnvironment(api, example)).toThrow(/CHECKIN_APP_PASSWORD/);
    let refusal: unknown;
    try {
      loadConfig({ ...example, NODE_ENV: 'production' });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as ConfigError).message).toMatch(/DATA_ENCRYPTION_KEY must be set/);
    // Filled in, every process of the example starts in production.

    for (const [name, service] of appServices()) {
      const env = { ...containerEnvironment(service, FILLED), NODE_ENV: 'production' };
      expect({ name, production: loadConfig(env).isProduction }).toEqual({
        name,
        production: true,
      });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The final stage, laid out and run on this machine.

/** Hard links of `source`'s files under `target` (its own node_modules left out). */
function linkPackage(source: string, target: string): void {
  mkdirSync(target, { recursive: true });
  for (const entry of readdirSync(source, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const from = join(source, entry.name);
    const to = join(target, entry.name);
    if (entry.isDirectory()) linkPackage(from, to);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
    else linkSync(from, to);
  }
}

/**
 * What the final stage's `npm ci --omit=…` installs, by npm's own rule over the lockfile's flags
 * (a package is left out when it is `dev` and dev is omitted, `optional` and optional is, or
 * `devOptional` and both are), hard-linked from this checkout's node_modules: seconds where the
 * install itself takes over half a minute. (`npm ls --omit=optional` does not apply that rule to
 * optional peers, so the lockfile is read directly.) Optional packages for other platforms are
 * in the lockfile but not in node_modules, and are skipped as npm skips them.
 */
function installProductionDependencies(target: string, omit: string[]): string[] {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; optional?: boolean; devOptional?: boolean }>;
  };
  const omitted = (flags: { dev?: boolean; optional?: boolean; devOptional?: boolean }) =>
    (flags.dev === true && omit.includes('dev')) ||
    (flags.optional === true && omit.includes('optional')) ||
    (flags.devOptional === true && omit.includes('dev') && omit.includes('optional'));
  const installed: string[] = [];
  for (const [path, flags] of Object.entries(lock.packages)) {
    if (!path.startsWith('node_modules/') || omitted(flags)) continue;
    if (!existsSync(join(ROOT, path))) continue;
    linkPackage(join(ROOT, path), join(target, path));
    installed.push(path);
  }
  return installed;
}

/**
 * The final stage's /app under `target`, following the Dockerfile: its COPY lines (a path of the
 * build stage is the same path of this checkout, built by `npm run build`), its `npm ci`, its ENV.
 */
function layOutFinalStage(target: string): Record<string, string> {
  const env: Record<string, string> = {};
  const workdir = workdirOf(FINAL);
  for (const instruction of FINAL.instructions) {
    const name = instruction.getKeyword();
    if (name === 'ENV') {
      for (const property of (instruction as Env).getProperties()) {
        env[property.getName()] = property.getValue() ?? '';
      }
    } else if (
      name === 'RUN' &&
      /npm ci --omit=dev/.test(instruction.getArgumentsContent() ?? '')
    ) {
      const omit = [...(instruction.getArgumentsContent() ?? '').matchAll(/--omit=(\w+)/g)].map(
        (match) => match[1],
      );
      expect(installProductionDependencies(target, omit).length).toBeGreaterThan(100);
    } else if (name === 'COPY') {
      const from = flagOf(instruction, 'from');
      const values = copyPaths(instruction);
      const destination = posix.resolve(workdir, values[values.length - 1]);
      for (const source of values.slice(0, -1)) {
        const path = from ? posix.relative(workdirOf(stageNamed(from) as Stage), source) : source;
        const into =
          values.length > 2 || values[values.length - 1].endsWith('/')
            ? posix.join(destination, basename(path))
            : destination;
        const to = join(target, posix.relative(workdir, into));
        mkdirSync(dirname(to), { recursive: true });
        cpSync(join(ROOT, path), to, { recursive: true });
      }
    }
  }
  return env;
}

interface StageProcess {
  child: ChildProcessByStdio;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startInStage(stage: string, command: string[], env: NodeJS.ProcessEnv): StageProcess {
  expect(command[0]).toBe('node');
  const child = spawnTracked(process.execPath, command.slice(1), { cwd: stage, env });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

async function readyz(port: number): Promise<{ status: number; body: unknown } | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/readyz`);
    return { status: response.status, body: await response.json() };
  } catch {
    return null;
  }
}

/** Polls /readyz every 20 ms until `accept` says yes; fails when the process exits first. */
async function readyzUntil(
  process: StageProcess,
  port: number,
  accept: (answer: { status: number; body: unknown } | null) => boolean,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (accept(await readyz(port))) return;
    if (process.child.exitCode !== null) throw new Error(`exited: ${process.output()}`);
    if (Date.now() > deadline) throw new Error(`/readyz never as expected: ${process.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const READY = { status: 200, body: { status: 'ready', checks: expect.anything() as unknown } };

describe('the final stage, run on this machine with production dependencies only', () => {
  let stage: string;
  let stageEnv: Record<string, string>;
  let databaseName: string;
  const [, API] = byCommand(['node', 'dist/main.js'])[0];
  const [, WORKER] = byCommand(['node', 'dist/worker.js'])[0];

  beforeAll(async () => {
    databaseName = await createTestDatabase();
    stage = join(runDirectory(), `final-stage-${process.pid}`);
    stageEnv = layOutFinalStage(stage);
  }, 60_000);
  afterAll(() => dropDatabase(databaseName));

  /** A process of the image: the Dockerfile's ENV, the filled example, the compose environment. */
  function productionEnv(service: ComposeService, env: Record<string, string>) {
    return childEnv({
      ...stageEnv,
      ...containerEnvironment(service, FILLED),
      // This machine instead of the compose network, mails as files instead of SMTP:
      DATABASE_URL: databaseUrl(databaseName),
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: databaseName,
      HOST: '127.0.0.1',
      OPS_HOST: '127.0.0.1',
      SMTP_URL: '',
      MAIL_TRANSPORT: 'file',
      MAIL_DIR: join(stage, 'var', 'mail'),
      LOG_LEVEL: 'info',
      HOME: stage,
      ...env,
    });
  }

  const healthCheck = async (service: ComposeService, defaultPort: number, port: number) =>
    (
      await runCommand(process.execPath, ['-e', healthCheckScript(service, defaultPort, port)], {
        env: childEnv({}),
      })
    ).code;

  it('resolves modules from its own node_modules only: no devDependency is there', async () => {
    const resolve = async (name: string) =>
      (
        await runCommand(process.execPath, ['-e', `require.resolve(${JSON.stringify(name)})`], {
          cwd: stage,
          env: childEnv({ HOME: stage }),
        })
      ).code;
    expect(await resolve('pg')).toBe(0);
    expect(await resolve('jest')).not.toBe(0);
    expect(await resolve('@nestjs/testing')).not.toBe(0);
  });

  it('carries neither TypeScript nor Prettier (36 MB the service never loads)', () => {
    // TypeScript is an optional peer of @nestjs/swagger, cosmiconfig and valibot (--omit=optional
    // leaves it out); Prettier's only production dependent was nest-commander's shell-completion
    // helper, which package.json's overrides replace with an empty package.
    expect(existsSync(join(stage, 'node_modules', 'typescript'))).toBe(false);
    expect(existsSync(join(stage, 'node_modules', 'prettier'))).toBe(false);
  });

  it('the API starts, passes the compose health check, fails it while draining after SIGTERM, and exits 0', async () => {
    const ops = await freePort();
    const api = startInStage(
      stage,
      API.command as string[],
      productionEnv(API, {
        PORT: String(await freePort()),
        OPS_PORT: String(ops),
        SHUTDOWN_DRAIN_MS: '1000',
      }),
    );
    try {
      await readyzUntil(api, ops, (answer) => answer?.status === 200);
      expect(await readyz(ops)).toEqual(READY);
      expect(await healthCheck(API, OPS_PORT_DEFAULTS.api, ops)).toBe(0);
      api.child.kill('SIGTERM');
      await readyzUntil(api, ops, (answer) => answer?.status === 503);
      expect(await healthCheck(API, OPS_PORT_DEFAULTS.api, ops)).toBe(1);
      expect(await api.exited).toEqual({ code: 0, signal: null });
      expect(api.output()).toContain('SIGTERM: draining for 1000 ms, then closing');
      expect(api.output()).toContain('"msg":"Stopped"');
    } finally {
      api.child.kill('SIGKILL');
    }
  });

  it('the worker starts, passes the compose health check, and exits 0 on SIGTERM', async () => {
    const ops = await freePort();
    const worker = startInStage(
      stage,
      WORKER.command as string[],
      productionEnv(WORKER, { OPS_PORT: String(ops) }),
    );
    try {
      await readyzUntil(worker, ops, (answer) => answer?.status === 200);
      expect(await healthCheck(WORKER, OPS_PORT_DEFAULTS.worker, ops)).toBe(0);
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toEqual({ code: 0, signal: null });
      expect(worker.output()).toContain('"msg":"Stopped"');
    } finally {
      worker.child.kill('SIGKILL');
    }
  });

  it('the operator CLI runs (`node dist/cli.js …`)', async () => {
    const result = await runCommand(
      process.execPath,
      ['dist/cli.js', 'enterprises:create', '--name', 'Container Co', '--json'],
      { cwd: stage, env: productionEnv(API, {}) },
    );
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual(
      match.objectContaining({ name: 'Container Co', apiKey: match.stringMatching(/^ck_/) }),
    );
  });

  it('the one-shot migration of docs/operations.md migrates an empty database', async () => {
    const command = MIGRATE_COMMAND.join(' ');
    expect({ command, documented: read('docs/operations.md').includes(command) }).toEqual({
      command,
      documented: true,
    });
    const empty = `${testDatabasePrefix()}image_migrate_${process.pid}`;
    await withAdmin((client) => client.query(`CREATE DATABASE "${empty}"`));
    try {
      const result = await runCommand(
        process.execPath,
        command.split(' ').slice(1),
        { cwd: stage, env: productionEnv(API, { DATABASE_URL: databaseUrl(empty) }) },
        60_000,
      );
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      const migrations = readdirSync(join(ROOT, 'migrations')).filter((file) =>
        file.endsWith('.ts'),
      );
      const client = new Client({ connectionString: databaseUrl(empty) });
      await client.connect();
      try {
        const applied = await client.query('SELECT name FROM typeorm_migrations');
        expect(applied.rowCount).toBe(migrations.length);
      } finally {
        await client.end();
      }
    } finally {
      await dropDatabase(empty);
    }
  });

  /**
   * compose's two roles on a database `init-roles.sh` makes (`made: 'new'`), or on one 0.1.0's
   * compose made, where the superuser migrated and owns everything (`'by-superuser'`).
   */
  async function expectTwoRoles(made: 'new' | 'by-superuser'): Promise<void> {
    const name = `${testDatabasePrefix()}roles_${made === 'new' ? 'n' : 's'}_${process.pid}`;
    const [owner, app] = [`${name}_owner`, `${name}_app`];
    const [ownerPassword, appPassword] = [
      randomBytes(12).toString('hex'),
      randomBytes(12).toString('hex'),
    ];
    const admin = new URL(ADMIN_DATABASE_URL);
    const urlAs = (role: string, password: string) => {
      const url = new URL(databaseUrl(name));
      url.username = role;
      url.password = password;
      return url.toString();
    };
    const [, MIGRATE] = byCommand(MIGRATE_COMMAND)[0];
    const runMigrate = (url: string) =>
      runCommand(
        process.execPath,
        (MIGRATE.command as string[]).slice(1),
        { cwd: stage, env: productionEnv(MIGRATE, { DATABASE_URL: url }) },
        60_000,
      );
    const createEnterprise = (url: string) =>
      runCommand(
        process.execPath,
        ['dist/cli.js', 'enterprises:create', '--name', 'Roles Co', '--json'],
        { cwd: stage, env: productionEnv(API, { DATABASE_URL: url }) },
      );
    try {
      if (made === 'by-superuser') {
        await withAdmin((client) => client.query(`CREATE DATABASE "${name}"`));
        const before = await runMigrate(databaseUrl(name));
        expect({ code: before.code, stderr: before.stderr }).toEqual({ code: 0, stderr: '' });
        expect((await createEnterprise(databaseUrl(name))).code).toBe(0);
      }
      const init = await runCommand(
        'bash',
        [join(ROOT, 'deploy/postgres/init-roles.sh')],
        {
          env: childEnv({
            PGHOST: admin.hostname,
            PGPORT: admin.port || '5432',
            PGPASSWORD: decodeURIComponent(admin.password),
            POSTGRES_USER: decodeURIComponent(admin.username) || 'postgres',
            CHECKIN_DB: name,
            CHECKIN_OWNER: owner,
            CHECKIN_OWNER_PASSWORD: ownerPassword,
            CHECKIN_APP_USER: app,
            CHECKIN_APP_PASSWORD: appPassword,
          }),
        },
        30_000,
      );
      expect({ code: init.code, stderr: init.stderr }).toEqual({ code: 0, stderr: '' });

      const migrated = await runMigrate(urlAs(owner, ownerPassword));
      expect({ code: migrated.code, stderr: migrated.stderr }).toEqual({ code: 0, stderr: '' });

      const ops = await freePort();
      const api = startInStage(
        stage,
        API.command as string[],
        productionEnv(API, {
          DATABASE_URL: urlAs(app, appPassword),
          PORT: String(await freePort()),
          OPS_PORT: String(ops),
        }),
      );
      try {
        await readyzUntil(api, ops, (answer) => answer?.status === 200);
      } finally {
        api.child.kill('SIGKILL');
        await api.exited;
      }
      const workerOps = await freePort();
      const worker = startInStage(
        stage,
        WORKER.command as string[],
        productionEnv(WORKER, {
          DATABASE_URL: urlAs(app, appPassword),
          OPS_PORT: String(workerOps),
        }),
      );
      try {
        await readyzUntil(worker, workerOps, (answer) => answer?.status === 200);
      } finally {
        worker.child.kill('SIGKILL');
        await worker.exited;
      }
      const created = await createEnterprise(urlAs(app, appPassword));
      expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: '' });

      const client = new Client({ connectionString: urlAs(app, appPassword) });
      await client.connect();
      try {
        const refused = async (statement: string) =>
          client.query(statement).then(
            () => 'allowed',
            (error: { code?: string }) => error.code,
          );
        // 42501: insufficient_privilege.
        expect({
          create: await refused('CREATE TABLE planted (id int)'),
          alter: await refused('ALTER TABLE enterprises ADD COLUMN planted int'),
          drop: await refused('DROP TABLE enterprises'),
          truncate: await refused('TRUNCATE enterprises'),
        }).toEqual({ create: '42501', alter: '42501', drop: '42501', truncate: '42501' });
        const owners = await client.query<{ tableowner: string }>(
          `SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'`,
        );
        expect(owners.rows).toEqual([{ tableowner: owner }]);
        const enterprises = await client.query('SELECT 1 FROM enterprises');
        expect(enterprises.rowCount).toBe(made === 'new' ? 1 : 2);
      } finally {
        await client.end();
      }
    } finally {
      await dropDatabase(name);
      await withAdmin(async (client) => {
        for (const role of [owner, app]) await client.query(`DROP ROLE IF EXISTS "${role}"`);
      });
    }
  }

  it('with compose’s two roles (init-roles.sh): the job migrates as the owner; the API, worker and CLI work as the read/write role, which cannot change the schema', async () => {
    await expectTwoRoles('new');
  }, 90_000);

  it('init-roles.sh moves a database 0.1.0’s compose made (the superuser owns every table) to the two roles, rows kept', async () => {
    await expectTwoRoles('by-superuser');
  }, 90_000);
});

// ---------------------------------------------------------------------------------------------
// The image itself, where a Docker daemon answers.

function dockerDaemon(): { available: boolean; reason: string } {
  const result = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], {
    encoding: 'utf8',
    timeout: 15_000,
    env: { ...process.env, ...spawnMarker() },
  });
  if (result.error) return { available: false, reason: result.error.message };
  if (result.status !== 0) {
    const line = `${result.stderr}\n${result.stdout}`.split('\n').find((text) => text.trim());
    return { available: false, reason: line?.trim() ?? `exit ${result.status}` };
  }
  return { available: true, reason: '' };
}

const docker = dockerDaemon();
const describeWithDocker = docker.available ? describe : describe.skip;
if (!docker.available) {
  console.warn(
    `docker info failed (${docker.reason}): the image is not built or run here; the ` +
      'Dockerfile lint, the compose checks and the final stage run on this machine stand in.',
  );
}

describeWithDocker('the image, built and run by Docker', () => {
  const tag = `${OUR_IMAGE}:test-${process.pid}`;
  // The docker CLI's own settings (DOCKER_HOST, DOCKER_CONFIG, …) as `docker info` had them.
  const dockerSettings = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[0].startsWith('DOCKER_') && entry[1] !== undefined,
    ),
  );
  const dockerRun = (args: string[], timeoutMs = 60_000) =>
    runCommand('docker', args, { cwd: ROOT, env: childEnv(dockerSettings) }, timeoutMs);
  let databaseName: string;

  beforeAll(async () => {
    databaseName = await createTestDatabase();
    const built = await dockerRun(['build', '--tag', tag, '.'], 20 * 60_000);
    if (built.code !== 0) throw new Error(`docker build failed:\n${built.stderr.slice(-4000)}`);
  }, 21 * 60_000);
  afterAll(async () => {
    await dockerRun(['image', 'rm', '--force', tag]);
    await dropDatabase(databaseName);
  });

  it('runs as a user that is not root, under tini as PID 1; the API answers /readyz and exits 0 on docker stop', async () => {
    const user = await dockerRun(['run', '--rm', '--entrypoint', 'id', tag, '-u']);
    expect(user.code).toBe(0);
    expect(user.stdout.trim()).not.toBe('0');

    const ops = await freePort();
    const envFile = join(runDirectory(), `image-${process.pid}.env`);
    const env = {
      ...containerEnvironment(COMPOSE.services['api-1'], FILLED),
      // The host's network: the test database and Redis on 127.0.0.1.
      DATABASE_URL: databaseUrl(databaseName),
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: databaseName,
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      OPS_HOST: '127.0.0.1',
      OPS_PORT: String(ops),
      SHUTDOWN_DRAIN_MS: '1000',
      SMTP_URL: '',
      MAIL_TRANSPORT: 'file',
    };
    writeFileSync(
      envFile,
      Object.entries(env)
        .map(([name, value]) => `${name}=${value}\n`)
        .join(''),
    );
    const name = `checkin-test-${process.pid}-api`;
    const started = await dockerRun([
      'run',
      '--detach',
      '--name',
      name,
      '--network',
      'host',
      '--env-file',
      envFile,
      tag,
    ]);
    expect(started.code).toBe(0);
    try {
      const deadline = Date.now() + 60_000;
      while ((await readyz(ops))?.status !== 200) {
        if (Date.now() > deadline) throw new Error((await dockerRun(['logs', name])).stdout);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const pid1 = await dockerRun(['exec', name, 'cat', '/proc/1/cmdline']);
      expect(pid1.stdout.split('\0').slice(0, 3)).toEqual(['/usr/bin/tini', '--', 'node']);
      expect((await dockerRun(['stop', '--time', '30', name])).code).toBe(0);
      const state = await dockerRun(['inspect', '--format', '{{.State.ExitCode}}', name]);
      expect(state.stdout.trim()).toBe('0');
      expect((await dockerRun(['logs', name])).stdout).toContain('"msg":"Stopped"');
    } finally {
      await dockerRun(['rm', '--force', name]);
    }
  }, 180_000);

  it('runs the worker, the CLI and the one-shot migration from the same image', async () => {
    const env = [
      ...Object.entries({
        ...containerEnvironment(COMPOSE.services.worker, FILLED),
        DATABASE_URL: databaseUrl(databaseName),
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: databaseName,
        OPS_PORT: '0',
        SMTP_URL: '',
        MAIL_TRANSPORT: 'file',
      }).flatMap(([name, value]) => ['--env', `${name}=${value}`]),
    ];
    const run = (command: string[]) =>
      dockerRun(['run', '--rm', '--network', 'host', ...env, tag, ...command], 120_000);
    const cli = await run([
      'node',
      'dist/cli.js',
      'enterprises:create',
      '--name',
      'Image Co',
      '--json',
    ]);
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toEqual(expect.objectContaining({ name: 'Image Co' }));
    const migrated = await run(
      'node node_modules/typeorm/cli.js migration:run -d dist/database/data-source.js'.split(' '),
    );
    expect(migrated.code).toBe(0);
    const name = `checkin-test-${process.pid}-worker`;
    const worker = await dockerRun([
      'run',
      '--detach',
      '--name',
      name,
      '--network',
      'host',
      ...env,
      tag,
      'node',
      'dist/worker.js',
    ]);
    expect(worker.code).toBe(0);
    try {
      const deadline = Date.now() + 60_000;
      while (!(await dockerRun(['logs', name])).stdout.includes('Worker started')) {
        if (Date.now() > deadline) throw new Error('the worker did not start');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await dockerRun(['stop', '--time', '30', name])).code).toBe(0);
      const state = await dockerRun(['inspect', '--format', '{{.State.ExitCode}}', name]);
      expect(state.stdout.trim()).toBe('0');
    } finally {
      await dockerRun(['rm', '--force', name]);
    }
  }, 300_000);
});
