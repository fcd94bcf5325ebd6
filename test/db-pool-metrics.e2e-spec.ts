/**
 * `checkin_db_pool_waiting_requests` on the built processes (docs/operations.md, "Metrics"): the
 * queries waiting because all DB_POOL_SIZE connections are in use. An idle API (its workers in
 * process, as `npm start` runs it) and an idle worker read 0 at every scrape, though each scrape
 * starts its own backlog queries; a worker with one connection, whose scrape's queries do queue
 * behind each other, reads more than 0.
 */
import { createTestDatabase, dropDatabase } from './support/databases';
import { Scrape } from './support/operations';
import {
  freePort,
  RunningProcess,
  serviceEnv,
  startService,
  startWorkerProcess,
} from './support/processes';

const WAITING = 'checkin_db_pool_waiting_requests';

describe('The PostgreSQL pool figures of running processes', () => {
  let databaseName: string;
  const processes: RunningProcess[] = [];
  const ops = { api: 0, worker: 0, smallWorker: 0 };

  beforeAll(async () => {
    databaseName = await createTestDatabase();
    const env = serviceEnv(databaseName);
    ops.api = await freePort();
    ops.worker = await freePort();
    ops.smallWorker = await freePort();
    processes.push(
      await startService({ ...env, OPS_PORT: String(ops.api) }, await freePort()),
      await startWorkerProcess({ ...env, OPS_PORT: String(ops.worker) }),
      await startWorkerProcess({ ...env, OPS_PORT: String(ops.smallWorker), DB_POOL_SIZE: '1' }),
    );
  }, 60_000);

  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop()));
    await dropDatabase(databaseName);
  });

  it.each([
    ['API', 'api'],
    ['worker', 'worker'],
  ] as const)('an idle %s reads 0 waiting on consecutive scrapes', async (_name, process) => {
    for (let scrape = 0; scrape < 5; scrape += 1) {
      const figures = await Scrape.of(ops[process]);
      // Its scrapes do query PostgreSQL (the webhook and email backlogs): what used to read 2.
      expect(figures.value('checkin_webhook_deliveries_pending', { state: 'due' })).toBe(0);
      expect(figures.value(WAITING)).toBe(0);
    }
  });

  it('a worker with one connection reads more than 0: its scrape queries wait for it', async () => {
    const figures = await Scrape.of(ops.smallWorker);
    expect(figures.value('checkin_db_pool_max_connections')).toBe(1);
    expect(figures.value(WAITING)).toBeGreaterThan(0);
  });
});
