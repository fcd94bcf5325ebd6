/**
 * The migration to differentially private releases (docs/metrics.md, "Differentially private
 * releases"), on data from before it: cells sealed with exact histograms and exact word counts,
 * and feature histograms of every session. After it no exact aggregate is left; the first sealing
 * releases the old cells with noise (same cells, same days), and the workers' pass puts back in
 * the group comparisons only the sessions shown at level 5.
 */
import { randomBytes } from 'node:crypto';
import type { QueryRunner } from 'typeorm';
import { PrivateReleases1766000000000 } from '../../migrations/1766000000000-PrivateReleases';
import { PiiCipher } from '../../src/common/crypto/pii-cipher';
import type { AppConfig } from '../../src/config/config';
import { CohortCellsRepository } from '../../src/metrics/cohorts/cohort-cells.repository';
import { CohortSealer } from '../../src/metrics/cohorts/cohort-sealer';
import { MetricsRepository } from '../../src/metrics/metrics.repository';
import { MetricRollupsRepository } from '../../src/metrics/rollups/metric-rollups.repository';
import { SharedFeatures } from '../../src/metrics/rollups/shared-features';
import { SessionsRepository } from '../../src/sessions/sessions.repository';
import { sealJson } from '../../src/sessions/transcript-codec';
import { match } from '../support/matchers';
import { TestDatabase } from './support';

