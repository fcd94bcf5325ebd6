/**
 * A release's version moves in step (CHANGELOG.md, docs/operations.md "Releases"): package.json,
 * `info.version` of openapi.json, the typed client's package.json and the image's OCI version
 * label all name the newest release of CHANGELOG.md, which keeps Keep a Changelog's shape (an
 * Unreleased section, then releases newest first, each `## [x.y.z] - YYYY-MM-DD`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const versionOf = (file: string) => (JSON.parse(read(file)) as { version: string }).version;

/** The releases CHANGELOG.md lists, newest first, and whether it opens with Unreleased. */
export function changelogReleases(text: string): {
  unreleasedFirst: boolean;
  releases: { version: string; date: string }[];
} {
  const headings = [...text.matchAll(/^## \[([^\]]+)\](?: - (\S+))?\s*$/gm)];
  return {
    unreleasedFirst: headings[0]?.[1] === 'Unreleased',
    releases: headings
      .filter((heading) => heading[1] !== 'Unreleased')
      .map((heading) => ({ version: heading[1], date: heading[2] ?? '' })),
  };
}

describe('the release version', () => {
  const { unreleasedFirst, releases } = changelogReleases(read('CHANGELOG.md'));
  const newest = releases[0]?.version;

  it('CHANGELOG.md opens with Unreleased, then releases newest first, each versioned and dated', () => {
    expect(unreleasedFirst).toBe(true);
    expect(releases.length).toBeGreaterThan(0);
    for (const { version, date } of releases) {
      expect(semver.valid(version)).toBe(version);
      expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    const versions = releases.map((release) => release.version);
    expect(versions).toEqual([...versions].sort(semver.rcompare));
  });

  it('is the same in package.json, openapi.json, the client package and the image label', () => {
    expect({
      package: versionOf('package.json'),
      lockfile: versionOf('package-lock.json'),
      openapi: (JSON.parse(read('openapi.json')) as { info: { version: string } }).info.version,
      client: versionOf('clients/typescript/package.json'),
      image: /org\.opencontainers\.image\.version="([^"]+)"/.exec(read('Dockerfile'))?.[1],
    }).toEqual({
      package: newest,
      lockfile: newest,
      openapi: newest,
      client: newest,
      image: newest,
    });
  });

  it('the check reads what it should', () => {
    expect(
      changelogReleases(
        '# C\n\n## [Unreleased]\n\n## [1.2.0] - 2026-01-02\n\n## [1.1.0] - 2025-12-01\n',
      ),
    ).toEqual({
      unreleasedFirst: true,
      releases: [
        { version: '1.2.0', date: '2026-01-02' },
        { version: '1.1.0', date: '2025-12-01' },
      ],
    });
    expect(changelogReleases('## [1.0.0] - 2026-01-01\n').unreleasedFirst).toBe(false);
  });
});
