/**
 * The per-key limit's batched storage against the real Redis (docs/performance.md): two storages stand
 * for two API processes sharing one counter through `redisCounters`, with real timers.
 */
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import {
  BatchedThrottlerStorage,
  redisCounters,
  SETTLE_INTERVAL_MS,
} from '../../src/common/rate-limit/batched-throttler-storage';
import { RUN_ID_VARIABLE, TEST_DATABASE_ROOT } from '../support/databases';
import { deleteRedisKeys, TEST_REDIS_URL } from '../support/run-environment';

const WINDOW = 600_000;

describe('Batched rate-limit counters on Redis', () => {
  // In the run's Redis database, under the run's prefix (test/support/run-environment.ts).
  const prefix = `${TEST_DATABASE_ROOT}${process.env[RUN_ID_VARIABLE]}_rate_batches_${randomUUID()}:`;
  const redis = new Redis(TEST_REDIS_URL, { keyPrefix: prefix, enableOfflineQueue: false });
  const processes = [
    new BatchedThrottlerStorage(redisCounters(redis)),
    new BatchedThrottlerStorage(redisCounters(redis)),
  ];

  beforeAll(async () => {
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
    // Windows are aligned on the epoch: do not start within 5 s of a boundary. (The keys expire
    // with their window.)
    const left = WINDOW - (Date.now() % WINDOW);
    if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
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
    await new Promise((resolve) => setTimeout(resolve, 3 * SETTLE_INTERVAL_MS));
    expect(admitted).toBeGreaterThanOrEqual(limit);
    expect(admitted).toBeLessThanOrEqual(limit + 2 * 2 * 5);
    // Redis holds every admitted hit, in the window's aligned key, expiring after the window.
    const redisKey = `${key}:${Math.floor(Date.now() / WINDOW)}`;
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
    await new Promise((resolve) => setTimeout(resolve, 2 * SETTLE_INTERVAL_MS));
    expect(monitor.mock.calls.length).toBeLessThanOrEqual(2);
    monitor.mockRestore();
    expect(Number(await redis.get(`${key}:${Math.floor(Date.now() / WINDOW)}`))).toBe(2_000);
  });
});
