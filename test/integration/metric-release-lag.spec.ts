/**
 * MetricWindowsRepository.releaseLagSeconds against real PostgreSQL (docs/operations.md,
 * "Metrics"; the gauge `checkin_metric_release_lag_seconds`): how long the oldest window that is
 * due — its last day ended and the grace period passed — has waited for its release, over every
 * enterprise; 0 while nothing due waits.
 */
import { randomBytes } from 'node:crypto';
import { PiiCipher } from '../../src/common/crypto/pii-cipher';
import { addDays, alignedWindow } from '../../src/metrics/windows/calendar';
import { MetricWindowsRepository } from '../../src/metrics/windows/metric-windows.repository';
import type { WindowReleaser } from '../../src/metrics/windows/window-releaser';
import { RELEASE_GRACE_HOURS, windowReleaserOn } from './service-fixtures';
import { TestDatabase } from './support';

const DAY_MS = 86_400_000;

/** The UTC day `daysAgo` days before now, YYYY-MM-DD. */
const dayAgo = (daysAgo: number): string =>
  new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);

/** Seconds since the window ending on `lastDay` became due: its end plus `graceHours`. */
const dueFor = (lastDay: string, graceHours = RELEASE_GRACE_HOURS): number =>
  (Date.now() - (Date.parse(`${addDays(lastDay, 1)}T00:00:00Z`) + graceHours * 3_600_000)) / 1_000;

describe('MetricWindowsRepository.releaseLagSeconds (PostgreSQL)', () => {
  let t: TestDatabase;
  let windows: MetricWindowsRepository;
  let releaser: WindowReleaser;

  beforeAll(async () => {
    t = await TestDatabase.create();
    windows = new MetricWindowsRepository(t.db);
    releaser = windowReleaserOn(t.db, new PiiCipher(randomBytes(32)));
  });
  afterAll(() => t.close());

  /**
   * An enterprise (weekly windows, floors no test reaches) with one completed result `daysAgo`
   * days ago, ingested into its window.
   */
  const enterpriseWithResult = async (daysAgo: number): Promise<string> => {
    const enterprise = await t.enterprise();
    await t.rows(
      `UPDATE enterprises SET metrics_window = 'week', min_cohort_scores = 50,
              min_cohort_words = 50 WHERE id = $1`,
      [enterprise],
    );
    const group = await t.group(enterprise);
    const participant = await t.participant(enterprise);
    await t.membership(participant, group, 0);
    const completedAt = `${dayAgo(daysAgo)}T12:00:00Z`;
    const sessionId = await t.session(enterprise, participant, group, { completedAt, mhci: 50 });
    await t.db.transaction((sql) =>
      releaser.addCompleted({ sessionId, groupId: group }, new Date(completedAt), sql),
    );
    return enterprise;
  };
  /** The last day of the ISO week `daysAgo` days ago. */
  const weekEndOf = (daysAgo: number): string => alignedWindow('week', dayAgo(daysAgo)).lastDay;

  const lag = (graceHours = RELEASE_GRACE_HOURS) => windows.releaseLagSeconds(graceHours);

  it('is 0 without windows, and while no window is due (this week’s has not ended)', async () => {
    expect(await lag()).toBe(0);
    await enterpriseWithResult(0);
    expect(await windows.releaseLagSeconds(0)).toBe(0);
    expect(await lag()).toBe(0);
  });

  it('since the oldest due window became due, over every enterprise; 0 once the windows due are released, whatever their floors', async () => {
    const behind = await enterpriseWithResult(30);
    const lessBehind = await enterpriseWithResult(20);
    expect(await lag()).toBeCloseTo(dueFor(weekEndOf(30)), -1);
    // Without a grace period the same window has waited two days longer.
    expect(await lag(0)).toBeCloseTo(dueFor(weekEndOf(30), 0), -1);
    expect((await lag(0)) - (await lag())).toBeCloseTo(RELEASE_GRACE_HOURS * 3_600, -1);

    // Released (k not reached: nothing released but their counts, the window is done all the
    // same): the next oldest is the measure.
    expect(await releaser.releaseEnterprise(behind)).toBe(1);
    expect(await lag()).toBeCloseTo(dueFor(weekEndOf(20)), -1);
    expect(await releaser.releaseEnterprise(lessBehind)).toBe(1);
    // What is left: this week's and last week's windows, released if due.
    await releaser.releaseDue();
    expect(await lag()).toBe(0);
    expect(
      await t.rows(
        `SELECT count(*)::int AS due FROM metric_windows
          WHERE released_at IS NULL AND last_day < $1::date`,
        [dayAgo(2)],
      ),
    ).toEqual([{ due: 0 }]);
  });
});
