import {
  alignedWindow,
  lastReleasableDay,
  mondayOf,
  periodOfWindow,
  releaseTime,
  windowFor,
  WINDOWS_PER_YEAR,
} from './calendar';

describe('release windows by the calendar (docs/metrics.md, "Release windows")', () => {
  it('a month is its calendar month; a week is its ISO week, Monday to Sunday', () => {
    expect(alignedWindow('month', '2026-02-14')).toEqual({
      firstDay: '2026-02-01',
      lastDay: '2026-02-28',
    });
    expect(alignedWindow('month', '2028-02-29')).toEqual({
      firstDay: '2028-02-01',
      lastDay: '2028-02-29',
    });
    expect(alignedWindow('week', '2026-01-01')).toEqual({
      firstDay: '2025-12-29',
      lastDay: '2026-01-04',
    });
    expect(mondayOf('2026-12-07')).toBe('2026-12-07');
    expect(mondayOf('2026-12-13')).toBe('2026-12-07');
  });

  it('a window made next to others is cut short where it would overlap them', () => {
    // A change from months to weeks on 2026-12-10: December stays a month, the first week of
    // January is short (Thursday 1st to Sunday 4th).
    expect(windowFor('week', '2026-12-31', '2026-12-31', null)).toEqual({
      firstDay: '2027-01-01',
      lastDay: '2027-01-03',
    });
    expect(windowFor('week', '2027-01-02', '2026-12-31', null)).toEqual({
      firstDay: '2027-01-01',
      lastDay: '2027-01-03',
    });
    expect(windowFor('month', '2027-01-20', '2027-01-10', '2027-01-25')).toEqual({
      firstDay: '2027-01-11',
      lastDay: '2027-01-24',
    });
  });

  it('a window is released after its last day ends and the grace period passes, never before', () => {
    expect(releaseTime('2026-11-30', 48).toISOString()).toBe('2026-12-03T00:00:00.000Z');
    expect(lastReleasableDay(new Date('2026-12-02T23:59:59Z'), 48)).toBe('2026-11-29');
    expect(lastReleasableDay(new Date('2026-12-03T00:00:00Z'), 48)).toBe('2026-11-30');
    expect(lastReleasableDay(new Date('2026-12-01T00:00:00Z'), 0)).toBe('2026-11-30');
  });

  it('any 365 days hold at most 12 month ends and 53 ISO week ends', () => {
    const monthEnds: string[] = [];
    for (let year = 2024; year <= 2030; year++) {
      for (let month = 1; month <= 12; month++) {
        monthEnds.push(new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10));
      }
    }
    const most = (ends: string[]) =>
      Math.max(
        ...ends.map((end) => {
          const start = new Date(new Date(`${end}T00:00:00Z`).getTime() - 365 * 86_400_000);
          return ends.filter((other) => other <= end && other > start.toISOString().slice(0, 10))
            .length;
        }),
      );
    expect(most(monthEnds)).toBe(WINDOWS_PER_YEAR.month);
    const sundays = Array.from({ length: 400 }, (_, i) =>
      new Date(Date.UTC(2024, 0, 7) + i * 7 * 86_400_000).toISOString().slice(0, 10),
    );
    expect(most(sundays)).toBe(WINDOWS_PER_YEAR.week);
  });

  it('a window belongs to the periods that hold it whole; an ISO week to the month of its Thursday', () => {
    const february = { kind: 'month' as const, firstDay: '2026-02-01', lastDay: '2026-02-28' };
    expect(periodOfWindow('month', february)).toBe('2026-02');
    expect(periodOfWindow('week', february)).toBeNull();
    expect(periodOfWindow('day', february)).toBeNull();
    const week = { kind: 'week' as const, firstDay: '2025-12-29', lastDay: '2026-01-04' };
    expect(periodOfWindow('week', week)).toBe('2025-12-29');
    expect(periodOfWindow('month', week)).toBe('2026-01');
    const lastWeekOfJanuary = {
      kind: 'week' as const,
      firstDay: '2026-01-26',
      lastDay: '2026-02-01',
    };
    expect(periodOfWindow('month', lastWeekOfJanuary)).toBe('2026-01');
  });
});
