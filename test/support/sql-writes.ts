/**
 * Finds every SQL write in our TypeScript and says whether its table's owner made it (docs/design.md,
 * "Table ownership"). The SQL is read the way PostgreSQL reads it: each string or template literal
 * that looks like a statement goes through the real PostgreSQL parser (libpg-query, compiled to
 * WebAssembly), and every INSERT, UPDATE, DELETE, MERGE or TRUNCATE in its tree — data-modifying
 * CTEs included — names the table it writes.
 *
 * - The owner of a table is the module whose folder holds the table's TypeORM entity
 *   (`@Entity({ name })`): the first folder under `src/`.
 * - A write is allowed only in a `*.repository.ts` file of that module.
 * - An interpolation (`${…}`) is read as an identifier, so a table named by one is "dynamic": only
 *   the files in {@link DYNAMIC_WRITERS} may write a table chosen at run time. A literal that does
 *   not parse until its interpolations are filled in (a clause built elsewhere) is read word by
 *   word instead; one without interpolations must parse.
 */
import { loadModule, parseSync } from 'libpg-query';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import * as ts from 'typescript';

/** What an interpolation becomes in the parsed text. */
const INTERPOLATION = '__interpolated';

/**
 * Files allowed to write a table whose name is chosen at run time, and why. Key rotation rewrites
 * ciphertext columns of several owners' tables with the same plaintext under the newest key
 * (docs/data-at-rest.md); it changes no value any owner reads.
 */
export const DYNAMIC_WRITERS: Readonly<Record<string, string>> = {
  'src/data-at-rest/reencryption.repository.ts': 'key rotation (ENCRYPTED_COLUMNS)',
};

