import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/config';
import { buildDataSourceOptions } from '../src/database/typeorm-options';
import {
  createTestDatabase,
  databaseUrl,
  dropDatabase,
  testDatabasePrefix,
  withAdmin,
} from './support/databases';

/** TypeORM's own record of the migrations it ran: not part of the schema. */
const MIGRATIONS_TABLE = 'typeorm_migrations';

const dataSourceFor = (name: string): Promise<DataSource> =>
  new DataSource(
    buildDataSourceOptions(loadConfig({ NODE_ENV: 'test', DATABASE_URL: databaseUrl(name) })),
  ).initialize();

/** The statements `migration:generate` would emit: none while the entities match the database. */
const pendingSchemaChanges = async (dataSource: DataSource): Promise<string[]> =>
  (await dataSource.driver.createSchemaBuilder().log()).upQueries.map(({ query }) => query);

/**
 * Everything in the database that PostgreSQL did not create itself, as `kind name` lines:
 * schemas, relations (tables, sequences, indexes, views), functions, types and extensions.
 * TypeORM's migrations table (with its sequence, key and row types) is left out.
 */
async function userObjects(dataSource: DataSource): Promise<string[]> {
  const rows = await dataSource.query<{ object: string }[]>(
    `WITH own AS (SELECT oid, nspname FROM pg_namespace
                   WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema')
     SELECT 'schema ' || nspname AS object FROM own WHERE nspname <> 'public'
     UNION ALL
     SELECT (CASE c.relkind WHEN 'r' THEN 'table' WHEN 'S' THEN 'sequence' WHEN 'i' THEN 'index'
                            ELSE 'relation ' || c.relkind::text END) || ' ' || n.nspname || '.' || c.relname
       FROM pg_class c JOIN own n ON n.oid = c.relnamespace
      WHERE c.relname NOT LIKE $1::text || '%'
        AND c.oid NOT IN (SELECT indexrelid FROM pg_index WHERE indrelid = to_regclass($1::text))
     UNION ALL
     SELECT 'function ' || n.nspname || '.' || p.oid::regprocedure::text
       FROM pg_proc p JOIN own n ON n.oid = p.pronamespace
     UNION ALL
     SELECT 'type ' || n.nspname || '.' || t.typname
       FROM pg_type t JOIN own n ON n.oid = t.typnamespace
      WHERE t.typname::text NOT IN ($1::text, '_' || $1::text)
     UNION ALL
     SELECT 'extension ' || extname FROM pg_extension WHERE extname <> 'plpgsql'
     ORDER BY 1`,
    [MIGRATIONS_TABLE],
  );
  return rows.map((row) => row.object);
}

/**
 * The migrations are the schema; the entities describe it for `npm run migration:generate`. If the
 * two drift apart, generate would emit spurious changes: this fails first. And the migrations run
 * both ways: up on an empty database gives the entities' schema, down leaves it empty again.
 */
describe('The migrations match the entities', () => {
  describe('on the migrated database every test copies', () => {
    let name: string;
    let dataSource: DataSource;

    beforeAll(async () => {
      name = await createTestDatabase();
      dataSource = await dataSourceFor(name);
    });
    afterAll(async () => {
      await dataSource.destroy();
      await dropDatabase(name);
    });

    it('the entities match the migrated database exactly', async () => {
      expect(await pendingSchemaChanges(dataSource)).toEqual([]);
    });

    it('has no pending migrations', async () => {
      expect(await dataSource.showMigrations()).toBe(false);
    });
  });

  describe('on an empty database', () => {
    let name: string;
    let dataSource: DataSource;

    beforeAll(async () => {
      name = `${testDatabasePrefix()}${process.pid}_empty_${randomBytes(4).toString('hex')}`;
      await withAdmin((client: Client) => client.query(`CREATE DATABASE "${name}"`));
      dataSource = await dataSourceFor(name);
    });
    afterAll(async () => {
      await dataSource.destroy();
      await dropDatabase(name);
    });

    it("up gives the entities' schema, and down removes all of it", async () => {
      expect(await userObjects(dataSource)).toEqual([]);

      const ran = await dataSource.runMigrations({ transaction: 'each' });
      expect(ran.length).toBeGreaterThan(0);
      expect(await pendingSchemaChanges(dataSource)).toEqual([]);
      const created = await userObjects(dataSource);
      const entityTables = dataSource.entityMetadatas.map(({ tableName }) => tableName);
      expect(created.filter((object) => object.startsWith('table ')).sort()).toEqual(
        entityTables.map((table) => `table public.${table}`).sort(),
      );
      expect(created).toContain('function public.feature_bucket(double precision)');
      expect(created).toContain('sequence public.groups_group_id_seq');

      for (let left = ran.length; left > 0; left -= 1) await dataSource.undoLastMigration();
      expect(await dataSource.query(`SELECT name FROM ${MIGRATIONS_TABLE}`)).toEqual([]);
      expect(await userObjects(dataSource)).toEqual([]);
    });
  });
});
