/**
 * The per-key limit's batched storage (BatchedThrottlerStorage, docs/performance.md, "Code shaped
 * by the bench") against what it replaced: @nest-lab/throttler-storage-redis's
 * ThrottlerStorageRedisService, one Redis round trip a request, on the same Redis. The same
 * request sequence on one key, in one process, window = block duration = 60 s:
 *
 * - allow/deny, and X-RateLimit-Remaining (limit − totalHits): **identical**. One process alone is
 *   exact (the batching's documented bound, 2 × P × min(N, R × T), is 0 extra hits with P = 1; the
 *   overshoot with P > 1 is rate-limit-batches.spec.ts's);
 * - Retry-After and X-RateLimit-Reset (whole seconds, rounded up): the library's window opens at
 *   the key's first hit and its block lasts the block duration from the first refusal, ours is
 *   the epoch-aligned window around them. The test starts our window at its first request (our
 *   storage's clock is shifted onto a boundary there), so ours is the library's or **at most 1 s
 *   less** (its clock is read after the library's answer). Past that window they part on purpose:
 *   ours opens the next fixed window at the boundary, the library keeps refusing until the block
 *   ends; not compared.
 */
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import {
  BatchedThrottlerStorage,
  redisCounters,
} from '../../src/common/rate-limit/batched-throttler-storage';
import { RUN_ID_VARIABLE, TEST_DATABASE_ROOT } from '../support/databases';
import { deleteRedisKeys, TEST_REDIS_URL } from '../support/run-environment';

const WINDOW = 60_000;

describe('Batched rate-limit storage against the library it replaced', () => {
  const prefix = `${TEST_DATABASE_ROOT}${process.env[RUN_ID_VARIABLE]}_rate_library_${randomUUID()}:`;
  const redis = new Redis(TEST_REDIS_URL, { keyPrefix: prefix, enableOfflineQueue: false });
  const library = new ThrottlerStorageRedisService(redis);
  const storages: BatchedThrottlerStorage[] = [];

  beforeAll(async () => {
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  });
  afterAll(async () => {
    for (const storage of storages) await storage.onModuleDestroy();
    redis.disconnect();
    await deleteRedisKeys(TEST_REDIS_URL, `${prefix}*`);
  });

  it.each([1, 25, 120])(
    'limit %i: the same decisions, Remaining, and Retry-After within 1 s',
    async (limit) => {
      // Our clock, shifted so that a window boundary falls now (Redis expiries stay in the future).
      const shift = Date.now() % WINDOW;
      const ours = new BatchedThrottlerStorage(redisCounters(redis), {
        now: () => Date.now() - shift,
      });
      storages.push(ours);
      const key = `api-key:${randomUUID()}`;
      let refused = 0;
      for (let i = 0; i < limit + 40; i++) {
        const theirs = await library.increment(`plain:${key}`, WINDOW, limit, WINDOW, 'default');
        const mine = ours.hit(key, WINDOW, limit);
        expect({ i, isBlocked: mine.isBlocked }).toEqual({ i, isBlocked: theirs.isBlocked });
        if (theirs.isBlocked) {
          refused++;
          expect(mine.timeToBlockExpire).toBeLessThanOrEqual(theirs.timeToBlockExpire);
          expect(mine.timeToBlockExpire).toBeGreaterThanOrEqual(theirs.timeToBlockExpire - 1);
        } else {
          expect(Math.max(0, limit - mine.totalHits)).toBe(Math.max(0, limit - theirs.totalHits));
          expect(mine.timeToExpire).toBeLessThanOrEqual(theirs.timeToExpire);
          expect(mine.timeToExpire).toBeGreaterThanOrEqual(theirs.timeToExpire - 1);
        }
        // Let our settles run between requests, as they do between a process's requests.
        if (i % 7 === 0) await ours.idle();
      }
      expect(refused).toBe(40);
    },
  );
});
