/**
 * The cohort sealer with its real repositories on PostgreSQL (docs/metrics.md, "Sealed cohort
 * cells" and "Differentially private releases"), its noise drawn from a seeded source so every
 * release is known exactly. Pinned down: a group's pending sessions gather into runs of closed
 * UTC days that seal as soon as they blend the floor of hidden participants (scores: level < 1;
 * words: level < 4 and counted words), visible sessions riding along and open days waiting; a
 * cell stores its release only — the exact count of participants, and the exact values plus the
 * noise drawn then, never the exact sum, histogram or word counts — and the group's running
 * totals; a participant gives one mean score and at most three words merged over their
 * sessions; a stale check (a result for a day already looked at, a new floor or ε) is looked at
 * again, and nothing else is; a result for a day a cell covers joins the next run; a released
 * cell, migrated or new, is released once and never changes; a second sweep, or two sealers at
 * once, seal nothing twice.
 */
import { randomBytes } from 'node:crypto';
import { PiiCipher } from '../../src/common/crypto/pii-cipher';
import type { AppConfig } from '../../src/config/config';
import { CohortCellsRepository } from '../../src/metrics/cohorts/cohort-cells.repository';
import { CohortSealer } from '../../src/metrics/cohorts/cohort-sealer';
import type { Database } from '../../src/database/database';
import type { RandomSource } from '../../src/metrics/releases/discrete-laplace';
import { releaseScores } from '../../src/metrics/releases/score-release';
import { releaseWords } from '../../src/metrics/releases/word-release';
import { sealJson } from '../../src/sessions/transcript-codec';
import { TestDatabase } from './support';

const DAY_MS = 86_400_000;
const DELAY_MINUTES = 60;
const SEED = 20260303;

/** The moment `day` closes: the delay after it ends (sealing-runs.ts, lastClosedDay). */
const closes = (day: string): Date =>
  new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS + DELAY_MINUTES * 60_000);

/**
 * Uniform integers from a seed (mulberry32, two 32-bit draws a 53-bit fraction): the same draws
 * on every run, so a release's noise is known and the test never depends on luck.
 */
function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  const next32 = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return (z ^ (z >>> 14)) >>> 0;
  };
  return {
    below: (n) => Math.floor(((next32() * 2 ** 21 + (next32() >>> 11)) / 2 ** 53) * n),
  };
}

interface Floor {
  scores: number;
  words: number;
  speakers: number;
  epsilon: number;
}

/** One check-in: the participant's name, its day, the member's level, MHCI and counted words. */
interface CheckIn {
  who: string;
  day: string;
  level?: number;
  mhci?: number;
  words?: Record<string, number>;
}

