"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ensureDatabaseExists = ensureDatabaseExists;
exports.runMigrationsLocked = runMigrationsLocked;
exports.prepareDatabase = prepareDatabase;
/**
 * Start-up database preparation: create the database when it is missing, then run pending
 * migrations under a PostgreSQL advisory lock so that processes starting together do not race
 * (the first runs them, the others wait and find nothing left to do).
 */
const pg_1 = require("pg");
const typeorm_1 = require("typeorm");
const typeorm_options_1 = require("./typeorm-options");
const dependency_errors_1 = require("./dependency-errors");
/** Arbitrary, fixed key of the migration advisory lock ("ckin" in ASCII). */
const MIGRATION_LOCK_KEY = 0x636b696e;
const INVALID_CATALOG_NAME = '3D000';
const DUPLICATE_DATABASE = '42P04';
const UNIQUE_VIOLATION = '23505';
function unavailable(url, error) {
    return new dependency_errors_1.DependencyUnavailableError('PostgreSQL', (0, dependency_errors_1.describeLocation)(url), (0, dependency_errors_1.describeReason)(error));
}
async function connect(url) {
    const client = new pg_1.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    try {
        await client.connect();
        return client;
    }
    catch (error) {
        await client.end().catch(() => undefined);
        throw error;
    }
}
/** Creates the configured database when it does not exist yet. */
async function ensureDatabaseExists(databaseUrl) {
    try {
        const client = await connect(databaseUrl);
        await client.end();
        return false;
    }
    catch (error) {
        if (error.code !== INVALID_CATALOG_NAME) {
            throw unavailable(databaseUrl, error);
        }
    }
    const url = new URL(databaseUrl);
    const databaseName = decodeURIComponent(url.pathname.replace(/^\//, ''));
    url.pathname = '/postgres';
    let admin;
    try {
        admin = await connect(url.toString());
    }
    catch (error) {
        throw unavailable(databaseUrl, error);
    }
    try {
        await admin.query(`CREATE DATABASE "${databaseName.replace(/"/g, '""')}"`);
        return true;
    }
    catch (error) {
        const code = error.code;
        // Another process created it at the same moment.
        if (code === DUPLICATE_DATABASE || code === UNIQUE_VIOLATION)
            return false;
        throw error;
    }
    finally {
        await admin.end();
    }
}
/** Runs pending migrations while holding the advisory lock; returns the names it ran. */
async function runMigrationsLocked(config) {
    const dataSource = new typeorm_1.DataSource({
        ...(0, typeorm_options_1.buildDataSourceOptions)(config),
        extra: { max: 2, connectionTimeoutMillis: 5_000 },
    });
    try {
        await dataSource.initialize();
    }
    catch (error) {
        throw unavailable(config.database.url, error);
    }
    const lockRunner = dataSource.createQueryRunner();
    try {
        await lockRunner.connect();
        await lockRunner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        try {
            const ran = await dataSource.runMigrations({ transaction: 'each' });
            return ran.map((migration) => migration.name);
        }
        finally {
            await lockRunner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
        }
    }
    finally {
        await lockRunner.release();
        await dataSource.destroy();
    }
}
async function prepareDatabase(config) {
    const created = await ensureDatabaseExists(config.database.url);
    const migrationsRun = config.database.migrateOnStart ? await runMigrationsLocked(config) : [];
    return { created, migrationsRun };
}
//# sourceMappingURL=prepare-database.js.map