/** A statement keyword and more at the start of a literal: the literal may be SQL. */
const STATEMENT_START = /^\s*\(?\s*(WITH|INSERT|UPDATE|DELETE|SELECT|MERGE|TRUNCATE)\s+\S/i;
/** Upper case: certainly SQL, so it must parse. Lower case may be prose ("Delete my data"). */
const CERTAIN_STATEMENT_START = /^\s*\(?\s*(WITH|INSERT|UPDATE|DELETE|SELECT|MERGE|TRUNCATE)\s+\S/;

/**
 * The writes of a statement read word by word: for a literal that parses only once its
 * interpolations are filled in (`${range.groupBy ? 'GROUP BY 1' : ''}`, a clause built elsewhere).
 * `DO UPDATE SET`, `FOR UPDATE OF`, `FOR NO KEY UPDATE` and `ON UPDATE` are not writes of a table.
 */
const LEXICAL_WRITE =
  /(?<!\b(?:DO|FOR|KEY|ON)\s+)\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?|MERGE\s+INTO)\s+(?:ONLY\s+)?"?([A-Za-z_][A-Za-z0-9_]*)/gi;
const LEXICAL_STATEMENT: Record<string, SqlWrite['statement']> = {
  INSERT: 'InsertStmt',
  UPDATE: 'UpdateStmt',
  DELETE: 'DeleteStmt',
  TRUNCATE: 'TruncateStmt',
  MERGE: 'MergeStmt',
};
/** Words that follow a non-write UPDATE (`FOR UPDATE SKIP LOCKED`, `DO UPDATE SET`). */
const NOT_A_TABLE = new Set(['set', 'of', 'skip', 'nowait']);

const WRITE_NODES = ['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt'] as const;

export interface SqlWrite {
  /** Path from the project root, with `/`. */
  file: string;
  line: number;
  statement: (typeof WRITE_NODES)[number] | 'TruncateStmt';
  /** The table written; {@link INTERPOLATION} when an interpolation names it. */
  table: string;
}

export interface SqlProblem {
  file: string;
  line: number;
  problem: string;
}

export async function loadSqlParser(): Promise<void> {
  await loadModule();
}

/** `*.ts` under `dir`, tests excluded, as paths from `root`. */
export function sourceFiles(root: string, dir = 'src'): string[] {
  const found: string[] = [];
  const walk = (path: string): void => {
    for (const entry of readdirSync(join(root, path), { withFileTypes: true })) {
      const child = `${path}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) found.push(child);
    }
  };
  walk(dir);
  return found.sort();
}

/** Table → owning module (`src/<module>/`), from the entities' `@Entity({ name: '…' })`. */
export function tableOwners(root: string, files: readonly string[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const file of files.filter((path) => path.endsWith('.entity.ts'))) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const match of text.matchAll(/@Entity\(\s*\{\s*name:\s*'([a-z_]+)'/g)) {
      owners.set(match[1], moduleOf(file));
    }
  }
  return owners;
}

/** `src/sessions/dto/x.ts` → `sessions`. */
export function moduleOf(file: string): string {
  return file.split('/')[1];
}

/** The SQL literals of one source text, interpolations read as identifiers, with their lines. */
export function sqlLiterals(file: string, text: string): { line: number; sql: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { line: number; sql: string }[] = [];
  const visit = (node: ts.Node): void => {
    let sql: string | null = null;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) sql = node.text;
    else if (ts.isTemplateExpression(node)) {
      sql =
        node.head.text +
        node.templateSpans.map((span) => ` ${INTERPOLATION} ${span.literal.text}`).join('');
    }
    if (sql !== null && STATEMENT_START.test(sql)) {
      found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, sql });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every write in one source text, and the SQL that does not parse. */
export function writesIn(
  file: string,
  text: string,
): { writes: SqlWrite[]; problems: SqlProblem[] } {
  const writes: SqlWrite[] = [];
  const problems: SqlProblem[] = [];
  for (const { line, sql } of sqlLiterals(file, text)) {
    const found = (statement: SqlWrite['statement'], table: string) =>
      writes.push({ file, line, statement, table });
    let tree: unknown;
    try {
      tree = parseSync(sql);
    } catch (error) {
      if (sql.includes(INTERPOLATION)) lexicalWrites(sql, found);
      else if (CERTAIN_STATEMENT_START.test(sql)) {
        problems.push({ file, line, problem: `does not parse: ${(error as Error).message}` });
      }
      continue;
    }
    collectWrites(tree, found);
  }
  return { writes, problems };
}

function lexicalWrites(
  sql: string,
  found: (statement: SqlWrite['statement'], table: string) => void,
): void {
  for (const [, verb, table] of sql.matchAll(LEXICAL_WRITE)) {
    if (NOT_A_TABLE.has(table.toLowerCase())) continue;
    found(LEXICAL_STATEMENT[verb.split(/\s/)[0].toUpperCase()], table);
  }
}

function collectWrites(
  node: unknown,
  found: (statement: SqlWrite['statement'], table: string) => void,
): void {
  if (Array.isArray(node)) {
    for (const child of node) collectWrites(child, found);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  for (const kind of WRITE_NODES) {
    const statement = record[kind] as { relation?: { relname: string } } | undefined;
    if (statement?.relation) found(kind, statement.relation.relname);
  }
  const truncate = record.TruncateStmt as
    { relations: { RangeVar: { relname: string } }[] } | undefined;
  for (const relation of truncate?.relations ?? []) {
    found('TruncateStmt', relation.RangeVar.relname);
  }
  for (const child of Object.values(record)) collectWrites(child, found);
}

/** The writes that break the ownership rules (and SQL that cannot be read), for these sources. */
export function ownershipViolations(
  sources: readonly { file: string; text: string }[],
  owners: ReadonlyMap<string, string>,
): SqlProblem[] {
  const violations: SqlProblem[] = [];
  for (const { file, text } of sources) {
    const { writes, problems } = writesIn(file, text);
    violations.push(...problems);
    for (const write of writes) {
      const problem = writeProblem(write, owners);
      if (problem) violations.push({ file, line: write.line, problem });
    }
  }
  return violations;
}

function writeProblem(write: SqlWrite, owners: ReadonlyMap<string, string>): string | null {
  const action = `${write.statement.replace('Stmt', '').toUpperCase()} ${write.table}`;
  if (write.table === INTERPOLATION) {
    return write.file in DYNAMIC_WRITERS ? null : `${action}: a table chosen at run time`;
  }
  const owner = owners.get(write.table);
  if (!owner) return `${action}: no entity declares this table, so it has no owner`;
  if (moduleOf(write.file) !== owner) return `${action}: the table belongs to src/${owner}/`;
  if (!write.file.endsWith('.repository.ts')) {
    return `${action}: writes belong in a repository (*.repository.ts) of src/${owner}/`;
  }
  return null;
}

/** Project-relative path with `/` separators. */
export function projectPath(root: string, absolute: string): string {
  return relative(root, absolute).split(sep).join('/');
}
