import type { ThrottlerStorage } from '@nestjs/throttler';
import { loadConfig } from '../../config/config';
import { ApiError } from '../errors/api-error';
import { CommonErrors } from '../errors/common.errors';
import { AuthFailureLimiter, MAX_BLOCKED_ADDRESSES } from './auth-failure-limiter';
import { Measurements } from '../measurements/measurements';
import { FailOpenThrottlerStorage } from './fail-open-storage';
import { RateLimitRefusals } from './rate-limit-refusals';

type Increment = ThrottlerStorage['increment'];

/** A storage answering like the Redis one: blocked for the window once hits exceed the limit. */
function countingStorage(): { storage: ThrottlerStorage; increment: jest.Mock } {
  const hits = new Map<string, number>();
  const increment = jest.fn<ReturnType<Increment>, Parameters<Increment>>((key, ttl, limit) => {
    const total = (hits.get(key) ?? 0) + 1;
    hits.set(key, total);
    const isBlocked = total > limit;
    return Promise.resolve({
      totalHits: total,
      timeToExpire: ttl / 1000,
      isBlocked,
      timeToBlockExpire: isBlocked ? ttl / 1000 : 0,
    });
  });
  return { storage: { increment }, increment };
}

let measurements = new Measurements();
const limiterWith = (limit: string, storage: ThrottlerStorage) =>
  new AuthFailureLimiter(
    loadConfig({ NODE_ENV: 'test', AUTH_FAILURE_LIMIT: limit }),
    storage,
    new RateLimitRefusals(measurements),
  );

/** checkin_rate_limit_refusals_total{limit="auth_failures"} now. */
const refusalsCounted = async (): Promise<number | undefined> =>
  (
    await measurements.registry.getSingleMetric('checkin_rate_limit_refusals_total')?.get()
  )?.values.find((value) => value.labels.limit === 'auth_failures')?.value;

const statusOf = (error: ApiError) => ({
  status: error.status,
  error: error.message,
  headers: error.headers,
});

describe('AuthFailureLimiter', () => {
  beforeEach(() => (measurements = new Measurements()));
  afterEach(() => jest.useRealTimers());

  it('answers 401 up to the limit, 429 with Retry-After past it, counting per address', async () => {
    const { storage, increment } = countingStorage();
    const limiter = limiterWith('2', storage);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(statusOf(await limiter.refusal('203.0.113.7')));
    expect(answers).toEqual([
      { status: 401, error: CommonErrors.Unauthorized, headers: {} },
      { status: 401, error: CommonErrors.Unauthorized, headers: {} },
      { status: 429, error: CommonErrors.TooManyRequests, headers: { 'retry-after': '60' } },
    ]);
    expect(increment).toHaveBeenLastCalledWith(
      'auth-failures:203.0.113.7',
      60_000,
      2,
      60_000,
      'auth-failures',
    );
    expect((await limiter.refusal('198.51.100.1')).status).toBe(401);
    expect(await refusalsCounted()).toBe(1);
  });

  it('answers the failures of a blocked address from memory, without asking the storage, until the block ends', async () => {
    jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    const { storage, increment } = countingStorage();
    const limiter = limiterWith('1', storage);
    expect((await limiter.refusal('203.0.113.7')).status).toBe(401);
    expect((await limiter.refusal('203.0.113.7')).status).toBe(429);
    const calls = increment.mock.calls.length;

    jest.advanceTimersByTime(45_000);
    expect(statusOf(await limiter.refusal('203.0.113.7'))).toEqual({
      status: 429,
      error: CommonErrors.TooManyRequests,
      headers: { 'retry-after': '15' },
    });
    expect(increment.mock.calls.length).toBe(calls);
    expect((await limiter.refusal('198.51.100.1')).status).toBe(401);

    // The block ends: the next failure is counted again (a new window in the storage).
    jest.advanceTimersByTime(15_000);
    await limiter.refusal('203.0.113.7');
    expect(increment.mock.calls.length).toBe(calls + 2);
  });

  it('remembers at most MAX_BLOCKED_ADDRESSES blocks, forgetting the least recently seen', async () => {
    const increment = jest.fn(() =>
      Promise.resolve({ totalHits: 9, timeToExpire: 60, isBlocked: true, timeToBlockExpire: 60 }),
    );
    const limiter = limiterWith('1', { increment });
    for (let i = 0; i <= MAX_BLOCKED_ADDRESSES; i++) await limiter.refusal(`address-${i}`);
    const asked = increment.mock.calls.length;
    await limiter.refusal(`address-${MAX_BLOCKED_ADDRESSES}`);
    await limiter.refusal('address-1');
    expect(increment.mock.calls.length).toBe(asked); // both still remembered
    await limiter.refusal('address-0');
    expect(increment.mock.calls.length).toBe(asked + 1); // forgotten: asked again
  });

  it('is off with AUTH_FAILURE_LIMIT=0: nothing counted, always 401', async () => {
    const { storage, increment } = countingStorage();
    const limiter = limiterWith('0', storage);
    for (let i = 0; i < 5; i++) expect((await limiter.refusal('203.0.113.7')).status).toBe(401);
    expect(increment).not.toHaveBeenCalled();
  });

  it('fails open when Redis does not answer: 401, and no block', async () => {
    const limiter = limiterWith(
      '1',
      new FailOpenThrottlerStorage({
        increment: () => Promise.reject(new Error('Connection is closed.')),
      }),
    );
    for (let i = 0; i < 3; i++) expect((await limiter.refusal('203.0.113.7')).status).toBe(401);
  });
});
