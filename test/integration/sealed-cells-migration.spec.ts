/**
 * The migration to sealed cohort cells (docs/metrics.md), on data from before it: every completed
 * session becomes pending in both series, the day counts equal a recount, and the first sealing
 * turns the history into cells. Down rebuilds the per-answer floor's rollups from the sessions.
 */
import { randomBytes } from 'node:crypto';
import type { QueryRunner } from 'typeorm';
import { SealedCohortCells1765500000000 } from '../../migrations/1765500000000-SealedCohortCells';
import { SealedSessionDetail1765600000000 } from '../../migrations/1765600000000-SealedSessionDetail';
import { PrivateReleases1766000000000 } from '../../migrations/1766000000000-PrivateReleases';
import { PiiCipher } from '../../src/common/crypto/pii-cipher';
import type { AppConfig } from '../../src/config/config';
import { CohortCellsRepository } from '../../src/metrics/cohorts/cohort-cells.repository';
import { CohortSealer } from '../../src/metrics/cohorts/cohort-sealer';
import { TestDatabase } from './support';

describe('migration: sealed cohort cells', () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await TestDatabase.create();
  });
  afterAll(() => t.close());

  it('makes the stored history pending, counts its days, and the first sealing seals it', async () => {
    const migration = new SealedCohortCells1765500000000();
    const later = new SealedSessionDetail1765600000000();
    const releases = new PrivateReleases1766000000000();
    const runner = { query: (sql: string) => t.pool.query(sql) } as unknown as QueryRunner;
    await releases.down(runner);
    await later.down(runner);
    await migration.down(runner);
    const enterprise = await t.enterprise();
    const group = await t.group(enterprise);
    await t.rows(
      'UPDATE enterprises SET min_cohort_scores = 2, min_cohort_words = 2 WHERE id = $1',
      [enterprise],
    );
    const people = [await t.participant(enterprise), await t.participant(enterprise)];
    for (const person of people) await t.membership(person, group, 0);
    const sessions = [
      await t.session(enterprise, people[0], group, {
        completedAt: '2025-03-01T10:00:00Z',
        mhci: 40,
      }),
      await t.session(enterprise, people[0], group, {
        completedAt: '2025-03-01T11:00:00Z',
        mhci: 50,
      }),
      await t.session(enterprise, people[1], group, {
        completedAt: '2025-03-02T10:00:00Z',
        mhci: 60,
      }),
    ];
    await t.session(enterprise, people[1], group); // not completed
    for (const session of sessions) {
      await t.rows(
        `INSERT INTO session_word_counts (session_id, word, count) VALUES ($1, 'tired', 1)`,
        [session],
      );
    }
    // Down rebuilt the old rollups from the sessions (none yet): they exist, empty.
    expect(await t.rows('SELECT * FROM group_word_counts')).toEqual([]);

    await migration.up(runner);
    await later.up(runner);
    await releases.up(runner);

    expect(
      await t.rows(
        `SELECT series, count(*)::int AS sessions FROM cohort_pending GROUP BY 1 ORDER BY 1`,
      ),
    ).toEqual([
      { series: 'scores', sessions: 3 },
      { series: 'words', sessions: 3 },
    ]);
    expect(await t.rows('SELECT day::text, sessions FROM group_day_counts ORDER BY day')).toEqual([
      { day: '2025-03-01', sessions: 2 },
      { day: '2025-03-02', sessions: 1 },
    ]);
    const tables = await t.rows<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_name IN ('group_word_counts', 'group_day_cohorts', 'group_day_participants')`,
    );
    expect(tables).toEqual([]);

    const config = { metrics: { sealDelayMinutes: 60 } } as AppConfig;
    const cipher = new PiiCipher(randomBytes(32));
    const sealer = new CohortSealer(t.db, new CohortCellsRepository(t.db), cipher, config);
    expect(await sealer.sealGroup(group)).toBe(2);
    expect(
      await t.rows(
        `SELECT series, first_day::text, last_day::text, sessions, hidden_participants
           FROM cohort_cells ORDER BY series`,
      ),
    ).toEqual([
      {
        series: 'scores',
        first_day: '2025-03-01',
        last_day: '2025-03-02',
        sessions: 3,
        hidden_participants: 2,
      },
      {
        series: 'words',
        first_day: '2025-03-01',
        last_day: '2025-03-02',
        sessions: 3,
        hidden_participants: 2,
      },
    ]);
    expect(await t.rows('SELECT count(*)::int AS left FROM cohort_pending')).toEqual([{ left: 0 }]);
  });

  it('down rebuilds the per-day word counts and cohorts from the sessions', async () => {
    const migration = new SealedCohortCells1765500000000();
    const later = new SealedSessionDetail1765600000000();
    const releases = new PrivateReleases1766000000000();
    const runner = { query: (sql: string) => t.pool.query(sql) } as unknown as QueryRunner;
    await releases.down(runner);
    await later.down(runner);
    await migration.down(runner);
    expect(
      await t.rows(
        'SELECT day::text, word, count::int AS count FROM group_word_counts ORDER BY day',
      ),
    ).toEqual([
      { day: '2025-03-01', word: 'tired', count: 2 },
      { day: '2025-03-02', word: 'tired', count: 1 },
    ]);
    expect(
      await t.rows(
        'SELECT day::text, participants, word_participants FROM group_day_cohorts ORDER BY day',
      ),
    ).toEqual([
      { day: '2025-03-01', participants: 1, word_participants: 1 },
      { day: '2025-03-02', participants: 1, word_participants: 1 },
    ]);
    await migration.up(runner);
    await later.up(runner);
    await releases.up(runner);
  });
});
