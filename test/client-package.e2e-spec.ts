/**
 * The typed client as an installable package (clients/typescript/README.md, "Installing it"):
 * `npm pack` in clients/typescript builds (its `prepack`) and packs the compiled client and its
 * declarations, versioned as the API; another TypeScript project installs the tarball, compiles
 * against its types and calls the real service with it.
 *
 * Where the scratch project's openapi-fetch comes from: the repository's own installed copy (and
 * that of each of its dependencies), packed with `npm pack <folder> --ignore-scripts` into the
 * scratch folder and installed beside the client's tarball. Every npm command runs `--offline`
 * with an empty cache inside the scratch folder, so the test needs neither the registry nor a
 * warm ~/.npm (a CI machine without network, a cleaned cache), installs exactly the openapi-fetch
 * the lockfile pins, and writes nothing outside its folder — not ~/.npm, and not the repository's
 * node_modules (had the scratch project linked to them, npm could have installed into them). What
 * this leaves out, resolving `^0.17.0` on the registry, is npm's own work; that the packed
 * manifest depends on openapi-fetch with the repository's range is asserted directly.
 *
 * The consumer is a Node project (the client carries an API key: it belongs on a server), so it
 * compiles with @types/node — the repository's, read where they are, not installed — and with
 * `skipLibCheck`, as `tsc --init` sets it (without it, checking the generated schema's
 * declarations takes seconds). That the package's types reach the consumer, not `any`, is asserted
 * by the compiler itself: a `@ts-expect-error` on a path the API does not have.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import semver from 'semver';
import { runCommand, type ProcessResult } from './support/processes';
import { runDirectory } from './support/run-environment';
import { startTestApp, TestApp } from './support/test-app';

const ROOT = join(__dirname, '..');
const CLIENT = join(ROOT, 'clients', 'typescript');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** Runs `command` in `cwd` to its end (what a person types; npm and node are on PATH). */
const run = (command: string, args: string[], cwd: string) =>
  runCommand(command, args, { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME } });

async function succeeds(command: string, args: string[], cwd: string): Promise<ProcessResult> {
  const result = await run(command, args, cwd);
  if (result.code !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.code}:\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result;
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  main?: string;
  types?: string;
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** What `npm pack --json` reports of each tarball. */
interface Packed {
  name: string;
  version: string;
  filename: string;
  size: number;
  files: { path: string }[];
}

/** The folder of the package `name` as Node finds it from the folder `from`. */
function installedFolder(name: string, from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) throw new Error(`${name} is not installed: run \`npm ci\``);
  }
}

/** The installed folders of `name` and of its dependencies, recursively. */
function withDependencies(name: string, from: string, found = new Map<string, string>()) {
  if (found.has(name)) return found;
  const folder = installedFolder(name, from);
  found.set(name, folder);
  const manifest = readJson<PackageJson>(join(folder, 'package.json'));
  for (const dependency of Object.keys(manifest.dependencies ?? {})) {
    withDependencies(dependency, folder, found);
  }
  return found;
}

/** A first call, as a consumer writes it: it compiles only against the package's types. */
const CONSUMER = `import { createCheckinClient, type paths, type Schemas } from '@checkin/client';

// @ts-expect-error the API has no such path: the package's types are the API's, not \`any\`
export const unknownPath: keyof paths = '/no-such-path';

async function main(): Promise<void> {
  const [baseUrl, apiKey] = process.argv.slice(2);
  const checkin = createCheckinClient({ baseUrl, apiKey });
  const created = await checkin.POST('/groups', { body: { groupName: 'Packaged' } });
  if (created.error) throw new Error(created.error.error);
  const listed = await checkin.GET('/groups');
  if (listed.error) throw new Error(listed.error.error);
  const groups: Schemas['GroupDto'][] = listed.data;
  const refused = await createCheckinClient({ baseUrl, apiKey: 'ck_wrong' }).GET('/groups');
  console.log(
    JSON.stringify({ created: created.data, groups, refused: [refused.response.status, refused.error] }),
  );
}

main().catch((failure: unknown) => {
  console.error(failure);
  process.exitCode = 1;
});
`;

