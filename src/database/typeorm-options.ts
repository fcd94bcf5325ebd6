import { join } from 'node:path';
import { types } from 'pg';
import { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/config';

/**
 * Compiled (dist/database/*.js) the code is dist/**\/*.js and the migrations dist/migrations/*.js;
 * from source (jest, src/database/*.ts) they are src/**\/*.ts and the top-level migrations/*.ts.
 */
const COMPILED = !__filename.endsWith('.ts');
const SOURCE_ROOT = join(__dirname, '..');
/**
 * Every `*.entity.ts` under src: each module keeps its own entities, and this layer imports none
 * of them (the schema's one TypeScript description lives with the module that owns each table).
 */
const ENTITIES_GLOB = join(SOURCE_ROOT, '**', COMPILED ? '*.entity.js' : '*.entity.ts');
const MIGRATIONS_GLOB = COMPILED
  ? join(SOURCE_ROOT, 'migrations', '*.js')
  : join(SOURCE_ROOT, '..', 'migrations', '*.ts');

const INT8_OID = 20;

/**
 * Type parsers of our own pool: `bigint` (int8) values are read as JavaScript numbers. Every
 * bigint we store is an identifier or a count that fits in 2^53 (docs/design.md: group ids are JSON
 * numbers), so entities describe them as `number` and rows need no conversion. Scoped to this
 * pool, not set globally on `pg`.
 */
export const POOL_TYPES: Pick<typeof types, 'getTypeParser'> = {
  getTypeParser: (oid: number, format?: 'text' | 'binary'): ((value: string) => unknown) =>
    oid === INT8_OID && format !== 'binary'
      ? Number
      : (types.getTypeParser(oid, format) as (value: string) => unknown),
};

export function buildDataSourceOptions(
  config: AppConfig,
  overrides: { poolSize?: number } = {},
): DataSourceOptions {
  return {
    type: 'postgres',
    url: config.database.url,
    entities: [ENTITIES_GLOB],
    migrations: [MIGRATIONS_GLOB],
    migrationsTableName: 'typeorm_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    // The schema is the migrations' alone: TypeORM would otherwise create the uuid-ossp extension
    // at every connection for the entities' uuid keys, which use PostgreSQL's own
    // gen_random_uuid().
    installExtensions: false,
    logging: false,
    extra: {
      max: overrides.poolSize ?? config.database.poolSize,
      connectionTimeoutMillis: 5_000,
      application_name: 'checkin-service',
      types: POOL_TYPES,
    },
  };
}
