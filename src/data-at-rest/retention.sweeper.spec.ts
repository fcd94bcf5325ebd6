/**
 * RetentionSweeper's schedule: the first sweep a minute after start-up (or one interval, if
 * shorter), not at once, then every interval; none after shutdown (docs/data-at-rest.md).
 */
import type { AppConfig } from '../config/config';
import type { IdempotencyRepository } from '../sessions/idempotency.repository';
import type { EventsRepository } from '../webhooks/events/events.repository';
import { FIRST_SWEEP_DELAY_MS, RetentionSweeper } from './retention.sweeper';
import type { SessionRetention } from './session-retention';

function sweeperWith(intervalMs: number) {
  const clearDeliveredPii = jest.fn(() => Promise.resolve(0));
  const sweeper = new RetentionSweeper(
    { removeExpired: jest.fn(() => Promise.resolve(0)) } as unknown as SessionRetention,
    { deleteExpired: jest.fn(() => Promise.resolve(0)) } as unknown as IdempotencyRepository,
    { clearDeliveredPii } as unknown as EventsRepository,
    { retention: { sweepIntervalMs: intervalMs, transcriptDays: 0 } } as unknown as AppConfig,
  );
  return { sweeper, sweeps: clearDeliveredPii };
}

describe('RetentionSweeper', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sweeps a minute after start-up, not at once, then every interval', async () => {
    const { sweeper, sweeps } = sweeperWith(600_000);
    sweeper.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(FIRST_SWEEP_DELAY_MS - 1);
    expect(sweeps).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(sweeps).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(600_000 - FIRST_SWEEP_DELAY_MS);
    expect(sweeps).toHaveBeenCalledTimes(2);
    await sweeper.beforeApplicationShutdown();
    await jest.advanceTimersByTimeAsync(600_000);
    expect(sweeps).toHaveBeenCalledTimes(2);
  });

  it('with an interval shorter than a minute, first sweeps after one interval', async () => {
    const { sweeper, sweeps } = sweeperWith(5_000);
    sweeper.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(4_999);
    expect(sweeps).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(sweeps).toHaveBeenCalledTimes(1);
    await sweeper.beforeApplicationShutdown();
  });

  it('a shutdown before the first sweep cancels it', async () => {
    const { sweeper, sweeps } = sweeperWith(600_000);
    sweeper.onApplicationBootstrap();
    await sweeper.beforeApplicationShutdown();
    await jest.advanceTimersByTimeAsync(FIRST_SWEEP_DELAY_MS * 2);
    expect(sweeps).not.toHaveBeenCalled();
  });
});
