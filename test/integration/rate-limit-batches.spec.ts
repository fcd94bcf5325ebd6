/**
 * The per-key limit's batched storage against the real Redis (docs/performance.md): two storages stand
 * for two API processes sharing one counter through `redisCounters`, with real timers. A test
 * waits for the storages to be done settling (every hit sent, answered and read back), never for
 * a number of settle intervals.
 */
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import {
  BatchedThrottlerStorage,
  redisCounters,
} from '../../src/common/rate-limit/batched-throttler-storage';
import { RUN_ID_VARIABLE, TEST_DATABASE_ROOT } from '../support/databases';
import { deleteRedisKeys, TEST_REDIS_URL } from '../support/run-environment';
import { eventually } from '../support/webhook-receiver';

const WINDOW = 600_000;

/**
 * The storages' clock (their `now` option): the real one, moved back out of a window's last 5 s
 * when the file starts there, so that no boundary falls in the middle of a test (windows are
 * aligned on the epoch). Moved back by at most 5 s, a window's end stays in the future, so the
 * keys still expire with their window in Redis's real time.
 */
const shift = WINDOW - (Date.now() % WINDOW) < 5_000 ? 5_000 : 0;
const now = () => Date.now() - shift;

/** Resolves once none of `storages` has a settle under way or waiting on its timer. */
const settled = (storages: BatchedThrottlerStorage[]) =>
  eventually(async () => {
    for (const storage of storages) {
      await storage.idle();
      expect(storage.hasTimer).toBe(false);
    }
  });

describe('Batched rate-limit counters on Redis', () => {
  // In the run's Redis database, under the run's prefix (test/support/run-environment.ts).
  const prefix = `${TEST_DATABASE_ROOT}${process.env[RUN_ID_VARIABLE]}_rate_batches_${randomUUID()}:`;
  const redis = new Redis(TEST_REDIS_URL, { keyPrefix: prefix, enableOfflineQueue: false });
  const processes = [
    new BatchedThrottlerStorage(redisCounters(redis), { now }),
    new BatchedThrottlerStorage(redisCounters(redis), { now }),
  ];

  beforeAll(async () => {
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  });
  afterAll(async () => {
    for (const storage of processes) await storage.onModuleDestroy();
    redis.disconnect();
    await deleteRedisKeys(TEST_REDIS_URL, `${prefix}*`);
  });

  it('two processes share one budget: the overshoot stays within 2 × P × N', async () => {
    const limit = 500; // N = ⌈500 / 100⌉ = 5
    const key = `api-key:${randomUUID()}`;
    let admitted = 0;
    // Concurrent bursts at both, with the settle timers running, until both refuse.
    for (let round = 0; round < 100; round++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => processes[i % 2].increment(key, WINDOW, limit)),
      );
      admitted += answers.filter((answer) => !answer.isBlocked).length;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // Both have sent every hit they admitted and read the total back.
    await settled(processes);
    expect(admitted).toBeGreaterThanOrEqual(limit);
    expect(admitted).toBeLessThanOrEqual(limit + 2 * 2 * 5);
    // Redis holds every admitted hit, in the window's aligned key, expiring after the window.
    const redisKey = `${key}:${Math.floor(now() / WINDOW)}`;
    expect(Number(await redis.get(redisKey))).toBe(admitted);
    const ttl = await redis.pttl(redisKey);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(WINDOW + 5_000);
    for (const storage of processes) {
      expect((await storage.increment(key, WINDOW, limit)).isBlocked).toBe(true);
    }
  });

  it('a lone busy key costs one round trip per settle, not one per request', async () => {
    const key = `api-key:${randomUUID()}`;
    const monitor = jest.spyOn(redis, 'pipeline');
    for (let i = 0; i < 2_000; i++) await processes[0].increment(key, WINDOW, 1_000_000_000);
    // Settled at the next settle interval, then read back once: every round trip the storage
    // makes until it is done is counted.
    await settled(processes);
    expect(monitor.mock.calls.length).toBeLessThanOrEqual(2);
    monitor.mockRestore();
    expect(Number(await redis.get(`${key}:${Math.floor(now() / WINDOW)}`))).toBe(2_000);
  });
});
