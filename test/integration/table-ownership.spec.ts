/**
 * One owner per table (docs/design.md, "Table ownership"): every INSERT, UPDATE, DELETE, MERGE and
 * TRUNCATE in src/ stands in a repository of the module whose folder holds the table's entity.
 * The SQL is parsed by PostgreSQL's own parser (test/support/sql-writes.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DYNAMIC_WRITERS,
  loadSqlParser,
  ownershipViolations,
  sourceFiles,
  sqlLiterals,
  tableOwners,
  writesIn,
} from '../support/sql-writes';

const ROOT = join(__dirname, '..', '..');
const files = sourceFiles(ROOT);
const owners = tableOwners(ROOT, files);
const sources = files.map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));

beforeAll(loadSqlParser);

describe('table ownership', () => {
  it('finds the tables and the writes (the check reads what it should)', () => {
    expect(owners.get('sessions')).toBe('sessions');
    expect(owners.get('memberships')).toBe('participants');
    expect(owners.get('events')).toBe('webhooks');
    expect(owners.size).toBeGreaterThanOrEqual(21);
    const writes = sources.flatMap(({ file, text }) => writesIn(file, text).writes);
    // Every owned table but the append-only ones is written somewhere; a parser that found
    // nothing would pass the next test vacuously.
    const written = new Set(writes.map((write) => write.table));
    for (const table of ['sessions', 'memberships', 'participants', 'events', 'groups']) {
      expect(written).toContain(table);
    }
    expect(writes.length).toBeGreaterThan(60);
  });

  it('every write to a table is made by a repository of the module that owns it', () => {
    expect(ownershipViolations(sources, owners)).toEqual([]);
  });

  it('no TypeORM repository or entity manager writes behind the SQL', () => {
    const typeormWrites = sources.filter(({ text }) =>
      /@InjectRepository|getRepository\(|\.manager\.|createQueryBuilder\(/.test(text),
    );
    expect(typeormWrites.map(({ file }) => file)).toEqual([]);
  });

  it('only the declared files write a table chosen at run time', () => {
    for (const file of Object.keys(DYNAMIC_WRITERS)) expect(files).toContain(file);
  });
});

describe('the ownership check itself', () => {
  const check = (file: string, text: string) =>
    ownershipViolations([{ file, text }], owners).map((violation) => violation.problem);

  it('passes a write in the owner’s repository', () => {
    expect(
      check('src/sessions/sessions.repository.ts', 'db.rows(`UPDATE sessions SET mhci = $1`)'),
    ).toEqual([]);
  });

  it.each([
    [
      'another module’s repository',
      'src/ingestion/ingestion.repository.ts',
      "sql.rows('UPDATE sessions SET mhci = $2 WHERE session_id = $1')",
      'UPDATE sessions: the table belongs to src/sessions/',
    ],
    [
      'a data-modifying CTE',
      'src/erasure/erasure.repository.ts',
      `sql.rows(\`WITH gone AS (DELETE FROM memberships WHERE participant_id = $1 RETURNING 1)
                 SELECT count(*) FROM gone\`)`,
      'DELETE memberships: the table belongs to src/participants/',
    ],
    [
      'an INSERT … ON CONFLICT',
      'src/metrics/metrics.repository.ts',
      "sql.rows('INSERT INTO groups (name) VALUES ($1) ON CONFLICT DO NOTHING')",
      'INSERT groups: the table belongs to src/groups/',
    ],
    [
      'the owner’s module, outside a repository',
      'src/sessions/sessions.service.ts',
      "db.rows('DELETE FROM sessions WHERE session_id = $1')",
      'DELETE sessions: writes belong in a repository (*.repository.ts) of src/sessions/',
    ],
    [
      'a table without an entity',
      'src/sessions/sessions.repository.ts',
      "db.rows('TRUNCATE audit_log')",
      'TRUNCATE audit_log: no entity declares this table, so it has no owner',
    ],
    [
      'a statement read word by word (it parses only with its interpolations filled in)',
      'src/ingestion/ingestion.repository.ts',
      'db.rows(`WITH x AS (${inner}) UPDATE cohort_cell_words SET count = 0 ${where}`)',
      'UPDATE cohort_cell_words: the table belongs to src/metrics/',
    ],
    [
      'a table chosen at run time',
      'src/sessions/sessions.repository.ts',
      'db.rows(`UPDATE ${table} SET x = 1`)',
      'UPDATE __interpolated: a table chosen at run time',
    ],
  ])('refuses a write in %s', (_, file, text, problem) => {
    expect(check(file, text)).toEqual([problem]);
  });

  it('refuses SQL it cannot read, and leaves prose alone', () => {
    expect(
      check('src/sessions/sessions.repository.ts', "db.rows('UPDATE sessions SETT x')"),
    ).toEqual([expect.stringMatching(/^does not parse/)]);
    expect(sqlLiterals('x.ts', "const label = 'Delete my data';")).toHaveLength(1);
    expect(check('src/pages/x.ts', "const label = 'Delete my data';")).toEqual([]);
  });
});
