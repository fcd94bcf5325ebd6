/**
 * The repository explains itself (docs/README.md): README.md stays a front page of at most 250
 * lines, and every relative link of the repository's markdown (README.md, docs/, bench/, the
 * client's README) reaches a file inside the repository — and, when it names a heading
 * (`file.md#heading`), a heading of that file. Nothing may point outside the repository: no link
 * to `../shared`, no `DESIGN §N` citation.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const README_MAX_LINES = 250;
/** Folders never searched for markdown: installed, built or generated files. */
const SKIPPED = new Set(['node_modules', 'dist', 'coverage', 'var', '.git']);

/** The repository's markdown files, relative to ROOT. */
function markdownFiles(dir = ROOT): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIPPED.has(name) ? [] : markdownFiles(path);
    return name.endsWith('.md') ? [relative(ROOT, path)] : [];
  });
}

/** The text outside fenced code blocks and inline code: where links are links. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchors GitHub gives a file's headings (lower-cased, punctuation dropped, `-1` repeats). */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const withoutFences = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const [, heading] of withoutFences.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Reads a repository file (relative to ROOT), or null when it does not exist. */
type ReadFile = (path: string) => string | null;

const readRepositoryFile: ReadFile = (path) => {
  const absolute = join(ROOT, path);
  return existsSync(absolute) && statSync(absolute).isFile()
    ? readFileSync(absolute, 'utf8')
    : null;
};

/** What is wrong with the links and citations of one markdown file (empty when nothing is). */
export function linkProblems(file: string, markdown: string, read: ReadFile): string[] {
  const problems: string[] = [];
  if (markdown.includes('../shared')) problems.push(`${file}: mentions ../shared`);
  if (/DESIGN §/.test(markdown)) problems.push(`${file}: cites DESIGN §`);
  for (const [, rawTarget] of prose(markdown).matchAll(
    /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g,
  )) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(rawTarget)) continue; // https:, mailto:, …
    const [path, anchor] = rawTarget.split('#', 2);
    if (path.startsWith('/')) {
      problems.push(`${file}: absolute link ${rawTarget}`);
      continue;
    }
    if (path === '') {
      if (anchor && !headingAnchors(markdown).has(decodeURIComponent(anchor))) {
        problems.push(`${file}: link to a missing heading ${rawTarget}`);
      }
      continue;
    }
    const target = relative(ROOT, resolve(ROOT, dirname(file), path));
    if (target.startsWith('..') || target.split(sep)[0] === '..') {
      problems.push(`${file}: link outside the repository ${rawTarget}`);
      continue;
    }
    const isDirectory =
      existsSync(join(ROOT, target)) && statSync(join(ROOT, target)).isDirectory();
    const text = isDirectory ? '' : read(target);
    if (text === null) {
      problems.push(`${file}: link to a missing file ${rawTarget}`);
      continue;
    }
    if (anchor && target.endsWith('.md') && !headingAnchors(text).has(decodeURIComponent(anchor))) {
      problems.push(`${file}: link to a missing heading ${rawTarget}`);
    }
  }
  return problems;
}

describe('the repository explains itself', () => {
  const files = markdownFiles();

  it('finds the markdown it should check', () => {
    for (const file of ['README.md', join('docs', 'README.md'), join('docs', 'design.md')]) {
      expect(files).toContain(file);
    }
    expect(files).toContain(join('bench', 'README.md'));
  });

  it(`keeps README.md a front page of at most ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    expect(lines.length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('has every relative link reach a file (and heading) inside the repository', () => {
    const problems = files.flatMap((file) =>
      linkProblems(file, readFileSync(join(ROOT, file), 'utf8'), readRepositoryFile),
    );
    expect(problems).toEqual([]);
  });
});

describe('the link check itself', () => {
  const files: Record<string, string> = {
    'docs/a.md': '# A title\n\n## Section `two`: here\n\n## Section two here\n',
    'openapi.json': '{}',
  };
  const read: ReadFile = (path) => files[path] ?? null;
  const check = (markdown: string) => linkProblems('docs/b.md', markdown, read);

  it('passes links to existing files, headings, directories and other sites', () => {
    expect(
      check(
        [
          '[a](a.md) [t](a.md#a-title) [s](a.md#section-two-here) [s1](a.md#section-two-here-1)',
          '[spec](../openapi.json) [x](https://example.com/#x) [docs](../docs) [self](#) [here](#a-heading)',
          '`[not a link](missing.md)`',
          '```\n[not a link](missing.md)\n```',
          '## A heading',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it.each([
    ['a missing file', '[x](missing.md)', 'docs/b.md: link to a missing file missing.md'],
    ['a missing heading', '[x](a.md#nowhere)', 'docs/b.md: link to a missing heading a.md#nowhere'],
    ['a missing heading here', '[x](#nowhere)', 'docs/b.md: link to a missing heading #nowhere'],
    [
      'a link out of the repository',
      '[x](../../elsewhere.md)',
      'docs/b.md: link outside the repository ../../elsewhere.md',
    ],
    ['an absolute link', '[x](/etc/passwd)', 'docs/b.md: absolute link /etc/passwd'],
    ['../shared', 'see ../shared/DESIGN.md', 'docs/b.md: mentions ../shared'],
    ['a DESIGN citation', 'as DESIGN §14 says', 'docs/b.md: cites DESIGN §'],
  ])('refuses %s', (_, markdown, problem) => {
    expect(check(markdown)).toContain(problem);
  });
});
