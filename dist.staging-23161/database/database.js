"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Database = exports.statement = void 0;
const statement = (name, text) => Object.freeze({ name, text });
exports.statement = statement;
/** Runs a statement on a pool or a client: a plain string as pg takes it, a named one as a config. */
const run = (on, text, params) => typeof text === 'string'
    ? on.query(text, params)
    : on.query({ name: text.name, text: text.text, values: params });
/**
 * Repositories' way to PostgreSQL: plain SQL on the pool TypeORM owns (TypeORM also owns the
 * entities and the migrations). `DataSource.query()` would create a query runner per statement
 * (measured: 9–28 % of GET /groups throughput) and answers UPDATE/DELETE … RETURNING with
 * `[rows, count]` instead of rows.
 *
 * Transactions: `db.transaction(async (sql) => …)` runs the work on one connection. A repository
 * method that can take part in a caller's transaction takes that `sql` as its **last** parameter,
 * defaulting to the pool (`sql: Sql = this.db`): called without it, it runs on its own. This is
 * the one way a transaction is passed in this codebase.
 */
class Database {
    pool;
    constructor(pool) {
        this.pool = pool;
    }
    /**
     * The pool's connections now (docs/operations.md, "Metrics"): open, idle, requests waiting
     * because all of them are in use, and the most it opens (DB_POOL_SIZE).
     *
     * `waiting` is not pg-pool's `waitingCount`: pg-pool queues every request made while a
     * connection is idle and hands it that connection on the next tick, so `waitingCount` also
     * counts requests about to get an idle connection (a scrape's own backlog queries, started just
     * before this is read, made an idle process show 2). Only the requests beyond what the idle
     * connections and the room for new ones will serve wait for a connection to be released.
     */
    poolUse() {
        const { totalCount, idleCount, waitingCount, options } = this.pool;
        const max = options.max ?? 10;
        const servable = idleCount + Math.max(0, max - totalCount);
        return {
            total: totalCount,
            idle: idleCount,
            waiting: Math.max(0, waitingCount - servable),
            max,
        };
    }
    async rows(text, params) {
        return (await run(this.pool, text, params)).rows;
    }
    /**
     * Rows as arrays, in the statement's column order, for hot lists; the caller builds its own
     * objects, with one literal. pg builds a row object by spreading a template and storing each
     * column by name, sites that turn megamorphic in a process running many statements: for
     * GET /groups' 100 rows, 7–16 µs of the 240–260 µs the client spends on the query
     * (docs/performance.md, "Sixth pass").
     */
    async tuples(text, params) {
        return (await this.pool.query({ text, values: params, rowMode: 'array' })).rows;
    }
    /** Runs `work` in one transaction on one connection; rolls back when it throws. */
    async transaction(work) {
        const client = await this.pool.connect();
        try {
            await client.query('BEGIN');
            const result = await work({
                rows: async (text, params) => (await run(client, text, params)).rows,
            });
            await client.query('COMMIT');
            return result;
        }
        catch (error) {
            await client.query('ROLLBACK').catch(() => undefined);
            throw error;
        }
        finally {
            client.release();
        }
    }
}
exports.Database = Database;
//# sourceMappingURL=database.js.map