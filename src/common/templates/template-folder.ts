/**
 * A folder of Eta templates, loaded once: the participant pages' and the mails' markup are files
 * (docs/design.md "Templates"), rendered by Eta's own file handling (`include`, `layout`, paths
 * relative to the including file) but read and compiled when the process starts. After that no
 * render touches the disk: a template that was not loaded is an error, never a read. A template
 * that names a missing one fails at start-up (and in the unit tests), not on a participant's
 * request.
 */
import { Eta, EtaFileResolutionError, type EtaConfig } from 'eta';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** `include(…)` and `layout(…)` calls in a template's code. */
const REFERENCE_CALL = /\b(include|includeAsync|layout)\s*\(\s*/g;
const STRING_LITERAL = /^(['"])([^'"]+)\1/;

/**
 * The templates `file` (an absolute path) names with `include` or `layout`, as absolute paths
 * resolved the way Eta resolves them at render time. A name that is not a string literal cannot
 * be checked, so it is refused.
 */
function references(eta: Eta, file: string, source: string): string[] {
  const found: string[] = [];
  for (const part of eta.parse(source)) {
    if (typeof part === 'string') continue;
    for (const call of part.val.matchAll(REFERENCE_CALL)) {
      const literal = STRING_LITERAL.exec(part.val.slice(call.index + call[0].length));
      if (!literal) {
        throw new EtaFileResolutionError(
          `${file}: ${call[1]}(…) must name its template with a string literal`,
        );
      }
      found.push(eta.resolvePath(literal[2], { filepath: file }));
    }
  }
  return found;
}

/**
 * Every template reachable from `entries` (names relative to `dir`): each read once, in the
 * order met, keyed by absolute path. Throws when one of them is missing.
 */
function readReachable(eta: Eta, dir: string, entries: readonly string[]): Map<string, string> {
  const sources = new Map<string, string>();
  const visit = (file: string, from: string) => {
    if (sources.has(file)) return;
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      throw new EtaFileResolutionError(`Missing template ${relative(dir, file)} (${from})`);
    }
    sources.set(file, source);
    for (const next of references(eta, file, source)) visit(next, relative(dir, file));
  };
  for (const entry of entries) visit(eta.resolvePath(entry), 'an entry');
  return sources;
}

/**
 * An Eta engine over `dir` holding `entries` and everything they include, compiled now. Whitespace
 * is output as written (`autoTrim: false`); `-%>` drops the line break after a tag.
 */
export function loadTemplateFolder(
  dir: string,
  entries: readonly string[],
  config: Pick<EtaConfig, 'autoEscape'>,
): Eta {
  const eta = new Eta({ ...config, autoTrim: false, cache: true, views: dir });
  for (const [file, source] of readReachable(eta, dir, entries)) eta.loadTemplate(file, source);
  eta.readFile = (file: string) => {
    throw new EtaFileResolutionError(`Template ${file} was not loaded at start`);
  };
  return eta;
}

/** Every file under `dir`, as '/'-separated paths relative to it, sorted. */
export function filesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/** The files in `dir` that no entry reaches: dead markup (the unit tests keep this empty). */
export function unusedTemplates(dir: string, entries: readonly string[]): string[] {
  const eta = new Eta({ views: dir });
  const used = new Set(
    [...readReachable(eta, dir, entries).keys()].map((file) =>
      relative(dir, file).split(sep).join('/'),
    ),
  );
  return filesIn(dir).filter((file) => !used.has(file));
}