describe('migration: differentially private releases', () => {
  let t: TestDatabase;
  const cipher = new PiiCipher(randomBytes(32));
  const runner = () => ({ query: (sql: string) => t.pool.query(sql) }) as unknown as QueryRunner;
  const migration = new PrivateReleases1766000000000();

  beforeAll(async () => {
    t = await TestDatabase.create();
  });
  afterAll(() => t.close());

  it('releases the cells sealed before with noise, keeps no exact aggregate, and rebuilds the comparisons from level-5 sessions', async () => {
    await migration.down(runner());
    const enterprise = await t.enterprise();
    const group = await t.group(enterprise);
    const [open, hidden, late] = [
      await t.participant(enterprise),
      await t.participant(enterprise),
      await t.participant(enterprise),
    ];
    await t.membership(open, group, 5);
    await t.membership(hidden, group, 0);
    await t.membership(late, group, 0);
    const checkIn = async (who: string, completedAt: string, mhci: number, pitch: number) => {
      const sessionId = await t.session(enterprise, who, group, { completedAt, mhci });
      await t.rows(
        `UPDATE sessions SET features = $2, word_counts = $3, counted_words = 2
          WHERE session_id = $1`,
        [sessionId, sealJson(cipher, { pitch }), sealJson(cipher, { tired: 1, overwhelmed: 1 })],
      );
      return sessionId;
    };
    await checkIn(open, '2025-03-01T09:00:00Z', 70, 0.7);
    await checkIn(hidden, '2025-03-01T10:00:00Z', 37.25, 0.3);
    await checkIn(hidden, '2025-03-02T10:00:00Z', 40.75, 0.4);
    // A session completed after the last cell, still pending before and after.
    const pending = await checkIn(late, '2025-03-05T10:00:00Z', 50, 0.5);
    await t.rows(
      `INSERT INTO cohort_pending (session_id, series, group_id)
       VALUES ($1, 'scores', $2), ($1, 'words', $2)`,
      [pending, group],
    );
    await t.rows(
      `INSERT INTO group_day_counts (group_id, day, sessions)
       SELECT group_id, (completed_at AT TIME ZONE 'UTC')::date, count(*) FROM sessions
        GROUP BY 1, 2`,
    );
    // As the exact sealing left them: one cell per series over days 1–2, exact values and words.
    for (const series of ['scores', 'words']) {
      await t.rows(
        `INSERT INTO cohort_cells
                (group_id, series, first_day, last_day, sessions, hidden_participants, floor)
         VALUES ($1, $2, '2025-03-01', '2025-03-02', 3, 1, 1)`,
        [group, series],
      );
    }
    await t.rows(
      `INSERT INTO cohort_cell_scores (cell_id, mhci, count, group_id, last_day, bin)
       SELECT c.id, v.mhci, 1, $1, '2025-03-02', floor(v.mhci * 20)
         FROM cohort_cells c, (VALUES (70), (37.25), (40.75)) AS v(mhci)
        WHERE c.group_id = $1 AND c.series = 'scores'`,
      [group],
    );
    await t.rows(
      `INSERT INTO cohort_cell_words (cell_id, word, count)
       SELECT id, 'tired', 3 FROM cohort_cells WHERE group_id = $1 AND series = 'words'`,
      [group],
    );
    await t.rows(
      `INSERT INTO cohort_checks (group_id, series, checked_through)
       VALUES ($1, 'scores', '2025-03-04'), ($1, 'words', '2025-03-04')`,
      [group],
    );
    await t.rows(
      `INSERT INTO group_feature_values (group_id, name, value, count)
       VALUES ($1, 'pitch', 0.7, 1), ($1, 'pitch', 0.3, 1), ($1, 'pitch', 0.4, 1)`,
      [group],
    );

    await migration.up(runner());

    // No exact aggregate is left, and every sealed session waits for its cell's release.
    expect(
      await t.rows(
        `SELECT 1 FROM information_schema.tables WHERE table_name = 'cohort_cell_scores'`,
      ),
    ).toEqual([]);
    expect(await t.rows('SELECT * FROM cohort_cell_words')).toEqual([]);
    expect(await t.rows('SELECT * FROM group_feature_values')).toEqual([]);
    expect(
      await t.rows(
        `SELECT series, count(*) FILTER (WHERE cell_id IS NOT NULL)::int AS sealed,
                count(*) FILTER (WHERE cell_id IS NULL)::int AS open
           FROM cohort_pending GROUP BY series ORDER BY series`,
      ),
    ).toEqual([
      { series: 'scores', sealed: 3, open: 1 },
      { series: 'words', sealed: 3, open: 1 },
    ]);
    expect(await t.rows('SELECT bool_and(stale) AS stale FROM cohort_checks')).toEqual([
      { stale: true },
    ]);
    expect(await t.rows('SELECT epsilon::float8 FROM enterprises')).toEqual([{ epsilon: 1 }]);

    // The first sealing (a read, or the workers' sweep) releases them: same cells, with noise.
    const config = { metrics: { sealDelayMinutes: 60 } } as AppConfig;
    const cells = new CohortCellsRepository(t.db);
    const sealer = new CohortSealer(t.db, cells, cipher, config);
    expect(await sealer.sealGroup(group)).toBe(2);
    const released = await t.rows<Record<string, unknown>>(
      `SELECT series, first_day::text, last_day::text, participants, epsilon::float8,
              noisy_sum AS "noisySum", cardinality(noisy_bins) AS bins
         FROM cohort_cells ORDER BY series`,
    );
    expect(released).toEqual([
      {
        series: 'scores',
        first_day: '2025-03-01',
        last_day: '2025-03-02',
        participants: 2,
        epsilon: 1,
        noisySum: match.any(Number),
        bins: 10,
      },
      {
        series: 'words',
        first_day: '2025-03-01',
        last_day: '2025-03-02',
        participants: 2,
        epsilon: 1,
        noisySum: null,
        bins: null,
      },
    ]);
    // Two participants: 70 and the mean of 37.25 and 40.75, 39 (hundredths: 7000 + 3900). The
    // noise at scale 10,000/0.6 is exactly 0 with probability ≈ 3·10⁻⁵.
    expect(released[0].noisySum).not.toBe(10_900);
    // Two speakers never pass a threshold of dozens: the old cell's words are not released.
    expect(await t.rows('SELECT * FROM cohort_cell_words')).toEqual([]);
    expect(await t.rows('SELECT series FROM cohort_pending ORDER BY series')).toEqual([
      { series: 'scores' },
      { series: 'words' },
    ]);
    const mhci = await new MetricsRepository(t.db, cipher).mhci(
      { kind: 'group', enterpriseId: enterprise, groupId: group },
      { from: null, to: '2025-03-02', groupBy: null },
    );
    expect(mhci).toEqual([
      match.objectContaining({ key: 'all', sessions: 2, shown: true, avgMhci: match.any(Number) }),
    ]);
    expect(await sealer.sealGroup(group)).toBe(0);

    // The workers' pass: the level-5 session's features are counted again, the hidden ones not.
    const sessions = new SessionsRepository(t.db);
    const shared = new SharedFeatures(t.db, sessions, new MetricRollupsRepository(t.db), cipher);
    expect(await shared.reconcileSome(100)).toBe(1);
    expect(await t.rows('SELECT name, value, count FROM group_feature_values')).toEqual([
      { name: 'pitch', value: 0.7, count: 1 },
    ]);
    expect(await shared.reconcileSome(100)).toBe(0);
  });
});
