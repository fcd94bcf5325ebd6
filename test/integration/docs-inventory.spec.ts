/**
 * docs/design.md keeps up with the code: every table an entity declares is in its data model, and
 * every worker module (`*-worker.module.ts`) is named where it says what the worker process runs.
 * Both lists drifted once (a table and a worker module added without the docs); this check would
 * have said so. It also checks itself on made-up input that must fail.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const DESIGN = readFileSync(join(ROOT, 'docs', 'design.md'), 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

const SOURCES = sourceFiles(join(ROOT, 'src')).map((path) => ({
  path,
  text: readFileSync(path, 'utf8'),
}));

/** The tables the entities declare. */
const tables = (): string[] =>
  SOURCES.flatMap(({ text }) =>
    [...text.matchAll(/@Entity\(\{\s*name:\s*'([a-z_]+)'/g)].map((match) => match[1]),
  ).sort();

/** The worker modules' class names. */
const workerModules = (): string[] =>
  SOURCES.filter(({ path }) => path.endsWith('-worker.module.ts'))
    .flatMap(({ text }) => [...text.matchAll(/export class (\w+WorkerModule)\b/g)].map((m) => m[1]))
    .sort();

/** The names `doc` does not mention as code (`name`). */
const missingFrom = (doc: string, names: readonly string[]): string[] =>
  names.filter((name) => !doc.includes(`\`${name}\``));

describe('docs/design.md keeps up with the code', () => {
  it('names every table an entity declares in its data model', () => {
    expect(tables().length).toBeGreaterThan(20);
    expect(missingFrom(DESIGN, tables())).toEqual([]);
  });

  it('names every worker module', () => {
    expect(workerModules().length).toBeGreaterThanOrEqual(4);
    expect(missingFrom(DESIGN, workerModules())).toEqual([]);
  });

  it('would catch a table or a worker module missing from the docs', () => {
    const doc = 'Tables: `groups`, `sessions`. Workers: `EmailWorkerModule`.';
    expect(missingFrom(doc, ['groups', 'cohort_word_prefixes'])).toEqual(['cohort_word_prefixes']);
    expect(missingFrom(doc, ['EmailWorkerModule', 'CohortSealingWorkerModule'])).toEqual([
      'CohortSealingWorkerModule',
    ]);
  });
});
