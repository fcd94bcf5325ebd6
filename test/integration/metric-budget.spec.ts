/**
 * The yearly budget per participant and its accountant (docs/metrics.md, "The budget"), on a real
 * database through the window releaser: a year of daily check-ins in two groups costs her at
 * most ε_year in any 365 days, read from the accountant's ledger, monthly and weekly; and a change
 * of window or budget never takes anyone's rolling year over the budget in force (the accountant
 * leaves her out of a release meanwhile and the release says how many it left out).
 */
import { MetricWindowsRepository } from '../../src/metrics/windows/metric-windows.repository';
import { epsilonOfRho } from '../../src/metrics/releases/zcdp';
import { CONVERSION_DELTA, releaseRho, yearRho } from '../../src/metrics/windows/budget';
import { addDays } from '../../src/metrics/windows/calendar';
import type { WindowReleaser } from '../../src/metrics/windows/window-releaser';
import { newCipher, windowReleaserOn } from './service-fixtures';
import { randomBytes } from 'node:crypto';
import { TestDatabase } from './support';

describe('the yearly budget per participant (docs/metrics.md, "The budget")', () => {
  let t: TestDatabase;
  let releaser: WindowReleaser;
  let windows: MetricWindowsRepository;

  beforeAll(async () => {
    t = await TestDatabase.create();
    windows = new MetricWindowsRepository(t.db);
    releaser = windowReleaserOn(t.db, newCipher());
  });
  afterAll(() => t.close());

  /** An enterprise with `people` participants, members of each of `groups` new groups. */
  const world = async (groups: number, people: number) => {
    const enterpriseId = await t.enterprise(`Budget ${randomBytes(3).toString('hex')}`);
    const groupIds: number[] = [];
    for (let g = 0; g < groups; g++) groupIds.push(await t.group(enterpriseId));
    const participantIds: string[] = [];
    for (let p = 0; p < people; p++) {
      const participantId = await t.participant(enterpriseId);
      for (const groupId of groupIds) await t.membership(participantId, groupId);
      participantIds.push(participantId);
    }
    return { enterpriseId, groupIds, participantIds };
  };

  /**
   * Everyone checks in once a day in each group from `first` to `last`: completed sessions and
   * their pending rows, written in bulk as ingestion writes them (one statement; the windows are
   * made by the releaser's sweep, under the settings in force then).
   */
  const daily = async (
    w: Awaited<ReturnType<typeof world>>,
    first: string,
    last: string,
  ): Promise<void> => {
    await t.rows(
      `WITH s AS (
         INSERT INTO sessions (session_id, enterprise_id, participant_id, group_id, status,
                               return_url, completed_at, mhci)
         SELECT 'ses_' || substr(md5(p::text || g::text || d::text), 1, 24), $1, p, g,
                'completed', 'https://example.com/back', d + time '12:00',
                40 + extract(day FROM d)::int % 10
           FROM unnest($2::uuid[]) p, unnest($3::bigint[]) g,
                generate_series($4::date, $5::date, interval '1 day') d
         RETURNING session_id, group_id)
       INSERT INTO cohort_pending (session_id, series, group_id)
       SELECT s.session_id, series, s.group_id FROM s, unnest(ARRAY['scores', 'words']) series`,
      [w.enterpriseId, w.participantIds, w.groupIds, first, last],
    );
  };

  /** Releases what is due at `now`, as the workers' sweep does. */
  const sweep = (w: Awaited<ReturnType<typeof world>>, now: string) =>
    releaser.releaseEnterprise(w.enterpriseId, new Date(now), { sweep: true });

  /** The most any rolling 365 days of her ledger holds (the years ending on her windows). */
  const mostInAYear = async (participantId: string): Promise<number> => {
    const ledger = await windows.spendOf(participantId);
    return Math.max(
      0,
      ...ledger.map(({ lastDay }) =>
        ledger
          .filter((row) => row.lastDay <= lastDay && row.lastDay > addDays(lastDay, -365))
          .reduce((sum, row) => sum + row.rho, 0),
      ),
    );
  };

  it('a year of daily check-ins in two groups costs her at most ε_year, one release per series and window', async () => {
    const w = await world(2, 10);
    await daily(w, '2025-01-01', '2025-12-31');
    expect(await sweep(w, '2026-01-03T00:00:00Z')).toBe(12);
    for (const participantId of w.participantIds) {
      const ledger = await windows.spendOf(participantId);
      // Twelve windows, each charged both series once: her values went to one group.
      expect(ledger).toHaveLength(12);
      for (const row of ledger) expect(row.rho).toBeCloseTo(2 * releaseRho('month', 24), 12);
      const most = await mostInAYear(participantId);
      expect(most).toBeLessThanOrEqual(yearRho(24) + 1e-9);
      // As the promise reads: (ε, δ)-DP with ε at most 24.
      expect(epsilonOfRho(most, CONVERSION_DELTA)).toBeLessThanOrEqual(24);
    }
    // Ties go to the lowest groupID: the first group has everyone, the second no one, and says so.
    const releases = await t.rows<{ groupId: number; participants: number; leftOut: number }>(
      `SELECT group_id::int AS "groupId", sum(participants)::int AS participants,
              sum(left_out)::int AS "leftOut"
         FROM metric_releases WHERE series = 'scores' AND group_id = ANY ($1::bigint[])
        GROUP BY 1 ORDER BY 1`,
      [w.groupIds],
    );
    expect(releases).toEqual([
      { groupId: w.groupIds[0], participants: 120, leftOut: 0 },
      { groupId: w.groupIds[1], participants: 0, leftOut: 365 * 10 },
    ]);
  });

  it('weekly windows: 52 or 53 releases a year, still at most ε_year in any 365 days', async () => {
    const w = await world(1, 10);
    await t.rows(`UPDATE enterprises SET metrics_window = 'week' WHERE id = $1`, [w.enterpriseId]);
    await daily(w, '2024-12-30', '2025-12-28');
    expect(await sweep(w, '2026-01-01T00:00:00Z')).toBe(52);
    for (const participantId of w.participantIds) {
      expect(await windows.spendOf(participantId)).toHaveLength(52);
      expect(await mostInAYear(participantId)).toBeLessThanOrEqual(yearRho(24) + 1e-9);
    }
  });

  it('a change of window or budget never takes a rolling year over the budget in force; the accountant defers and says so', async () => {
    const w = await world(1, 10);
    await daily(w, '2025-01-01', '2025-12-31');
    await sweep(w, '2026-01-03T00:00:00Z');
    // Months to weeks: a year at the monthly rate already spent the whole budget.
    await t.rows(`UPDATE enterprises SET metrics_window = 'week' WHERE id = $1`, [w.enterpriseId]);
    await daily(w, '2026-01-01', '2026-06-28');
    await sweep(w, '2026-07-01T00:00:00Z');
    const left = await t.one<{ leftOut: number; released: number }>(
      `SELECT sum(r.left_out)::int AS "leftOut", count(*) FILTER (WHERE r.released)::int AS released
         FROM metric_releases r JOIN metric_windows w ON w.id = r.window_id
        WHERE r.group_id = $1 AND r.series = 'scores' AND w.kind = 'week'`,
      [w.groupIds[0]],
    );
    // Deferred: some weeks left everyone out (too few to release), the others released.
    expect(left.leftOut).toBeGreaterThan(0);
    expect(left.released).toBeGreaterThan(0);
    // Then a lower budget: windows made from now on are held to it.
    await t.rows(`UPDATE enterprises SET epsilon_year = 12 WHERE id = $1`, [w.enterpriseId]);
    await daily(w, '2026-06-29', '2026-12-27');
    await sweep(w, '2027-01-01T00:00:00Z');
    for (const participantId of w.participantIds) {
      const ledger = await windows.spendOf(participantId);
      const budgets = await t.rows<{ lastDay: string; epsilonYear: number }>(
        `SELECT w.last_day::text AS "lastDay", w.epsilon_year::float8 AS "epsilonYear"
           FROM metric_budget_spend s JOIN metric_windows w ON w.id = s.window_id
          WHERE s.participant_id = $1`,
        [participantId],
      );
      const budgetOn = new Map(budgets.map((row) => [row.lastDay, row.epsilonYear]));
      for (const { lastDay } of ledger) {
        const spent = ledger
          .filter((row) => row.lastDay <= lastDay && row.lastDay > addDays(lastDay, -365))
          .reduce((sum, row) => sum + row.rho, 0);
        expect(spent).toBeLessThanOrEqual(yearRho(budgetOn.get(lastDay)!) + 1e-9);
      }
    }
  });
});
