import type { Pool, PoolClient } from 'pg';

/**
 * A statement PostgreSQL prepares once per connection (parsed and planned on first use there, then
 * only bound and run): for the hot loops, where parsing and planning were a measurable share of
 * each call. It bought PostgreSQL 172–213 → 137–142 µs of CPU a webhook delivery (`node
 * bench/drain-ab.js 6000 4`), and about a fifth of its time a POST /session/create (`node
 * bench/run.js session-create`): docs/performance.md, "Where the time goes" and "Fourth pass";
 * test/integration/bench-shaped-sql.spec.ts pins it to the same SQL unprepared. Its result columns
 * must be named, never `*`: a prepared statement whose result type a migration changed fails until
 * the connection is replaced.
 */
export interface NamedStatement {
  readonly name: string;
  readonly text: string;
}

export const statement = (name: string, text: string): NamedStatement =>
  Object.freeze({ name, text });

/** Something that runs SQL: the pool, or one transaction's connection. */
export interface Sql {
  rows<T>(text: string | NamedStatement, params?: unknown[]): Promise<T[]>;
}

/** Runs a statement on a pool or a client: a plain string as pg takes it, a named one as a config. */
const run = (
  on: Pick<Pool, 'query'> | Pick<PoolClient, 'query'>,
  text: string | NamedStatement,
  params?: unknown[],
) =>
  typeof text === 'string'
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
export class Database implements Sql {
  constructor(private readonly pool: Pool) {}

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
  poolUse(): { total: number; idle: number; waiting: number; max: number } {
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

  async rows<T>(text: string | NamedStatement, params?: unknown[]): Promise<T[]> {
    return (await run(this.pool, text, params)).rows as T[];
  }

  /**
   * Rows as arrays, in the statement's column order, for hot lists; the caller builds its own
   * objects, with one literal. pg builds a row object by spreading a template and storing each
   * column by name, sites that turn megamorphic in a process running many statements: for
   * GET /groups' 100 rows, 7–16 µs of the 240–260 µs the client spends on the query, about 2 % of
   * the request (`node bench/row-mode.js`; docs/performance.md, "Sixth pass"). Pinned to the plain
   * row objects by test/integration/bench-shaped-sql.spec.ts.
   */
  async tuples<T extends unknown[]>(text: string, params?: unknown[]): Promise<T[]> {
    return (await this.pool.query<T>({ text, values: params, rowMode: 'array' })).rows;
  }

  /** Runs `work` in one transaction on one connection; rolls back when it throws. */
  async transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    const client: PoolClient = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work({
        rows: async <R>(text: string | NamedStatement, params?: unknown[]) =>
          (await run(client, text, params)).rows as R[],
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
