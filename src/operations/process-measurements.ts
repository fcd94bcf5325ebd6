import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics } from 'prom-client';
import { Measurements, scrapeReading } from '../common/measurements/measurements';
import { Database } from '../database/database';
import { Readiness } from './readiness';

/** The pool's figures: name, the field of Database.poolUse() it shows, help. */
const POOL_GAUGES: [string, keyof ReturnType<Database['poolUse']>, string][] = [
  [
    'checkin_db_pool_connections',
    'total',
    "Connections open in the process's PostgreSQL pool, in use or idle.",
  ],
  ['checkin_db_pool_idle_connections', 'idle', 'Open connections of the pool that are idle.'],
  [
    'checkin_db_pool_waiting_requests',
    'waiting',
    'Queries waiting for a connection of the pool (all DB_POOL_SIZE in use).',
  ],
  ['checkin_db_pool_max_connections', 'max', 'The most connections the pool opens (DB_POOL_SIZE).'],
];

/**
 * The figures every long-running process exposes (docs/operations.md, "Metrics"): Node's default
 * process metrics (CPU, memory, event-loop lag, garbage collection, handles), the PostgreSQL pool's
 * use, read when Prometheus scrapes, and readiness as `/readyz` reports it.
 */
@Injectable()
export class ProcessMeasurements {
  constructor(measurements: Measurements, db: Database, readiness: Readiness) {
    collectDefaultMetrics({ register: measurements.registry });
    for (const [name, field, help] of POOL_GAUGES) {
      measurements.gauge({
        name,
        help,
        collect() {
          this.set(db.poolUse()[field]);
        },
      });
    }
    const report = scrapeReading(() => readiness.check());
    measurements.gauge({
      name: 'checkin_ready',
      help: '1 when the process is ready, as /readyz says (PostgreSQL and Redis answer, not draining); else 0.',
      async collect() {
        this.set((await report())?.status === 'ready' ? 1 : 0);
      },
    });
    measurements.gauge({
      name: 'checkin_dependency_up',
      help: '1 when the dependency answers the readiness check (PostgreSQL: SELECT 1, Redis: PING), else 0.',
      labelNames: ['dependency'],
      async collect() {
        const checks = (await report())?.checks;
        this.set({ dependency: 'postgresql' }, checks?.postgresql === 'ok' ? 1 : 0);
        this.set({ dependency: 'redis' }, checks?.redis === 'ok' ? 1 : 0);
      },
    });
  }
}
