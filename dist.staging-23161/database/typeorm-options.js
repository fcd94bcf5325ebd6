"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.POOL_TYPES = void 0;
exports.buildDataSourceOptions = buildDataSourceOptions;
const node_path_1 = require("node:path");
const pg_1 = require("pg");
/**
 * Compiled (dist/database/*.js) the code is dist/**\/*.js and the migrations dist/migrations/*.js;
 * from source (jest, src/database/*.ts) they are src/**\/*.ts and the top-level migrations/*.ts.
 */
const COMPILED = !__filename.endsWith('.ts');
const SOURCE_ROOT = (0, node_path_1.join)(__dirname, '..');
/**
 * Every `*.entity.ts` under src: each module keeps its own entities, and this layer imports none
 * of them (the schema's one TypeScript description lives with the module that owns each table).
 */
const ENTITIES_GLOB = (0, node_path_1.join)(SOURCE_ROOT, '**', COMPILED ? '*.entity.js' : '*.entity.ts');
const MIGRATIONS_GLOB = COMPILED
    ? (0, node_path_1.join)(SOURCE_ROOT, 'migrations', '*.js')
    : (0, node_path_1.join)(SOURCE_ROOT, '..', 'migrations', '*.ts');
const INT8_OID = 20;
/**
 * Type parsers of our own pool: `bigint` (int8) values are read as JavaScript numbers. Every
 * bigint we store is an identifier or a count that fits in 2^53 (docs/design.md: group ids are JSON
 * numbers), so entities describe them as `number` and rows need no conversion. Scoped to this
 * pool, not set globally on `pg`.
 */
exports.POOL_TYPES = {
    getTypeParser: (oid, format) => oid === INT8_OID && format !== 'binary'
        ? Number
        : pg_1.types.getTypeParser(oid, format),
};
function buildDataSourceOptions(config, overrides = {}) {
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
            types: exports.POOL_TYPES,
        },
    };
}
//# sourceMappingURL=typeorm-options.js.map