describe('the typed client as an installable package', () => {
  let t: TestApp;
  let scratch: string;
  let packed: Packed;
  const api = readJson<{ info: { version: string } }>(join(ROOT, 'openapi.json'));
  const clientPackage = readJson<PackageJson>(join(CLIENT, 'package.json'));
  /** npm without the registry, with a cache of the scratch folder's own. */
  const npm = (...args: string[]) => [...args, '--offline', '--cache', join(scratch, 'npm-cache')];

  beforeAll(async () => {
    scratch = mkdtempSync(join(runDirectory(), 'client-package-'));
    // Side by side; settled both, so that a failed pack still leaves the app for afterAll to close.
    const [app, pack] = await Promise.allSettled([
      startTestApp(),
      succeeds('npm', npm('pack', '--json', '--pack-destination', scratch), CLIENT),
    ]);
    if (app.status === 'fulfilled') t = app.value;
    if (app.status === 'rejected') throw app.reason;
    if (pack.status === 'rejected') throw pack.reason;
    [packed] = JSON.parse(pack.value.stdout) as Packed[];
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("is versioned as the API: its version is openapi.json's info.version", () => {
    expect({ client: clientPackage.version }).toEqual({ client: api.info.version });
    expect({ name: packed.name, version: packed.version, filename: packed.filename }).toEqual({
      name: '@checkin/client',
      version: api.info.version,
      filename: `checkin-client-${api.info.version}.tgz`,
    });
  });

  it('packs the compiled client and its declarations: no TypeScript source, no examples', () => {
    const sources = readdirSync(join(CLIENT, 'src'))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => name.slice(0, -'.ts'.length));
    expect(sources).toEqual(expect.arrayContaining(['index', 'schema']));
    const compiled = sources.flatMap((name) => [`dist/src/${name}.d.ts`, `dist/src/${name}.js`]);
    expect(packed.files.map((file) => file.path).sort()).toEqual(
      ['README.md', 'package.json', ...compiled].sort(),
    );
  });

  it('installs from the tarball, and a TypeScript project compiles against it and calls the service', async () => {
    const consumer = join(scratch, 'consumer');
    mkdirSync(consumer);
    const dependencies = [...withDependencies('openapi-fetch', ROOT).values()];
    const packedDependencies = JSON.parse(
      (
        await succeeds(
          'npm',
          npm(
            'pack',
            '--json',
            '--ignore-scripts',
            '--pack-destination',
            consumer,
            ...dependencies,
          ),
          consumer,
        )
      ).stdout,
    ) as Packed[];
    writeFileSync(
      join(consumer, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }),
    );
    const installed = await succeeds(
      'npm',
      npm(
        'install',
        '--no-audit',
        '--no-fund',
        join(scratch, packed.filename),
        ...packedDependencies.map((dependency) => `./${dependency.filename}`),
      ),
      consumer,
    );
    // Installing it runs nothing of the package's, so npm has no install script to warn of.
    expect(installed.stderr).not.toMatch(/install script|allowScripts/i);

    const manifest = readJson<PackageJson>(
      join(consumer, 'node_modules', '@checkin', 'client', 'package.json'),
    );
    expect(manifest.private).toBeUndefined();
    expect(manifest.dependencies).toEqual({
      'openapi-fetch': readJson<PackageJson>(join(ROOT, 'package.json')).devDependencies?.[
        'openapi-fetch'
      ],
    });
    const openapiFetch = readJson<PackageJson>(
      join(consumer, 'node_modules', 'openapi-fetch', 'package.json'),
    );
    expect(semver.satisfies(openapiFetch.version, manifest.dependencies!['openapi-fetch'])).toBe(
      true,
    );

    writeFileSync(join(consumer, 'call.ts'), CONSUMER);
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'commonjs',
          target: 'es2022',
          strict: true,
          skipLibCheck: true,
          outDir: 'out',
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          types: ['node'],
        },
        files: ['call.ts'],
      }),
    );
    await succeeds(process.execPath, [TSC, '-p', 'tsconfig.json', '--noEmit', 'false'], consumer);

    const enterprise = await t.newEnterprise('Packaged client');
    const called = await succeeds(
      process.execPath,
      [join(consumer, 'out', 'call.js'), t.baseUrl, enterprise.apiKey],
      consumer,
    );
    const answer = JSON.parse(called.stdout) as {
      created: { groupID: number; groupName: string };
      groups: unknown[];
      refused: unknown[];
    };
    expect(answer.created).toMatchObject({ groupName: 'Packaged' });
    expect(answer.groups).toEqual([answer.created]);
    const { body } = await t.request('GET', '/groups', { apiKey: enterprise.apiKey });
    expect(answer.groups).toEqual(body);
    expect(answer.refused).toEqual([401, { error: 'Unauthorized' }]);
  }, 60_000);

  it("refuses to pack while its version is not the API's, until `npm run sync-version`", async () => {
    // A copy of the package's manifest and scripts under a document of another version.
    const repository = join(scratch, 'other-version');
    const copy = join(repository, 'clients', 'typescript');
    mkdirSync(copy, { recursive: true });
    cpSync(join(CLIENT, 'package.json'), join(copy, 'package.json'));
    cpSync(join(CLIENT, 'scripts'), join(copy, 'scripts'), { recursive: true });
    writeFileSync(join(repository, 'openapi.json'), JSON.stringify({ info: { version: '9.8.7' } }));

    const refused = await run('npm', npm('pack', '--pack-destination', repository), copy);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      `The client's version (${clientPackage.version}, clients/typescript/package.json) is not ` +
        "the API's (9.8.7, info.version of openapi.json). Run `npm run sync-version` in " +
        'clients/typescript and commit the result.',
    );
    expect(existsSync(join(repository, `checkin-client-${clientPackage.version}.tgz`))).toBe(false);

    await succeeds('npm', npm('run', 'sync-version'), copy);
    expect(readJson<PackageJson>(join(copy, 'package.json'))).toEqual({
      ...clientPackage,
      version: '9.8.7',
    });
    await succeeds(process.execPath, [join(copy, 'scripts', 'version.js')], copy);
  });
});
