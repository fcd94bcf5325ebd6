/**
 * The PostgreSQL pool's figures as a scrape shows them (Database.poolUse, ProcessMeasurements;
 * docs/operations.md, "Metrics"), on real `pg` pools. `checkin_db_pool_waiting_requests` counts
 * the queries waiting because all DB_POOL_SIZE connections are in use:
 * - queries made while connections are idle do not wait (pg-pool queues them for one tick, and
 *   its own `waitingCount` counts them): an idle pool reads 0, also when the scrape's earlier
 *   figures have just started their backlog queries, as the webhook and email figures do;
 * - with every connection in use, each further query waits and is counted, and 0 again once the
 *   connections are released;
 * - of many queries made at once, exactly those beyond the idle connections and the room for new
 *   ones wait.
 */
import { Pool } from 'pg';
import { Measurements, scrapeReading } from '../../src/common/measurements/measurements';
import { Database } from '../../src/database/database';
import { POOL_TYPES } from '../../src/database/typeorm-options';
import { ProcessMeasurements } from '../../src/operations/process-measurements';
import type { Readiness, ReadinessReport } from '../../src/operations/readiness';
import { databaseUrl } from '../support/databases';
import { parseMetrics } from '../support/operations';
import { TestDatabase } from './support';

const WAITING = 'checkin_db_pool_waiting_requests';

/** Resolves once `condition` holds, checking at each turn of the event loop (5 s at most). */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * The figures of a process on `db`, scraped as Prometheus does: a backlog figure registered
 * first that queries PostgreSQL at each scrape (as DeliveryMeasurements and EmailMeasurements
 * do, two queries), then ProcessMeasurements, whose readiness runs `SELECT 1` on the pool.
 */
function processFigures(db: Database): () => Promise<Record<string, number>> {
  const measurements = new Measurements();
  const backlog = scrapeReading(() =>
    Promise.all([db.rows('SELECT 1 AS due'), db.rows('SELECT 1 AS pending')]),
  );
  measurements.gauge({
    name: 'test_backlog',
    help: 'Read from PostgreSQL when scraped.',
    async collect() {
      this.set((await backlog())?.length ?? NaN);
    },
  });
  const ready: ReadinessReport = {
    status: 'ready',
    checks: { postgresql: 'ok', redis: 'ok', shutdown: 'running' },
  };
  const readiness = { check: () => db.rows('SELECT 1').then(() => ready) };
  new ProcessMeasurements(measurements, db, readiness as unknown as Readiness);
  return async () =>
    Object.fromEntries(
      parseMetrics(await measurements.registry.metrics())
        .filter((sample) => sample.name.startsWith('checkin_db_pool_'))
        .map((sample) => [sample.name, sample.value]),
    );
}

describe('The PostgreSQL pool figures (real pg pools)', () => {
  let t: TestDatabase;
  const pools: Pool[] = [];

  beforeAll(async () => {
    t = await TestDatabase.create();
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await t.close();
  });

  /** A Database on a pool of `max` (DB_POOL_SIZE) connections, `open` of them open and idle. */
  async function openDatabase(max: number, open = max): Promise<Database> {
    const pool = new Pool({ connectionString: databaseUrl(t.name), types: POOL_TYPES, max });
    pools.push(pool);
    const clients = await Promise.all(Array.from({ length: open }, () => pool.connect()));
    for (const client of clients) client.release();
    return new Database(pool);
  }

  it('an idle pool reads 0 waiting at every scrape, though the scrape itself starts queries', async () => {
    const db = await openDatabase(3);
    const scrape = processFigures(db);
    for (let i = 0; i < 5; i += 1) {
      expect(await scrape()).toEqual({
        checkin_db_pool_connections: 3,
        checkin_db_pool_idle_connections: 3,
        [WAITING]: 0,
        checkin_db_pool_max_connections: 3,
      });
    }
  });

  it('queries handed an idle connection on the next tick are not waiting', async () => {
    const db = await openDatabase(3);
    const queries = [db.rows('SELECT 1'), db.rows('SELECT 2')];
    expect(db.poolUse()).toEqual({ total: 3, idle: 3, waiting: 0, max: 3 });
    await Promise.all(queries);
  });

  it('with every connection in use, each further query waits and is counted; 0 once released', async () => {
    const db = await openDatabase(2);
    const scrape = processFigures(db);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holders = [db.transaction(() => held), db.transaction(() => held)];
    await until(() => db.poolUse().idle === 0);
    expect(db.poolUse()).toEqual({ total: 2, idle: 0, waiting: 0, max: 2 });

    const queries = [1, 2, 3].map((n) => db.rows(`SELECT ${n}`));
    expect(db.poolUse()).toEqual({ total: 2, idle: 0, waiting: 3, max: 2 });
    // The scrape's own backlog queries wait too, behind the three.
    const scraped = scrape();
    release();
    await Promise.all([...holders, ...queries]);
    expect((await scraped)[WAITING]).toBeGreaterThanOrEqual(3);
    await until(() => db.poolUse().idle === 2);
    expect(await scrape()).toMatchObject({ [WAITING]: 0 });
  });

  it('of many queries at once, exactly those beyond the idle connections and the room left wait', async () => {
    // A pool of 4 with 2 connections open: 2 queries get them, 2 get new ones, 3 wait.
    const db = await openDatabase(4, 2);
    const queries = Array.from({ length: 7 }, (_, n) => db.rows(`SELECT ${n}`));
    expect(db.poolUse()).toEqual({ total: 2, idle: 2, waiting: 3, max: 4 });
    // On the next tick pg-pool has handed out what it could: the same 3 wait, now in its own count.
    await new Promise((resolve) => setImmediate(resolve));
    expect(db.poolUse()).toEqual({ total: 4, idle: 0, waiting: 3, max: 4 });
    await Promise.all(queries);
  });
});
