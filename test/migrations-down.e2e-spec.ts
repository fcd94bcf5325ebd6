/**
 * Every migration can be reverted (docs/operations.md, "Rollback"): on an empty database the
 * migrations in `migrations/` run up one at a time, the schema recorded after each; then they are
 * reverted one at a time, newest first, and after each `down` the schema must equal the one
 * before that migration's `up` — columns, types, defaults, constraints, indexes, functions,
 * sequences, as `pg_dump --schema-only` writes them. Then they run up again, to the same schema:
 * a `down` must leave the database migratable. A migration whose `down` is missing, forgets
 * something or drops too much fails here, named.
 */
import { randomBytes } from 'node:crypto';
import { DataSource, type MigrationInterface } from 'typeorm';
import { loadConfig } from '../src/config/config';
import { buildDataSourceOptions } from '../src/database/typeorm-options';
import { databaseUrl, dropDatabase, testDatabasePrefix, withAdmin } from './support/databases';
import { runCommand } from './support/processes';

/** TypeORM's own record of the migrations it ran: not part of the schema. */
const MIGRATIONS_TABLE = 'typeorm_migrations';

type MigrationClass = new () => MigrationInterface;

const options = (name: string) =>
  buildDataSourceOptions(loadConfig({ NODE_ENV: 'test', DATABASE_URL: databaseUrl(name) }));

/** A data source that knows `migrations` only (all of them when not given). */
const dataSourceFor = (name: string, migrations?: MigrationClass[]): Promise<DataSource> =>
  new DataSource({ ...options(name), ...(migrations ? { migrations } : {}) }).initialize();

/** The migrations of `migrations/`, oldest first (TypeORM orders them by their timestamp). */
async function migrationClasses(name: string): Promise<MigrationClass[]> {
  const dataSource = await dataSourceFor(name);
  try {
    const timestampOf = (migration: MigrationInterface): number =>
      Number(/(\d{13})$/.exec(migration.name ?? migration.constructor.name)?.[1]);
    return [...dataSource.migrations]
      .sort((a, b) => timestampOf(a) - timestampOf(b))
      .map((migration) => migration.constructor as MigrationClass);
  } finally {
    await dataSource.destroy();
  }
}

/**
 * The schema as `pg_dump --schema-only` writes it, without TypeORM's migrations table, comments,
 * session settings and blank lines, and with each table's column lines sorted: a column that a
 * `down` adds back comes last, and PostgreSQL cannot reorder columns, so the order is not part of
 * what a `down` must restore.
 */
async function schemaOf(name: string): Promise<string[]> {
  const dump = await runCommand(
    'pg_dump',
    [
      '--schema-only',
      '--no-owner',
      '--no-privileges',
      `--exclude-table=${MIGRATIONS_TABLE}`,
      `--exclude-table=${MIGRATIONS_TABLE}_id_seq`,
      '-d',
      databaseUrl(name),
    ],
    { env: { PATH: process.env.PATH, HOME: process.env.HOME } },
  );
  if (dump.code !== 0) throw new Error(`pg_dump exited ${dump.code}: ${dump.stderr}`);
  const lines = dump.stdout
    .split('\n')
    .filter(
      (line) =>
        line.trim() !== '' &&
        !line.startsWith('--') &&
        !line.startsWith('SET ') &&
        !line.startsWith('SELECT pg_catalog.set_config') &&
        !/^\\(un)?restrict /.test(line),
    );
  const schema: string[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    schema.push(lines[index]);
    if (!/^CREATE (UNLOGGED )?TABLE .* \($/.test(lines[index])) continue;
    const columns: string[] = [];
    while (index + 1 < lines.length && !lines[index + 1].startsWith(')')) {
      columns.push(lines[(index += 1)].replace(/,$/, ''));
    }
    schema.push(...columns.sort());
  }
  return schema;
}

describe('Every migration can be reverted', () => {
  let name: string;

  beforeAll(async () => {
    name = `${testDatabasePrefix()}${process.pid}_down_${randomBytes(4).toString('hex')}`;
    await withAdmin((client) => client.query(`CREATE DATABASE "${name}"`));
  });
  afterAll(async () => {
    await dropDatabase(name);
  });

  it("each migration's down restores the schema before its up, and up runs again after", async () => {
    const migrations = await migrationClasses(name);
    expect(migrations.length).toBeGreaterThan(0);
    const names = migrations.map((migration) => migration.name);

    // Up, one migration at a time: schemas[i] is the schema before migration i.
    const schemas = [await schemaOf(name)];
    for (let index = 0; index < migrations.length; index += 1) {
      const upTo = await dataSourceFor(name, migrations.slice(0, index + 1));
      try {
        const ran = await upTo.runMigrations({ transaction: 'each' });
        expect(ran.map((migration) => migration.name)).toEqual([names[index]]);
      } finally {
        await upTo.destroy();
      }
      schemas.push(await schemaOf(name));
    }
    const migrated = schemas[migrations.length];
    expect(migrated.some((line) => line.startsWith('CREATE TABLE public.sessions ('))).toBe(true);

    // Down, newest first: after each, the schema before that migration ran.
    const all = await dataSourceFor(name, migrations);
    try {
      for (let index = migrations.length - 1; index >= 0; index -= 1) {
        await all.undoLastMigration({ transaction: 'each' });
        expect({ reverted: names[index], schema: await schemaOf(name) }).toEqual({
          reverted: names[index],
          schema: schemas[index],
        });
      }
      expect(await all.query(`SELECT name FROM ${MIGRATIONS_TABLE}`)).toEqual([]);

      // And up again: nothing a down left behind stands in the way.
      const ran = await all.runMigrations({ transaction: 'each' });
      expect(ran.map((migration) => migration.name)).toEqual(names);
      expect(await schemaOf(name)).toEqual(migrated);
    } finally {
      await all.destroy();
    }
  }, 60_000);
});
