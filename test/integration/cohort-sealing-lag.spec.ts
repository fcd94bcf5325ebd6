/**
 * CohortCellsRepository.sealingLagSeconds against real PostgreSQL (docs/operations.md, "Metrics"):
 * how long the oldest closed day sealing has not looked at has been closed, over the groups with
 * pending results, read from the cohort tables.
 */
import { randomBytes } from 'node:crypto';
import { PiiCipher } from '../../src/common/crypto/pii-cipher';
import type { AppConfig } from '../../src/config/config';
import { CohortCellsRepository } from '../../src/metrics/cohorts/cohort-cells.repository';
import { CohortSealer } from '../../src/metrics/cohorts/cohort-sealer';
import { TestDatabase } from './support';

const DAY_MS = 86_400_000;
const DELAY_MINUTES = 60;

/** The UTC day `daysAgo` days before now, YYYY-MM-DD. */
const dayAgo = (daysAgo: number): string =>
  new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);

/** Seconds since `day` closed: its end (UTC midnight after it) plus the delay. */
const closedFor = (day: string): number =>
  (Date.now() - (Date.parse(`${day}T00:00:00Z`) + DAY_MS + DELAY_MINUTES * 60_000)) / 1_000;

describe('CohortCellsRepository.sealingLagSeconds (PostgreSQL)', () => {
  let t: TestDatabase;
  let cells: CohortCellsRepository;
  let enterprise: string;

  beforeAll(async () => {
    t = await TestDatabase.create();
    cells = new CohortCellsRepository(t.db);
    enterprise = await t.enterprise();
    // A floor no test reaches: sealing looks at days but seals nothing, results stay pending.
    await t.rows('UPDATE enterprises SET min_cohort_scores = 50, min_cohort_words = 50');
  });
  afterAll(() => t.close());

  /** A group with one completed result `daysAgo` days ago, pending in both series. */
  const groupWithResult = async (daysAgo: number): Promise<number> => {
    const group = await t.group(enterprise);
    const participant = await t.participant(enterprise);
    await t.membership(participant, group, 0);
    const completedAt = `${dayAgo(daysAgo)}T12:00:00Z`;
    const sessionId = await t.session(enterprise, participant, group, { completedAt, mhci: 50 });
    await cells.addCompleted({ sessionId, groupId: group }, new Date(completedAt));
    return group;
  };

  const lag = () => cells.sealingLagSeconds(DELAY_MINUTES);

  it('is 0 with nothing pending, and while the days of pending results are still open', async () => {
    expect(await lag()).toBe(0);
    await groupWithResult(0);
    expect(await lag()).toBe(0);
  });

  it('a group never looked at: since its first day with results closed; 0 once sealing has looked', async () => {
    const group = await groupWithResult(3);
    expect(await lag()).toBeCloseTo(closedFor(dayAgo(3)), -1);
    const config = { metrics: { sealDelayMinutes: DELAY_MINUTES } } as AppConfig;
    const sealer = new CohortSealer(t.db, cells, new PiiCipher(randomBytes(32)), config);
    expect(await sealer.sealGroup(group)).toBe(0);
    expect(
      await t.rows('SELECT count(*)::int AS n FROM cohort_pending WHERE group_id = $1', [group]),
    ).toEqual([{ n: 2 }]);
    expect(await lag()).toBe(0);
  });

  it('a group looked at through a day: since the day after it closed; the largest over groups', async () => {
    const behind = await groupWithResult(10);
    await t.rows(
      `INSERT INTO cohort_checks (group_id, series, checked_through)
       VALUES ($1, 'scores', $2), ($1, 'words', $3)`,
      [behind, dayAgo(4), dayAgo(6)],
    );
    // The words series, checked through 6 days ago, is the furthest behind: 5 days ago closed.
    expect(await lag()).toBeCloseTo(closedFor(dayAgo(5)), -1);
    // A group whose results all sealed (nothing pending) is not behind, however old its check.
    await t.rows('DELETE FROM cohort_pending WHERE group_id = $1', [behind]);
    expect(await lag()).toBe(0);
  });
});
