/**
 * The figures every long-running process exposes (ProcessMeasurements), with the pool and the
 * readiness check faked, read as Prometheus scrapes them:
 * - the PostgreSQL pool's connections, idle connections, waiting requests and maximum, read at
 *   each scrape (not at start-up);
 * - `checkin_ready` 1 exactly when `/readyz` would say ready, and `checkin_dependency_up` 1 or 0
 *   for postgresql and redis, from one readiness check per scrape;
 * - a readiness check that fails shows 0 everywhere and still lets the scrape answer;
 * - Node's default process metrics are there.
 */
import type { Database } from '../database/database';
import { Measurements } from '../common/measurements/measurements';
import { ProcessMeasurements } from './process-measurements';
import type { Readiness, ReadinessReport } from './readiness';

type PoolUse = ReturnType<Database['poolUse']>;

function setUp(report: () => Promise<ReadinessReport>) {
  const measurements = new Measurements();
  let pool: PoolUse = { total: 0, idle: 0, waiting: 0, max: 10 };
  const db = { poolUse: () => pool } as unknown as Database;
  const check = jest.fn(report);
  new ProcessMeasurements(measurements, db, { check } as unknown as Readiness);
  return {
    check,
    setPool: (use: PoolUse) => (pool = use),
    scrape: () => measurements.registry.metrics(),
  };
}

const report = (
  postgresql: 'ok' | 'unavailable',
  redis: 'ok' | 'unavailable',
  shutdown: 'running' | 'draining' = 'running',
): ReadinessReport => ({
  status: postgresql === 'ok' && redis === 'ok' && shutdown === 'running' ? 'ready' : 'not ready',
  checks: { postgresql, redis, shutdown },
});

/** The sample lines of the figures named, in the scrape's order. */
const samples = (text: string, ...names: string[]): string[] =>
  text
    .split('\n')
    .filter((line) =>
      names.some((name) => line.startsWith(`${name} `) || line.startsWith(`${name}{`)),
    );

describe('ProcessMeasurements', () => {
  it("shows the pool's use as it is at each scrape", async () => {
    const { scrape, setPool } = setUp(() => Promise.resolve(report('ok', 'ok')));
    setPool({ total: 7, idle: 2, waiting: 3, max: 20 });
    const pool = [
      'checkin_db_pool_connections',
      'checkin_db_pool_idle_connections',
      'checkin_db_pool_waiting_requests',
      'checkin_db_pool_max_connections',
    ];
    expect(samples(await scrape(), ...pool)).toEqual([
      'checkin_db_pool_connections 7',
      'checkin_db_pool_idle_connections 2',
      'checkin_db_pool_waiting_requests 3',
      'checkin_db_pool_max_connections 20',
    ]);
    setPool({ total: 1, idle: 1, waiting: 0, max: 20 });
    expect(samples(await scrape(), ...pool)).toEqual([
      'checkin_db_pool_connections 1',
      'checkin_db_pool_idle_connections 1',
      'checkin_db_pool_waiting_requests 0',
      'checkin_db_pool_max_connections 20',
    ]);
  });

  it.each([
    ['ready', 1, 1, 1, report('ok', 'ok')],
    ['PostgreSQL down', 0, 0, 1, report('unavailable', 'ok')],
    ['Redis down', 0, 1, 0, report('ok', 'unavailable')],
    ['draining', 0, 1, 1, report('ok', 'ok', 'draining')],
    ['all down, draining', 0, 0, 0, report('unavailable', 'unavailable', 'draining')],
  ])(
    '%s: checkin_ready %i, postgresql up %i, redis up %i, from one check per scrape',
    async (_, ready, postgresql, redis, readiness) => {
      const { scrape, check } = setUp(() => Promise.resolve(readiness));
      expect(samples(await scrape(), 'checkin_ready', 'checkin_dependency_up')).toEqual([
        `checkin_ready ${ready}`,
        `checkin_dependency_up{dependency="postgresql"} ${postgresql}`,
        `checkin_dependency_up{dependency="redis"} ${redis}`,
      ]);
      expect(check).toHaveBeenCalledTimes(1);
    },
  );

  it('asks readiness again at every scrape, never at start-up', async () => {
    let answer = report('ok', 'ok');
    const { scrape, check } = setUp(() => Promise.resolve(answer));
    expect(check).not.toHaveBeenCalled();
    expect(samples(await scrape(), 'checkin_ready')).toEqual(['checkin_ready 1']);
    answer = report('ok', 'unavailable');
    expect(samples(await scrape(), 'checkin_ready')).toEqual(['checkin_ready 0']);
    expect(check).toHaveBeenCalledTimes(2);
  });

  it('shows 0 everywhere when the readiness check itself fails, and the scrape still answers', async () => {
    const { scrape } = setUp(() => Promise.reject(new Error('unexpected')));
    expect(samples(await scrape(), 'checkin_ready', 'checkin_dependency_up')).toEqual([
      'checkin_ready 0',
      'checkin_dependency_up{dependency="postgresql"} 0',
      'checkin_dependency_up{dependency="redis"} 0',
    ]);
  });

  it("exposes Node's default process metrics", async () => {
    const { scrape } = setUp(() => Promise.resolve(report('ok', 'ok')));
    const text = await scrape();
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(samples(text, name)).toHaveLength(1);
    }
  });
});
