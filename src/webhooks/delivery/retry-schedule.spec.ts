import { nextRetryDelay, parseRetryAfter, RETRY_AFTER_CAP_MS } from './retry-schedule';

const SCHEDULE = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, 86_400_000,
];

describe('retry schedule', () => {
  it('follows the schedule after each failed attempt, then gives up', () => {
    const exact = () => 0.5;
    expect(SCHEDULE.map((_, index) => nextRetryDelay(SCHEDULE, index + 1, null, exact))).toEqual(
      SCHEDULE,
    );
    expect(nextRetryDelay(SCHEDULE, 9, null, exact)).toBeNull();
    expect(nextRetryDelay(SCHEDULE, 0, null, exact)).toBeNull();
  });

  it('jitters by at most ±10 %', () => {
    expect(nextRetryDelay(SCHEDULE, 2, null, () => 0)).toBe(270_000);
    expect(nextRetryDelay(SCHEDULE, 2, null, () => 1)).toBe(330_000);
  });

  it('honours Retry-After up to 2 h', () => {
    expect(nextRetryDelay(SCHEDULE, 1, 30_000)).toBe(30_000);
    expect(nextRetryDelay(SCHEDULE, 1, 10 * 3_600_000)).toBe(RETRY_AFTER_CAP_MS);
    expect(nextRetryDelay(SCHEDULE, 8, 1_000)).toBe(1_000);
    expect(nextRetryDelay(SCHEDULE, 9, 1_000)).toBeNull();
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.UTC(2026, 10, 22, 10, 0, 0);
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
  });
});
