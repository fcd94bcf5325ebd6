/**
 * The Node.js the project claims is the Node.js it installs on. package.json `engines.node` is the
 * one source: its lowest version is the "Node.js ≥ X.Y" of README.md and docs/, and every package
 * the lockfile installs (dependencies, dev dependencies, transitive ones) accepts that version in
 * its own `engines.node` — else `npm ci` warns EBADENGINE on the oldest Node the README names, and
 * the package may well not run there. A package that wants newer Node is pinned, overridden or
 * replaced (docs/operations.md#dependencies), or the claim goes up.
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

/** The "Node.js ≥ X.Y" statements of a text, as written ("20.19"). */
export function nodeClaims(text: string): string[] {
  return [...text.matchAll(/Node\.js\s*(?:≥|>=)\s*(\d+(?:\.\d+){0,2})/g)].map(([, v]) => v);
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as T;
}

describe('the Node.js the project claims', () => {
  const engines = readJson<{ engines: { node: string } }>('package.json').engines.node;
  const minimum = semver.minVersion(engines)?.version ?? 'none';

  it('is stated in package.json engines as a lower bound', () => {
    expect(semver.validRange(engines)).not.toBeNull();
    expect(semver.satisfies(minimum, engines)).toBe(true);
  });

  it('is the minimum README.md and docs/ state', () => {
    const claims = CLAIMING_FILES.flatMap((file) =>
      nodeClaims(readFileSync(join(ROOT, file), 'utf8')).map((claim) => `${file}: ${claim}`),
    );
    expect(claims.length).toBeGreaterThanOrEqual(CLAIMING_FILES.length);
    const differing = claims.filter(
      (claim) => semver.coerce(claim.split(': ')[1])?.version !== minimum,
    );
    expect(differing).toEqual([]);
  });

  it('is accepted by every package the lockfile installs', () => {
    const lock = readJson<{ packages: Record<string, LockEntry> }>('package-lock.json');
    expect(Object.keys(lock.packages).length).toBeGreaterThan(100);
    expect(engineProblems(lock.packages, minimum)).toEqual([]);
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
  };

  it('lists each package whose engines.node refuses the minimum, and only those', () => {
    expect(engineProblems(packages, '20.19.0')).toEqual([
      'too-new@3.0.0 (node_modules/too-new) wants node >=22',
      '@scope/nested@4.0.0 (node_modules/a/node_modules/@scope/nested) wants node ^22.22.3 || >=24',
      'just-after@5.0.0 (node_modules/just-after) wants node >=20.20.0',
    ]);
  });

  it('reads "Node.js ≥ X.Y" statements', () => {
    expect(nodeClaims('Bull on Redis 7, Node.js ≥ 20.19.\nRequires Node.js >= 22 (x)')).toEqual([
      '20.19',
      '22',
    ]);
  });
});
