/**
 * The upgrade from the second version's cells to calendar windows (docs/metrics.md, "Upgrade"):
 * a cell already released is never re-released or re-noised and merges into the answers of the
 * periods that hold it (accuracy.legacyCells); sessions still waiting when the migration ran go
 * into their calendar windows at the next sweep; sessions of a released cell enter no window.
 */
import { GroupReleasesReader } from '../../src/metrics/windows/group-releases.reader';
import { MetricWindowsRepository } from '../../src/metrics/windows/metric-windows.repository';
import type { WindowReleaser } from '../../src/metrics/windows/window-releaser';
import { newCipher, windowReleaserOn } from './service-fixtures';
import { TestDatabase } from './support';

describe('upgrade from sealed cells to calendar windows (docs/metrics.md, "Upgrade")', () => {
  let t: TestDatabase;
  let windows: MetricWindowsRepository;
  let releaser: WindowReleaser;
  let reader: GroupReleasesReader;

  beforeAll(async () => {
    t = await TestDatabase.create();
    windows = new MetricWindowsRepository(t.db);
    releaser = windowReleaserOn(t.db, newCipher());
    reader = new GroupReleasesReader(t.db);
  });
  afterAll(() => t.close());

  it('a released cell stays as it is and merges; the waiting sessions go into their month', async () => {
    const enterpriseId = await t.enterprise('Upgraded');
    const groupId = await t.group(enterpriseId);
    const people: string[] = [];
    for (let i = 0; i < 10; i++) {
      const participantId = await t.participant(enterpriseId);
      await t.membership(participantId, groupId);
      people.push(participantId);
    }
    // March 1–5: sealed and released by the second version (their sessions are not pending).
    for (const participantId of people) {
      await t.session(enterpriseId, participantId, groupId, {
        completedAt: '2026-03-03T09:00:00Z',
        mhci: 80,
      });
    }
    await t.rows(
      `INSERT INTO cohort_cells (group_id, series, first_day, last_day, sessions,
                                 hidden_participants, floor, participants, epsilon, noisy_sum,
                                 noisy_bins, bin_noise_variance)
       VALUES ($1, 'scores', '2026-03-01', '2026-03-05', 10, 10, 5, 10, 1, 80123,
               '{0,0,0,0,0,0,0,1,9,0}', 50)`,
      [groupId],
    );
    const cellBefore = await t.rows('SELECT * FROM cohort_cells WHERE group_id = $1', [groupId]);
    // March 10: still waiting when the migration ran (pending, no window yet).
    for (const participantId of people) {
      const sessionId = await t.session(enterpriseId, participantId, groupId, {
        completedAt: '2026-03-10T09:00:00Z',
        mhci: 40,
      });
      await t.rows(
        `INSERT INTO cohort_pending (session_id, series, group_id)
         VALUES ($1, 'scores', $2), ($1, 'words', $2)`,
        [sessionId, groupId],
      );
    }

    expect(await releaser.releaseDue(new Date('2026-04-05T00:00:00Z'))).toBe(1);
    const [march] = await t.rows<{ firstDay: string; lastDay: string; released: boolean }>(
      `SELECT first_day::text AS "firstDay", last_day::text AS "lastDay",
              released_at IS NOT NULL AS released
         FROM metric_windows WHERE enterprise_id = $1`,
      [enterpriseId],
    );
    expect(march).toEqual({ firstDay: '2026-03-01', lastDay: '2026-03-31', released: true });
    // Only the waiting sessions entered the window: one value each, 40.
    const release = await t.one<{ participants: number; noisySum: number }>(
      `SELECT participants, noisy_sum::float8 AS "noisySum" FROM metric_releases
        WHERE group_id = $1 AND series = 'scores'`,
      [groupId],
    );
    expect(release.participants).toBe(10);
    // 10 × 4,000 hundredths plus noise of σ ≈ 20,442: within 6σ.
    expect(Math.abs(release.noisySum - 40_000)).toBeLessThan(6 * 20_442);
    expect(await t.rows('SELECT * FROM cohort_pending')).toEqual([]);
    expect(await t.rows('SELECT * FROM cohort_cells WHERE group_id = $1', [groupId])).toEqual(
      cellBefore,
    );

    await t.rows(
      `INSERT INTO group_day_counts (group_id, day, sessions)
       VALUES ($1, '2026-03-03', 10), ($1, '2026-03-10', 10)`,
      [groupId],
    );
    const settings = (await windows.settingsOf(enterpriseId))!;
    const [answer] = await reader.mhci(
      enterpriseId,
      groupId,
      { from: null, to: null, groupBy: 'month' },
      { ...settings, maxMargin: 100 },
    );
    expect(answer.key).toBe('2026-03');
    expect(answer.accuracy).toMatchObject({
      participants: 20,
      windows: 1,
      legacyCells: 1,
      reason: null,
    });
    expect(answer.value).not.toBeNull();
    // A day is finer than the window: the legacy cell does not answer it either.
    const days = await reader.mhci(
      enterpriseId,
      groupId,
      { from: null, to: null, groupBy: 'day' },
      settings,
    );
    expect(days.map((day) => [day.key, day.value, day.accuracy.reason])).toEqual([
      ['2026-03-03', null, 'finer-than-window'],
      ['2026-03-10', null, 'finer-than-window'],
    ]);
  });
});
