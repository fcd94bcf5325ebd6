import {
  BatchedThrottlerStorage,
  type CounterBatch,
  SETTLE_INTERVAL_MS,
  type SharedCounters,
} from './batched-throttler-storage';

/** Redis's INCRBY in memory, shared by the storages given it; `down` makes it refuse. */
class FakeRedis implements SharedCounters {
  readonly totals = new Map<string, number>();
  readonly calls: CounterBatch[][] = [];
  down = false;

  add(batches: CounterBatch[]): Promise<(number | Error)[]> {
    this.calls.push(batches);
    if (this.down) return Promise.reject(new Error('Connection is closed.'));
    return Promise.resolve(
      batches.map(({ key, hits }) => {
        const total = (this.totals.get(key) ?? 0) + hits;
        this.totals.set(key, total);
        return total;
      }),
    );
  }
}

const WINDOW = 60_000;
const T0 = 1_800_000_000_000; // a window boundary (a multiple of 60 000)

describe('BatchedThrottlerStorage', () => {
  let clock: number;
  const storages: BatchedThrottlerStorage[] = [];
  const storage = (redis: SharedCounters) => {
    const created = new BatchedThrottlerStorage(redis, { now: () => clock });
    storages.push(created);
    return created;
  };
  const hit = (s: BatchedThrottlerStorage, limit = 1000, key = 'api-key:a') =>
    s.increment(key, WINDOW, limit);

  beforeEach(() => {
    clock = T0;
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  });
  afterEach(async () => {
    for (const s of storages.splice(0)) await s.onModuleDestroy();
    jest.useRealTimers();
  });

  it('decides locally, counting down Remaining one by one, and refuses past the limit', async () => {
    const redis = new FakeRedis();
    const s = storage(redis);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await hit(s, 5));
    expect(answers.map((a) => [a.totalHits, a.isBlocked])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, false],
      [5, false],
      [6, true],
    ]);
    // Retry-After and X-RateLimit-Reset: seconds to the window's end.
    expect(answers[5]).toMatchObject({ timeToBlockExpire: 60, timeToExpire: 60 });
    clock += 59_500;
    expect(await hit(s, 5)).toMatchObject({ isBlocked: true, timeToBlockExpire: 1 });
  });

  it('settles in batches: one call per interval for every key touched, not one per request', async () => {
    const redis = new FakeRedis();
    const s = storage(redis);
    for (let i = 0; i < 50; i++) await hit(s, 100_000);
    for (let i = 0; i < 20; i++) await hit(s, 100_000, 'api-key:b');
    expect(redis.calls).toHaveLength(0);
    expect(s.hasTimer).toBe(true);

    await jest.advanceTimersByTimeAsync(SETTLE_INTERVAL_MS);
    await s.idle();
    expect(redis.calls).toEqual([
      [
        { key: `api-key:a:${T0 / WINDOW}`, hits: 50, expireAtMs: T0 + WINDOW + 5_000 },
        { key: `api-key:b:${T0 / WINDOW}`, hits: 20, expireAtMs: T0 + WINDOW + 5_000 },
      ],
    ]);
    // Nothing new: one more read of the totals (what the others added meanwhile), then no timer.
    await jest.advanceTimersByTimeAsync(SETTLE_INTERVAL_MS);
    await s.idle();
    expect(redis.calls[1].map((batch) => batch.hits)).toEqual([0, 0]);
    expect(s.hasTimer).toBe(false);
    await jest.advanceTimersByTimeAsync(10 * SETTLE_INTERVAL_MS);
    expect(redis.calls).toHaveLength(2);
  });

  it('settles early when a key has 1/100 of its limit unsettled', async () => {
    const redis = new FakeRedis();
    const s = storage(redis);
    for (let i = 0; i < 9; i++) await hit(s, 1000);
    expect(redis.calls).toHaveLength(0);
    await hit(s, 1000);
    await s.idle();
    expect(redis.calls.map((call) => call[0].hits)).toEqual([10]);
  });

  it('learns the shared total: two processes share one budget, within the bound', async () => {
    const redis = new FakeRedis();
    const [a, b] = [storage(redis), storage(redis)];
    const limit = 1000; // N = 10: each may settle early after 10 hits
    let admitted = 0;
    // Interleaved traffic, with settle ticks; more than twice the budget is asked for.
    for (let round = 0; round < 200; round++) {
      for (const s of [a, b]) {
        for (let i = 0; i < 6; i++) if (!(await hit(s, limit)).isBlocked) admitted++;
      }
      await jest.advanceTimersByTimeAsync(10);
      await Promise.all([a.idle(), b.idle()]);
    }
    // Documented bound: limit + 2 × P × N (P = 2, N = 10).
    expect(admitted).toBeGreaterThanOrEqual(limit);
    expect(admitted).toBeLessThanOrEqual(limit + 2 * 2 * 10);
    // Both now refuse: each learned the other's hits.
    expect((await hit(a, limit)).isBlocked).toBe(true);
    expect((await hit(b, limit)).isBlocked).toBe(true);
  });

  it('once traffic stops, every process knows the final total within two intervals', async () => {
    const redis = new FakeRedis();
    const [a, b] = [storage(redis), storage(redis)];
    for (let i = 0; i < 3; i++) await hit(a, 10);
    await jest.advanceTimersByTimeAsync(SETTLE_INTERVAL_MS / 2);
    for (let i = 0; i < 2; i++) await hit(b, 10);
    await jest.advanceTimersByTimeAsync(2 * SETTLE_INTERVAL_MS);
    await Promise.all([a.idle(), b.idle()]);
    expect((await hit(a, 10)).totalHits).toBe(6);
    expect((await hit(b, 10)).totalHits).toBe(6); // 5 settled + its own new one (a's is not seen yet)
  });

  it('one process alone never exceeds the limit, whatever the settles do', async () => {
    const redis = new FakeRedis();
    const s = storage(redis);
    let admitted = 0;
    for (let i = 0; i < 500; i++) {
      if (!(await hit(s, 123)).isBlocked) admitted++;
      if (i % 7 === 0) await jest.advanceTimersByTimeAsync(SETTLE_INTERVAL_MS);
    }
    expect(admitted).toBe(123);
    await s.idle();
    expect(redis.totals.get(`api-key:a:${T0 / WINDOW}`)).toBe(123);
  });

  it('starts a new count at the window boundary and forgets past windows', async () => {
    const redis = new FakeRedis();
    const s = storage(redis);
    for (let i = 0; i < 3; i++) await hit(s, 3);
    expect((await hit(s, 3)).isBlocked).toBe(true);
    clock = T0 + WINDOW; // the next window
    expect(await hit(s, 3)).toMatchObject({ isBlocked: false, totalHits: 1, timeToExpire: 60 });
    await jest.advanceTimersByTimeAsync(SETTLE_INTERVAL_MS);
    await s.idle();
    expect(s.size).toBe(1);
    expect(redis.totals.get(`api-key:a:${T0 / WINDOW + 1}`)).toBe(1);
  });

  it('fails open when Redis does not answer, keeps the counts and settles them later', async () => {
    const redis = new FakeRedis();
    redis.down = true;
    const s = storage(redis);
    const warn = jest.spyOn(s['logger'], 'warn').mockImplementation(() => undefined);
    for (let i = 0; i < 4; i++) expect((await hit(s, 100)).isBlocked).toBe(false);
    await jest.advanceTimersByTimeAsync(SETTLE_INTERVAL_MS);
    await s.idle();
    for (let i = 0; i < 4; i++) expect((await hit(s, 100)).isBlocked).toBe(false);
    // Failing: only the timer retries (the early-settle share, 1 hit, does not cause calls).
    const callsWhileDown = redis.calls.length;
    await jest.advanceTimersByTimeAsync(3 * SETTLE_INTERVAL_MS);
    await s.idle();
    expect(redis.calls.length - callsWhileDown).toBeLessThanOrEqual(3);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toContain('Redis did not answer');

    redis.down = false;
    await jest.advanceTimersByTimeAsync(SETTLE_INTERVAL_MS);
    await s.idle();
    expect(redis.totals.get(`api-key:a:${T0 / WINDOW}`)).toBe(8);
  });

  it('drops the unsettled counts of a window that ended while Redis was away', async () => {
    const redis = new FakeRedis();
    redis.down = true;
    const s = storage(redis);
    jest.spyOn(s['logger'], 'warn').mockImplementation(() => undefined);
    for (let i = 0; i < 5; i++) await hit(s);
    await jest.advanceTimersByTimeAsync(SETTLE_INTERVAL_MS);
    await s.idle();
    clock += WINDOW;
    redis.down = false;
    await jest.advanceTimersByTimeAsync(SETTLE_INTERVAL_MS);
    await s.idle();
    expect(s.size).toBe(0);
    expect(s.hasTimer).toBe(false);
    expect(redis.totals.size).toBe(0);
  });

  it('on shutdown clears its timer and settles what is left', async () => {
    const redis = new FakeRedis();
    const s = storage(redis);
    for (let i = 0; i < 7; i++) await hit(s);
    expect(s.hasTimer).toBe(true);
    await s.onModuleDestroy();
    expect(s.hasTimer).toBe(false);
    expect(jest.getTimerCount()).toBe(0);
    expect(redis.totals.get(`api-key:a:${T0 / WINDOW}`)).toBe(7);
    // Counted after shutdown (a request in flight): no timer is armed again.
    await hit(s);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('does not keep the process alive: its timer is unref-ed', async () => {
    jest.useRealTimers();
    const s = storage(new FakeRedis());
    await hit(s);
    expect((s['timer'] as NodeJS.Timeout).hasRef()).toBe(false);
  });
});
