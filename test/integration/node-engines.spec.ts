/**
 * The Node.js the project claims is the Node.js it installs on. package.json `engines.node` is the
 * one source (`>=24.11.0`, the 24 LTS line): the lowest release of each of its lines is the
 * "Node.js 24.11+" of README.md and docs/, `.nvmrc`, the image's base and the Node.js CI installs
 * are on that line, and every package the lockfile
 * installs (dependencies, dev dependencies, transitive ones) accepts each of those releases in its
 * own `engines.node` — else `npm ci` warns EBADENGINE on a Node the README names, and the package
 * may well not run there. A package that wants newer Node is pinned, overridden or replaced
 * (docs/operations.md#dependencies), or the claim changes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

const ROOT = join(__dirname, '..', '..');
/** The files that state the minimum Node.js in prose. */
const CLAIMING_FILES = ['README.md', 'docs/design.md', 'docs/operations.md'];

interface LockEntry {
  name?: string;
  version?: string;
  engines?: unknown;
}

/** Every lockfile package whose `engines.node` refuses `minimum`, as "name@version wants …". */
export function engineProblems(packages: Record<string, LockEntry>, minimum: string): string[] {
  return Object.entries(packages).flatMap(([location, entry]) => {
    if (location === '') return []; // the project itself
    const node = (entry.engines as { node?: unknown } | undefined)?.node;
    if (typeof node !== 'string') return [];
    if (semver.satisfies(minimum, node)) return [];
    const name = entry.name ?? location.slice(location.lastIndexOf('node_modules/') + 13);
    return [`${name}@${entry.version ?? '?'} (${location}) wants node ${node}`];
  });
}

/** The "Node.js 20.19+, 22.13+ or 24.11+" statements of a text, each as its releases. */
export function nodeClaims(text: string): string[][] {
  return [...text.matchAll(/Node\.js ((?:\d+\.\d+\+(?:, | or )?)+)/g)].map(([, list]) =>
    [...list.matchAll(/(\d+\.\d+)\+/g)].map(([, release]) => release),
  );
}

/** The lowest release of each line a range allows, in order (`^20.19.0 || >=24.11.0` → both). */
export function lowestReleases(range: string): string[] {
  return new semver.Range(range).set.map(
    (comparators) =>
      semver.minVersion(comparators.map((comparator) => comparator.value).join(' '))?.version ??
      'none',
  );
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as T;
}

describe('the Node.js the project claims', () => {
  const engines = readJson<{ engines: { node: string } }>('package.json').engines.node;
  const lowest = lowestReleases(engines);

  it('is stated in package.json engines as lines with a lowest release each', () => {
    expect(semver.validRange(engines)).not.toBeNull();
    expect(lowest.length).toBeGreaterThan(0);
    for (const release of lowest) expect(semver.satisfies(release, engines)).toBe(true);
  });

  it('is what README.md and docs/ state', () => {
    const stated = lowest.map((release) => release.split('.').slice(0, 2).join('.'));
    const claims = CLAIMING_FILES.flatMap((file) =>
      nodeClaims(readFileSync(join(ROOT, file), 'utf8')).map((claim) => ({ file, claim })),
    );
    expect(claims.length).toBeGreaterThanOrEqual(CLAIMING_FILES.length);
    expect(claims.filter(({ claim }) => claim.join() !== stated.join())).toEqual([]);
  });

  it('is the line of .nvmrc, of the image and of the Node.js CI installs (docs/operations.md)', () => {
    const line = String(semver.minVersion(engines)!.major);
    expect(readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim()).toBe(line);
    expect(readFileSync(join(ROOT, 'Dockerfile'), 'utf8')).toMatch(
      new RegExp(`^ARG NODE_VERSION=${line}$`, 'm'),
    );
    const ci = /^NODE_VERSION="(\d+\.\d+\.\d+)"$/m.exec(
      readFileSync(join(ROOT, '.ci/run'), 'utf8'),
    );
    expect(ci).not.toBeNull();
    expect(semver.satisfies(ci![1], engines)).toBe(true);
    expect(semver.major(ci![1])).toBe(Number(line));
  });

  it('is accepted by every package the lockfile installs, on the lowest release of each line', () => {
    const lock = readJson<{ packages: Record<string, LockEntry> }>('package-lock.json');
    expect(Object.keys(lock.packages).length).toBeGreaterThan(100);
    for (const release of lowest) {
      expect({ release, problems: engineProblems(lock.packages, release) }).toEqual({
        release,
        problems: [],
      });
    }
  });
});

describe('the engines check itself', () => {
  const packages: Record<string, LockEntry> = {
    '': { name: 'project', engines: { node: '>=20.19.0' } },
    'node_modules/old-enough': { version: '1.0.0', engines: { node: '>=18' } },
    'node_modules/no-engines': { version: '1.0.0' },
    'node_modules/lts-lines': { version: '2.0.0', engines: { node: '^20.19.0 || >=22.12.0' } },
    'node_modules/too-new': { version: '3.0.0', engines: { node: '>=22' } },
    'node_modules/a/node_modules/@scope/nested': {
      version: '4.0.0',
      engines: { node: '^22.22.3 || >=24' },
    },
    'node_modules/just-after': { version: '5.0.0', engines: { node: '>=20.20.0' } },
    'node_modules/next-line': { version: '6.0.0', engines: { node: '>=25' } },
  };

  it('lists each package whose engines.node refuses the minimum, and only those', () => {
    expect(engineProblems(packages, '20.19.0')).toEqual([
      'too-new@3.0.0 (node_modules/too-new) wants node >=22',
      '@scope/nested@4.0.0 (node_modules/a/node_modules/@scope/nested) wants node ^22.22.3 || >=24',
      'just-after@5.0.0 (node_modules/just-after) wants node >=20.20.0',
      'next-line@6.0.0 (node_modules/next-line) wants node >=25',
    ]);
    // On the project's line: only what wants a newer Node than 24.11.
    expect(engineProblems(packages, '24.11.0')).toEqual([
      'next-line@6.0.0 (node_modules/next-line) wants node >=25',
    ]);
  });

  it('reads "Node.js 20.19+, 22.13+ or 24.11+" statements', () => {
    expect(
      nodeClaims('Redis 7, Node.js 20.19+, 22.13+ or 24.11+.\nRequires Node.js 22.1+ (x)'),
    ).toEqual([['20.19', '22.13', '24.11'], ['22.1']]);
  });

  it('finds the lowest release of each line of a range', () => {
    expect(lowestReleases('^20.19.0 || ^22.13.0 || >=24.11.0')).toEqual([
      '20.19.0',
      '22.13.0',
      '24.11.0',
    ]);
    expect(lowestReleases('>=20.19.0')).toEqual(['20.19.0']);
  });
});
