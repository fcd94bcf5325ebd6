/**
 * `completedAt` is an ISO 8601 date-time with a time zone naming a real moment: not before
 * 2000, not more than 5 minutes ahead, and never a day or time that does not exist (which
 * `Date.parse` would quietly roll over to another).
 */
import { isPlausibleCompletionTime } from './session-result.dto';

describe('isPlausibleCompletionTime', () => {
  it.each([
    '2026-01-15T08:30:00Z',
    '2026-01-15T08:30Z',
    '2026-01-15T08:30:00.123456789Z',
    '2026-01-15T08:30:00+02:00',
    '2026-01-15T08:30-05:30',
    '2024-02-29T23:59:59Z',
    '2000-01-01T00:00:00Z',
  ])('accepts %s', (value) => {
    expect(isPlausibleCompletionTime(value)).toBe(true);
  });

  it.each([
    ['2026-02-30T00:00:00Z', 'a day February does not have (Date.parse: March 2nd)'],
    ['2026-02-29T12:00:00Z', 'February 29th of a common year'],
    ['2026-04-31T12:00:00Z', 'April 31st'],
    ['2026-13-01T00:00:00Z', 'month 13'],
    ['2026-00-10T00:00:00Z', 'month 0'],
    ['2026-01-00T00:00:00Z', 'day 0'],
    ['2026-01-15T24:00:00Z', 'hour 24'],
    ['2026-01-15T08:60:00Z', 'minute 60'],
    ['2026-01-15T08:30:60Z', 'second 60'],
    ['2026-01-15T08:30:00+24:00', 'an offset of 24 hours'],
    ['2026-01-15T08:30:00+02:60', 'an offset of 60 minutes'],
    ['2026-01-15T08:30:00', 'no time zone'],
    ['2026-01-15', 'no time'],
    ['1999-12-31T23:59:59Z', 'before 2000'],
    ['2999-01-01T00:00:00Z', 'far ahead'],
  ])('refuses %s (%s)', (value) => {
    expect(isPlausibleCompletionTime(value)).toBe(false);
  });
});
