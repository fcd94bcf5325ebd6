/**
 * The "next attempt at" of a mail's retry log line is when Bull will really try again: the wait
 * after each failed attempt equals Bull's own exponential backoff with the queue's delay, and
 * the twelve attempts span about 2 h 15 min (docs/emails.md).
 */
import { EMAIL_BACKOFF_MS, EMAIL_JOB_ATTEMPTS, emailRetryDelayMs } from './email-queue';

// Bull's built-in strategies (the `backoff: { type: 'exponential' }` the sweeper queues with).

const bullBackoffs = require('bull/lib/backoffs') as {
  calculate(backoff: { type: string; delay: number }, attemptsMade: number, custom: object): number;
};

describe('email retry delays', () => {
  it('are Bull’s exponential backoff after every failed attempt', () => {
    const bull = (attempt: number) =>
      bullBackoffs.calculate({ type: 'exponential', delay: EMAIL_BACKOFF_MS }, attempt, {});
    for (let attempt = 1; attempt < EMAIL_JOB_ATTEMPTS; attempt++) {
      expect(emailRetryDelayMs(attempt)).toBe(bull(attempt));
    }
    expect([1, 2, 3, 4].map(emailRetryDelayMs)).toEqual([2_000, 6_000, 14_000, 30_000]);
  });

  it('add up to about 2 h 15 min over the twelve attempts', () => {
    let total = 0;
    for (let attempt = 1; attempt < EMAIL_JOB_ATTEMPTS; attempt++)
      total += emailRetryDelayMs(attempt);
    expect(total).toBe(8_166_000); // 2 h 16 min 6 s
  });
});