describe('CohortSealer (PostgreSQL)', () => {
  let t: TestDatabase;
  let cells: CohortCellsRepository;
  const cipher = new PiiCipher(randomBytes(32));
  const config = { metrics: { sealDelayMinutes: DELAY_MINUTES } } as AppConfig;
  const sealerWith = (random: RandomSource, db: Database = t.db) =>
    new CohortSealer(db, new CohortCellsRepository(db), cipher, config, random);

  beforeAll(async () => {
    t = await TestDatabase.create();
    cells = new CohortCellsRepository(t.db);
  });
  afterAll(() => t.close());

  /** An enterprise with this floor and ε, and a group of it whose check-ins are recorded. */
  async function world(floor: Floor) {
    const enterprise = await t.enterprise();
    await t.rows(
      `UPDATE enterprises SET min_cohort_scores = $2, min_cohort_words = $3,
              min_word_speakers = $4, epsilon = $5 WHERE id = $1`,
      [enterprise, floor.scores, floor.words, floor.speakers, floor.epsilon],
    );
    const newGroup = async () => {
      const group = await t.group(enterprise);
      const participants = new Map<string, string>();
      /** Records a completed check-in as ingestion does: pending in both series. */
      const checkIn = async (c: CheckIn): Promise<string> => {
        let participant = participants.get(c.who);
        if (!participant) {
          participant = await t.participant(enterprise);
          await t.membership(participant, group, c.level ?? 0);
          participants.set(c.who, participant);
        }
        const completedAt = `${c.day}T09:00:00Z`;
        const sessionId = await t.session(enterprise, participant, group, {
          completedAt,
          mhci: c.mhci ?? 50,
        });
        if (c.words) {
          const counted = Object.values(c.words).reduce((sum, n) => sum + n, 0);
          await t.rows(
            'UPDATE sessions SET word_counts = $2, counted_words = $3 WHERE session_id = $1',
            [sessionId, sealJson(cipher, c.words), counted],
          );
        }
        await cells.addCompleted({ sessionId, groupId: group }, new Date(completedAt));
        return sessionId;
      };
      return { group, checkIn };
    };
    return { enterprise, newGroup };
  }

  const cellsOf = (group: number) =>
    t.rows<Record<string, unknown>>(
      `SELECT series, first_day::text AS "firstDay", last_day::text AS "lastDay", sessions,
              hidden_participants AS hidden, floor, participants, epsilon::float8 AS epsilon,
              noisy_sum AS "noisySum", noisy_bins AS "noisyBins",
              bin_noise_variance AS "binNoiseVariance"
         FROM cohort_cells WHERE group_id = $1 ORDER BY series, last_day`,
      [group],
    );
  const pendingOf = (group: number, series: string) =>
    t
      .rows<{ sessionId: string }>(
        `SELECT session_id AS "sessionId" FROM cohort_pending
          WHERE group_id = $1 AND series = $2 ORDER BY session_id`,
        [group, series],
      )
      .then((rows) => rows.map((row) => row.sessionId));
  const checksOf = (group: number) =>
    t.rows(
      `SELECT series, checked_through::text AS "checkedThrough", stale FROM cohort_checks
        WHERE group_id = $1 ORDER BY series`,
      [group],
    );
  /** Everything sealing writes for these groups, to compare before and after. */
  const everything = async (groups: number[]) => ({
    cells: await t.rows('SELECT * FROM cohort_cells WHERE group_id = ANY ($1) ORDER BY id', [
      groups,
    ]),
    scorePrefixes: await t.rows(
      'SELECT * FROM cohort_score_prefixes WHERE group_id = ANY ($1) ORDER BY cell_id',
      [groups],
    ),
    words: await t.rows(
      `SELECT w.* FROM cohort_cell_words w JOIN cohort_cells c ON c.id = w.cell_id
        WHERE c.group_id = ANY ($1) ORDER BY w.cell_id, w.word`,
      [groups],
    ),
    wordPrefixes: await t.rows(
      `SELECT * FROM cohort_word_prefixes WHERE group_id = ANY ($1)
        ORDER BY group_id, last_day, word`,
      [groups],
    ),
    pending: await t.rows(
      'SELECT * FROM cohort_pending WHERE group_id = ANY ($1) ORDER BY session_id, series',
      [groups],
    ),
    checks: await t.rows(
      'SELECT * FROM cohort_checks WHERE group_id = ANY ($1) ORDER BY group_id, series',
      [groups],
    ),
  });

  it('scores: a run of closed days seals once it blends k hidden participants, visible sessions inside; the release is the exact count and the exact values plus the noise drawn then; the next run starts after it', async () => {
    const { newGroup } = await world({ scores: 2, words: 100, speakers: 3, epsilon: 1 });
    const { group, checkIn } = await newGroup();
    await checkIn({ who: 'visible', day: '2026-03-02', level: 1, mhci: 80 });
    await checkIn({ who: 'a', day: '2026-03-02', mhci: 20 });
    await checkIn({ who: 'b', day: '2026-03-04', mhci: 40 });
    await checkIn({ who: 'a', day: '2026-03-04', mhci: 30 });
    const c = await checkIn({ who: 'c', day: '2026-03-05', mhci: 60 });
    const d = await checkIn({ who: 'd', day: '2026-03-06', mhci: 70.004 });

    const sealer = sealerWith(seededRandom(SEED));
    const expectedRandom = seededRandom(SEED);
    // Through 03-05: day 2 has one hidden participant (a), day 4 brings b: [2, 4] seals with the
    // visible member's session; c alone on day 5 does not; day 6 is still open.
    expect(await sealer.sealGroup(group, { now: closes('2026-03-05') })).toBe(1);
    // One value a participant, in hundredths: visible 80, a the mean of 20 and 30, b 40.
    const first = releaseScores([8000, 2500, 4000], 100, expectedRandom);
    // The noise is not zero (fixed by the seed): what is stored is not the exact aggregate.
    expect(first.noisySum).not.toBe(14_500);
    expect(first.noisyBins).not.toEqual([0, 0, 1, 0, 1, 0, 0, 0, 1, 0]);
    const firstCell = {
      series: 'scores',
      firstDay: '2026-03-02',
      lastDay: '2026-03-04',
      sessions: 4,
      hidden: 2,
      floor: 2,
      participants: 3,
      epsilon: 1,
      noisySum: first.noisySum,
      noisyBins: first.noisyBins,
      binNoiseVariance: first.binNoiseVariance,
    };
    expect(await cellsOf(group)).toEqual([firstCell]);
    expect(await pendingOf(group, 'scores')).toEqual([c, d].sort());
    // Words: nobody said anything, so no run has a hidden speaker; every session still waits.
    expect(await pendingOf(group, 'words')).toHaveLength(6);
    expect(await checksOf(group)).toEqual([
      { series: 'scores', checkedThrough: '2026-03-05', stale: false },
      { series: 'words', checkedThrough: '2026-03-05', stale: false },
    ]);

    // Day 6 closes: c and d make the next run, [5, 6]; d's 70.004 is 7000 hundredths.
    expect(await sealer.sealGroup(group, { now: closes('2026-03-06') })).toBe(1);
    const second = releaseScores([6000, 7000], 100, expectedRandom);
    expect(await cellsOf(group)).toEqual([
      firstCell,
      {
        ...firstCell,
        firstDay: '2026-03-05',
        lastDay: '2026-03-06',
        sessions: 2,
        participants: 2,
        noisySum: second.noisySum,
        noisyBins: second.noisyBins,
      },
    ]);
    expect(await pendingOf(group, 'scores')).toEqual([]);
    // The running totals of the releases, cell by cell.
    expect(
      await t.rows(
        `SELECT last_day::text AS "lastDay", cells, participants, noisy_sum AS "noisySum",
                noisy_bins AS "noisyBins", bin_noise_variance AS variance
           FROM cohort_score_prefixes WHERE group_id = $1 ORDER BY last_day`,
        [group],
      ),
    ).toEqual([
      {
        lastDay: '2026-03-04',
        cells: 1,
        participants: 3,
        noisySum: first.noisySum,
        noisyBins: first.noisyBins,
        variance: first.binNoiseVariance,
      },
      {
        lastDay: '2026-03-06',
        cells: 2,
        participants: 5,
        noisySum: first.noisySum + second.noisySum,
        noisyBins: first.noisyBins.map((count, bin) => count + second.noisyBins[bin]),
        variance: first.binNoiseVariance + second.binNoiseVariance,
      },
    ]);
  });

  it('words: hidden speakers are those whose level hides the transcript and who said counted words; each gives at most three words, merged over their sessions in the cell; only words past the threshold are stored, with their noisy counts', async () => {
    const { newGroup } = await world({ scores: 100, words: 2, speakers: 1, epsilon: 10 });
    const { group, checkIn } = await newGroup();
    // Day 2: one hidden speaker (h, level 1 hides the transcript); the level-4 member is a
    // visible speaker, and n (level 0) said no counted word, so is no speaker at all.
    await checkIn({ who: 'w', day: '2026-03-02', level: 4, words: { tired: 5, overtime: 1 } });
    await checkIn({ who: 'n', day: '2026-03-02' });
    await checkIn({ who: 'h', day: '2026-03-02', level: 1, words: { tired: 1, sleep: 1 } });
    // Day 3: h again, and 18 hidden members with two check-ins each.
    await checkIn({ who: 'h', day: '2026-03-03', words: { work: 1, sleep: 2 } });
    await Promise.all(
      Array.from({ length: 18 }, async (_, i) => {
        await checkIn({
          who: `crowd${i}`,
          day: '2026-03-03',
          words: { tired: 1, sleep: 1, zz: 1 },
        });
        await checkIn({ who: `crowd${i}`, day: '2026-03-03', words: { lonely: 2 } });
      }),
    );
    const sealer = sealerWith(seededRandom(SEED));
    expect(await sealer.sealGroup(group, { now: closes('2026-03-03'), series: ['words'] })).toBe(1);

    // Merged over their sessions: h says sleep 3, then tired and work (ties: the longer word,
    // then the alphabetically first); each of the crowd lonely 2, then sleep and tired — zz,
    // the shortest, is cut at three words. The speakers' words, whatever their order:
    const speakers = [
      ['tired', 'overtime'],
      ['sleep', 'tired', 'work'],
      ...Array.from({ length: 18 }, () => ['lonely', 'sleep', 'tired']),
    ];
    const expected = releaseWords(speakers, 1000, 1, seededRandom(SEED));
    // 20, 19 and 18 speakers pass a threshold of 16 (at the seed's draws), 1 does not.
    expect(expected.map((word) => word.word)).toEqual(['lonely', 'sleep', 'tired']);
    expect(expected.map((word) => word.count)).not.toEqual([18, 19, 20]);
    expect(await cellsOf(group)).toEqual([
      {
        series: 'words',
        firstDay: '2026-03-02',
        lastDay: '2026-03-03',
        sessions: 40,
        hidden: 19,
        floor: 2,
        participants: 20,
        epsilon: 10,
        noisySum: null,
        noisyBins: null,
        binNoiseVariance: null,
      },
    ]);
    expect(
      await t.rows(
        `SELECT w.word, w.count FROM cohort_cell_words w JOIN cohort_cells c ON c.id = w.cell_id
          WHERE c.group_id = $1 ORDER BY w.word`,
        [group],
      ),
    ).toEqual(expected);
    expect(
      await t.rows(
        `SELECT last_day::text AS "lastDay", word, count FROM cohort_word_prefixes
          WHERE group_id = $1 ORDER BY word`,
        [group],
      ),
    ).toEqual(expected.map((word) => ({ lastDay: '2026-03-03', ...word })));
    // Only the words series was sealed: the scores series has not been looked at.
    expect(await pendingOf(group, 'words')).toEqual([]);
    expect(await pendingOf(group, 'scores')).toHaveLength(40);
    expect(await checksOf(group)).toEqual([
      { series: 'words', checkedThrough: '2026-03-03', stale: false },
    ]);
  });

  it('a day looked at is looked at again only when a result comes for it (stale); a result for a day a cell covers joins the next run; the cell does not move', async () => {
    const { newGroup } = await world({ scores: 2, words: 100, speakers: 3, epsilon: 1 });
    const { group, checkIn } = await newGroup();
    const sealer = sealerWith(seededRandom(SEED));
    const scores = { series: ['scores'] as const };
    const now = closes('2026-03-03');
    await checkIn({ who: 'a', day: '2026-03-02' });
    expect(await sealer.sealGroup(group, { now, ...scores })).toBe(0);
    expect(await cells.dueForSealing(group, 'scores', '2026-03-03')).toBe(false);

    // A result for a day not closed yet: nothing to look at again before that day closes.
    const b = await checkIn({ who: 'b', day: '2026-03-05' });
    expect(await checksOf(group)).toEqual([
      { series: 'scores', checkedThrough: '2026-03-03', stale: false },
    ]);
    expect(await cells.dueForSealing(group, 'scores', '2026-03-03')).toBe(false);

    // A result for day 3, already looked at: the check goes stale and the run, now of two
    // hidden participants, seals at the next look — no new day had to close.
    await checkIn({ who: 'c', day: '2026-03-03' });
    expect(await checksOf(group)).toEqual([
      { series: 'scores', checkedThrough: '2026-03-03', stale: true },
    ]);
    expect(await sealer.sealGroup(group, { now, ...scores })).toBe(1);
    const sealed = await cellsOf(group);
    expect(sealed).toEqual([
      expect.objectContaining({ firstDay: '2026-03-02', lastDay: '2026-03-03', sessions: 2 }),
    ]);

    // A late result for day 2, inside the sealed cell: stale again, but it counts from day 4 on.
    const late = await checkIn({ who: 'late', day: '2026-03-02' });
    expect(await sealer.sealGroup(group, { now, ...scores })).toBe(0);
    expect(await checksOf(group)).toEqual([
      { series: 'scores', checkedThrough: '2026-03-03', stale: false },
    ]);
    expect(await pendingOf(group, 'scores')).toEqual([b, late].sort());
    expect(await sealer.sealGroup(group, { now: closes('2026-03-05'), ...scores })).toBe(1);
    expect(await cellsOf(group)).toEqual([
      sealed[0],
      expect.objectContaining({
        firstDay: '2026-03-04',
        lastDay: '2026-03-05',
        sessions: 2,
        hidden: 2,
      }),
    ]);
  });

  it('a new floor or ε applies at the next look once the settings changed (stale checks), and cells released before keep theirs', async () => {
    const { enterprise, newGroup } = await world({
      scores: 3,
      words: 100,
      speakers: 3,
      epsilon: 1,
    });
    const { group, checkIn } = await newGroup();
    await checkIn({ who: 'a', day: '2026-03-02', mhci: 10 });
    await checkIn({ who: 'b', day: '2026-03-02', mhci: 90 });
    const sealer = sealerWith(seededRandom(SEED));
    const now = closes('2026-03-02');
    expect(await sealer.sealGroup(group, { now })).toBe(0);

    await t.rows('UPDATE enterprises SET min_cohort_scores = 2, epsilon = 2.5 WHERE id = $1', [
      enterprise,
    ]);
    // The operator's CLI says so; before that, the fresh check is not looked at again.
    expect(await sealer.sealGroup(group, { now })).toBe(0);
    await cells.settingsChanged(enterprise);
    expect(await sealer.sealGroup(group, { now })).toBe(1);
    const release = releaseScores([1000, 9000], 250, seededRandom(SEED));
    const cell = {
      series: 'scores',
      firstDay: '2026-03-02',
      lastDay: '2026-03-02',
      sessions: 2,
      hidden: 2,
      floor: 2,
      participants: 2,
      epsilon: 2.5,
      noisySum: release.noisySum,
      noisyBins: release.noisyBins,
      binNoiseVariance: release.binNoiseVariance,
    };
    expect(await cellsOf(group)).toEqual([cell]);

    await t.rows('UPDATE enterprises SET min_cohort_scores = 3, epsilon = 1 WHERE id = $1', [
      enterprise,
    ]);
    await cells.settingsChanged(enterprise);
    expect(await checksOf(group)).toEqual([
      { series: 'scores', checkedThrough: '2026-03-02', stale: true },
      { series: 'words', checkedThrough: '2026-03-02', stale: true },
    ]);
    expect(await sealer.sealGroup(group, { now })).toBe(0);
    expect(await cellsOf(group)).toEqual([cell]);
  });

  it('the sweep seals every group with something due; a second sweep seals nothing and changes nothing', async () => {
    // January: the other tests' results (March) are not closed at this sweep's time.
    const { newGroup } = await world({ scores: 1, words: 1, speakers: 1, epsilon: 1 });
    const busy = await newGroup();
    const quiet = await newGroup();
    const idle = await newGroup();
    for (const day of ['2026-01-02', '2026-01-03', '2026-01-04']) {
      await busy.checkIn({ who: `b${day}`, day, words: { tired: 1 } });
    }
    await quiet.checkIn({ who: 'q', day: '2026-01-02', words: { calm: 1 } });
    await quiet.checkIn({ who: 'open', day: '2026-01-05', words: { calm: 1 } });
    const groups = [busy.group, quiet.group, idle.group];
    const mine = (due: number[]) => due.filter((group) => groups.includes(group));
    expect(mine(await cells.groupsDueForSealing('2026-01-04'))).toEqual([busy.group, quiet.group]);

    // busy: a cell a day in each series (3 + 3); quiet: day 2 in each (the open day 5 waits).
    const sealer = sealerWith(seededRandom(SEED));
    const now = closes('2026-01-04');
    expect(await sealer.sealDue(now)).toBe(8);
    const after = await everything(groups);
    expect(
      (after.cells as { group_id: number; series: string; last_day: string }[]).map((cell) => [
        cell.group_id,
        cell.series,
      ]),
    ).toEqual([
      ...['scores', 'words'].flatMap((series) => [1, 2, 3].map(() => [busy.group, series])),
      [quiet.group, 'scores'],
      [quiet.group, 'words'],
    ]);
    expect(mine(await cells.groupsDueForSealing('2026-01-04'))).toEqual([]);

    expect(await sealer.sealDue(now)).toBe(0);
    expect(await everything(groups)).toEqual(after);
  });

  it('two sealers on their own connections at once seal each run once', async () => {
    const { newGroup } = await world({ scores: 1, words: 1, speakers: 1, epsilon: 1 });
    const { group, checkIn } = await newGroup();
    for (const day of ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05']) {
      await checkIn({ who: `p${day}`, day, words: { tired: 1 } });
    }
    const other = await t.openDatabase(2);
    const now = closes('2026-03-05');
    const [a, b] = await Promise.all([
      sealerWith(seededRandom(1)).sealGroup(group, { now }),
      sealerWith(seededRandom(2), other).sealGroup(group, { now }),
    ]);
    expect(a + b).toBe(8);
    expect(
      await t.rows(
        `SELECT series, count(*)::int AS cells, count(DISTINCT last_day)::int AS days
           FROM cohort_cells WHERE group_id = $1 GROUP BY series ORDER BY series`,
        [group],
      ),
    ).toEqual([
      { series: 'scores', cells: 4, days: 4 },
      { series: 'words', cells: 4, days: 4 },
    ]);
    expect(
      await t.rows(
        `SELECT count(*)::int AS prefixes FROM cohort_score_prefixes WHERE group_id = $1`,
        [group],
      ),
    ).toEqual([{ prefixes: 4 }]);
    expect(await sealerWith(seededRandom(3)).sealGroup(group, { now })).toBe(0);
  });
});
