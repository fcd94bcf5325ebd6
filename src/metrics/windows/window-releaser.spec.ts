import { releaseRho, yearRho } from './budget';
import { addDays, WINDOWS_PER_YEAR } from './calendar';
import { assignGroups, fitsEveryYear } from './window-releaser';

describe('contribution bounding (docs/metrics.md, "The budget")', () => {
  it('each participant goes to the group with most of her check-ins in the window; ties to the lowest', () => {
    const assigned = assignGroups([
      { participantId: 'p', groupId: 9 },
      { participantId: 'p', groupId: 9 },
      { participantId: 'p', groupId: 3 },
      { participantId: 'q', groupId: 7 },
      { participantId: 'q', groupId: 4 },
      { participantId: 'r', groupId: 5 },
    ]);
    expect(Object.fromEntries(assigned)).toEqual({ p: 9, q: 4, r: 5 });
  });
});

describe('the accountant (docs/metrics.md, "The budget")', () => {
  const limit = yearRho(24);

  it('a participant in every monthly or weekly release spends exactly her yearly budget, never more', () => {
    for (const kind of ['month', 'week'] as const) {
      const cost = 2 * releaseRho(kind, 24);
      const ledger: { lastDay: string; rho: number }[] = [];
      // Ten years of windows: every one admitted, and no rolling year above the limit.
      const step = kind === 'week' ? 7 : 0;
      let day = '2026-01-04';
      for (let i = 0; i < (kind === 'week' ? 530 : 120); i++) {
        day =
          kind === 'week'
            ? addDays(day, step)
            : new Date(Date.UTC(2026, i + 1, 0)).toISOString().slice(0, 10);
        expect(fitsEveryYear(ledger, day, cost, limit)).toBe(true);
        ledger.push({ lastDay: day, rho: cost });
      }
      expect(cost * WINDOWS_PER_YEAR[kind]).toBeCloseTo(limit, 9);
    }
  });

  it('leaves her out of a release that would take any rolling year over, including years ending later', () => {
    const cost = limit / 3;
    const ledger = [
      { lastDay: '2026-03-31', rho: cost },
      { lastDay: '2026-06-30', rho: cost },
    ];
    expect(fitsEveryYear(ledger, '2026-09-30', cost, limit)).toBe(true);
    const full = [...ledger, { lastDay: '2026-09-30', rho: cost }];
    expect(fitsEveryYear(full, '2026-12-31', cost, limit)).toBe(false);
    // Once the March release is more than 365 days back, there is room again.
    expect(fitsEveryYear(full, '2027-03-31', cost, limit)).toBe(true);
    // A window released late for an old day counts in the years ending at later releases too.
    expect(fitsEveryYear(full, '2026-01-31', cost, limit)).toBe(false);
  });

  it('after a switch from months to weeks, her weekly releases wait until her monthly ones age out', () => {
    const ledger: { lastDay: string; rho: number }[] = [];
    for (let month = 1; month <= 12; month++) {
      ledger.push({
        lastDay: new Date(Date.UTC(2026, month, 0)).toISOString().slice(0, 10),
        rho: 2 * releaseRho('month', 24),
      });
    }
    const weekly = 2 * releaseRho('week', 24);
    let day = '2027-01-03';
    let admitted = 0;
    for (let week = 0; week < 104; week++) {
      day = addDays(day, 7);
      if (fitsEveryYear(ledger, day, weekly, limit)) {
        ledger.push({ lastDay: day, rho: weekly });
        admitted += 1;
      }
    }
    // Every rolling year ending on any of her releases stays within the budget.
    for (const end of ledger.map((row) => row.lastDay)) {
      const start = addDays(end, -365);
      const spent = ledger
        .filter((row) => row.lastDay <= end && row.lastDay > start)
        .reduce((sum, row) => sum + row.rho, 0);
      expect(spent).toBeLessThanOrEqual(limit + 1e-9);
    }
    // Deferred, not refused for good: she is back in most weekly releases.
    expect(admitted).toBeGreaterThan(80);
  });
});
