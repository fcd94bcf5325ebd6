/**
 * The window releaser with its real repositories on PostgreSQL (docs/metrics.md, "Release
 * windows", "The budget", "Scores" and "Words"), its noise drawn from a seeded source so every
 * release is known exactly. Pinned down: a result gets its enterprise's calendar window when it
 * is ingested (in the ingestion's transaction), of the kind and with the budget in force then, a
 * change applying from the next window; a window is released once its last day has ended and the
 * grace period passed, never before, for every group of the enterprise at once; a release stores
 * the exact count of participants and the values plus the noise drawn then, never the exact
 * aggregate; a series is released when at least k participants entered it, whatever their level,
 * else only their count is kept; a participant's values enter one group per window (the group
 * with most of her sessions there, ties to the lowest groupID), the others count them as left
 * out; a result for a window already released joins no release and is counted late; a released
 * window is released once — a second call, a sweep, or two releasers at once release nothing
 * twice; the sweep finds every enterprise with something due, and gives the results still
 * pending from before the upgrade their windows. The accountant: metric-budget.spec.ts.
 */
import { randomBytes } from 'node:crypto';
import { PiiCipher } from '../../src/common/crypto/pii-cipher';
import type { Database } from '../../src/database/database';
import type { RandomSource } from '../../src/metrics/releases/discrete-laplace';
import { releaseRho, wordReleaseDelta } from '../../src/metrics/windows/budget';
import type { WindowKind } from '../../src/metrics/windows/calendar';
import { MetricWindowsRepository } from '../../src/metrics/windows/metric-windows.repository';
import {
  releaseWindowScores,
  releaseWindowWords,
  SCORE_BINS,
  scoreBin,
} from '../../src/metrics/windows/window-release';
import { sealJson } from '../../src/sessions/transcript-codec';
import { windowReleaserOn } from './service-fixtures';
import { TestDatabase } from './support';

const SEED = 20260303;

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

/** An enterprise's settings (enterprises:set-privacy-floor); unset: the defaults. */
interface Settings {
  scores?: number;
  words?: number;
  speakers?: number;
  window?: WindowKind;
  budget?: number;
}

/** One check-in: the participant's name, its day, the member's level, MHCI and counted words. */
interface CheckIn {
  who: string;
  day: string;
  level?: number;
  mhci?: number;
  words?: Record<string, number>;
}

/** The exact bins of values in hundredths (what a release must never store). */
const exactBins = (values: number[]): number[] => {
  const bins = new Array<number>(SCORE_BINS).fill(0);
  for (const value of values) bins[scoreBin(value)] += 1;
  return bins;
};

describe('WindowReleaser (PostgreSQL)', () => {
  let t: TestDatabase;
  const cipher = new PiiCipher(randomBytes(32));
  const releaserWith = (random: RandomSource, db: Database = t.db) =>
    windowReleaserOn(db, cipher, { random });

  beforeAll(async () => {
    t = await TestDatabase.create();
  });
  afterAll(() => t.close());

  /** An enterprise with these settings; its groups' check-ins are recorded as ingestion does. */
  async function world(settings: Settings = {}) {
    const enterprise = await t.enterprise();
    await t.rows(
      `UPDATE enterprises
          SET min_cohort_scores = coalesce($2, min_cohort_scores),
              min_cohort_words = coalesce($3, min_cohort_words),
              min_word_speakers = coalesce($4, min_word_speakers),
              metrics_window = coalesce($5, metrics_window),
              epsilon_year = coalesce($6, epsilon_year)
        WHERE id = $1`,
      [
        enterprise,
        settings.scores ?? null,
        settings.words ?? null,
        settings.speakers ?? null,
        settings.window ?? null,
        settings.budget ?? null,
      ],
    );
    /** The enterprise's participants by name: one may check in in several of its groups. */
    const participants = new Map<string, string>();
    const ingestion = windowReleaserOn(t.db, cipher);
    const newGroup = async () => {
      const group = await t.group(enterprise);
      const members = new Set<string>();
      /** Records a completed check-in as ingestion does: in its window, in one transaction. */
      const checkIn = async (c: CheckIn): Promise<string> => {
        let participant = participants.get(c.who);
        if (!participant) {
          participant = await t.participant(enterprise);
          participants.set(c.who, participant);
        }
        if (!members.has(participant)) {
          await t.membership(participant, group, c.level ?? 0);
          members.add(participant);
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
        await t.db.transaction((sql) =>
          ingestion.addCompleted({ sessionId, groupId: group }, new Date(completedAt), sql),
        );
        return sessionId;
      };
      return { group, checkIn };
    };
    return { enterprise, newGroup, participant: (who: string) => participants.get(who)! };
  }

  const windowsOf = (enterprise: string) =>
    t.rows<{
      kind: WindowKind;
      firstDay: string;
      lastDay: string;
      epsilonYear: number;
      released: boolean;
    }>(
      `SELECT kind, first_day::text AS "firstDay", last_day::text AS "lastDay",
              epsilon_year::float8 AS "epsilonYear", released_at IS NOT NULL AS released
         FROM metric_windows WHERE enterprise_id = $1 ORDER BY first_day`,
      [enterprise],
    );
  const releasesOf = (group: number) =>
    t.rows<Record<string, unknown>>(
      `SELECT w.first_day::text AS "firstDay", r.series, r.participants, r.released,
              r.left_out AS "leftOut", r.late_results AS "lateResults", r.rho,
              r.noisy_sum AS "noisySum", r.noisy_bins AS "noisyBins",
              r.sum_noise_variance AS "sumNoiseVariance",
              r.bin_noise_variance AS "binNoiseVariance", r.word_threshold AS "wordThreshold"
         FROM metric_releases r JOIN metric_windows w ON w.id = r.window_id
        WHERE r.group_id = $1 ORDER BY w.first_day, r.series`,
      [group],
    );
  const releasedWordsOf = (group: number) =>
    t.rows(
      `SELECT w.word, w.count FROM metric_release_words w
         JOIN metric_releases r ON r.id = w.release_id
        WHERE r.group_id = $1 ORDER BY w.word`,
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
  const ledgerOf = (enterprise: string) =>
    t.rows<{ participantId: string; lastDay: string; rho: number }>(
      `SELECT b.participant_id AS "participantId", b.last_day::text AS "lastDay", b.rho
         FROM metric_budget_spend b JOIN metric_windows w ON w.id = b.window_id
        WHERE w.enterprise_id = $1 ORDER BY b.participant_id, b.last_day`,
      [enterprise],
    );
  /** Everything releasing writes for these enterprises, to compare before and after. */
  const everything = async (enterprises: string[]) => ({
    windows: await t.rows(
      'SELECT * FROM metric_windows WHERE enterprise_id = ANY ($1) ORDER BY id',
      [enterprises],
    ),
    releases: await t.rows(
      `SELECT r.* FROM metric_releases r JOIN metric_windows w ON w.id = r.window_id
        WHERE w.enterprise_id = ANY ($1) ORDER BY r.id`,
      [enterprises],
    ),
    words: await t.rows(
      `SELECT x.* FROM metric_release_words x JOIN metric_releases r ON r.id = x.release_id
         JOIN metric_windows w ON w.id = r.window_id
        WHERE w.enterprise_id = ANY ($1) ORDER BY x.release_id, x.word`,
      [enterprises],
    ),
    ledger: await t.rows(
      `SELECT b.* FROM metric_budget_spend b JOIN metric_windows w ON w.id = b.window_id
        WHERE w.enterprise_id = ANY ($1) ORDER BY b.participant_id, b.window_id`,
      [enterprises],
    ),
    pending: await t.rows(
      `SELECT p.* FROM cohort_pending p JOIN groups g ON g.group_id = p.group_id
        WHERE g.enterprise_id = ANY ($1) ORDER BY p.session_id, p.series`,
      [enterprises],
    ),
  });

  const RHO_MONTH = releaseRho('month', 24);
  /** A release row that held too few participants: their count, nothing else. */
  const tooFew = (firstDay: string, series: string, participants: number, leftOut = 0) => ({
    firstDay,
    series,
    participants,
    released: false,
    leftOut,
    lateResults: 0,
    rho: null,
    noisySum: null,
    noisyBins: null,
    sumNoiseVariance: null,
    binNoiseVariance: null,
    wordThreshold: null,
  });
  /** A released scores row, as `releaseWindowScores` drew it. */
  const scoresRow = (
    firstDay: string,
    release: ReturnType<typeof releaseWindowScores>,
    rho: number,
    leftOut = 0,
  ) => ({
    firstDay,
    series: 'scores',
    participants: release.participants,
    released: true,
    leftOut,
    lateResults: 0,
    rho,
    noisySum: release.noisySum,
    noisyBins: release.noisyBins,
    sumNoiseVariance: release.sumNoiseVariance,
    binNoiseVariance: release.binNoiseVariance,
    wordThreshold: null,
  });
  const wordsRow = (firstDay: string, participants: number, threshold: number, rho: number) => ({
    ...tooFew(firstDay, 'words', participants),
    released: true,
    rho,
    wordThreshold: threshold,
  });

  describe('windows', () => {
    it('a result gets its window when it is ingested, of the kind and with the budget in force; a change applies from the next window, cut where it would overlap', async () => {
      const { enterprise, newGroup } = await world({ window: 'month', budget: 24 });
      const { group, checkIn } = await newGroup();
      const releaser = releaserWith(seededRandom(SEED));
      const january = await checkIn({ who: 'a', day: '2026-01-10' });
      expect(await windowsOf(enterprise)).toEqual([
        {
          kind: 'month',
          firstDay: '2026-01-01',
          lastDay: '2026-01-31',
          epsilonYear: 24,
          released: false,
        },
      ]);
      expect(await pendingOf(group, 'scores')).toEqual([january]);
      expect(await pendingOf(group, 'words')).toEqual([january]);

      // The operator's CLI, on 20 February, holds the window of today before a change.
      await releaser.holdCurrentWindow(enterprise, '2026-02-20');
      await t.rows(
        `UPDATE enterprises SET metrics_window = 'week', epsilon_year = 12 WHERE id = $1`,
        [enterprise],
      );
      // Days of the windows already made stay in them, under their settings.
      await checkIn({ who: 'b', day: '2026-01-20' });
      await checkIn({ who: 'b', day: '2026-02-25' });
      // The next windows are ISO weeks at ε_year 12; the first one starts where February ended.
      await checkIn({ who: 'a', day: '2026-03-04' });
      await checkIn({ who: 'c', day: '2026-03-01' });
      await releaser.holdCurrentWindow(enterprise, '2026-03-05');
      const month = { kind: 'month', epsilonYear: 24, released: false };
      const week = { kind: 'week', epsilonYear: 12, released: false };
      expect(await windowsOf(enterprise)).toEqual([
        { ...month, firstDay: '2026-01-01', lastDay: '2026-01-31' },
        { ...month, firstDay: '2026-02-01', lastDay: '2026-02-28' },
        { ...week, firstDay: '2026-03-01', lastDay: '2026-03-01' },
        { ...week, firstDay: '2026-03-02', lastDay: '2026-03-08' },
      ]);
      expect(await pendingOf(group, 'scores')).toHaveLength(5);

      // In the ingestion's transaction: rolled back, no window and nothing pending stay.
      const participant = await t.participant(enterprise);
      await t.membership(participant, group);
      const sessionId = await t.session(enterprise, participant, group, {
        completedAt: '2026-04-15T09:00:00Z',
      });
      await expect(
        t.db.transaction(async (sql) => {
          await releaser.addCompleted(
            { sessionId, groupId: group },
            new Date('2026-04-15T09:00:00Z'),
            sql,
          );
          throw new Error('the ingestion failed later');
        }),
      ).rejects.toThrow('the ingestion failed later');
      expect(await windowsOf(enterprise)).toHaveLength(4);
      expect(await pendingOf(group, 'scores')).not.toContain(sessionId);
    });

    it('a window is released once its last day has ended and the grace period passed, not a moment before, for every group of the enterprise; the release is the exact count and the values plus the noise drawn then', async () => {
      const { enterprise, newGroup, participant } = await world({
        scores: 2,
        words: 2,
        speakers: 1,
      });
      const g = await newGroup();
      const h = await newGroup();
      await g.checkIn({
        who: 'visible',
        day: '2026-03-02',
        level: 5,
        mhci: 80,
        words: { tired: 5, overtime: 1 },
      });
      await g.checkIn({ who: 'a', day: '2026-03-02', mhci: 20, words: { sleep: 2 } });
      await g.checkIn({ who: 'a', day: '2026-03-04', mhci: 30, words: { sleep: 1, tired: 2 } });
      await g.checkIn({ who: 'b', day: '2026-03-31', mhci: 70.004, words: { work: 1 } });
      const april = await g.checkIn({ who: 'c', day: '2026-04-01' });
      await h.checkIn({ who: 'd', day: '2026-03-10', mhci: 60 });

      const releaser = releaserWith(seededRandom(SEED));
      // March ends at 1 April 00:00 UTC; the grace period of 48 hours ends at 3 April 00:00.
      const before = await everything([enterprise]);
      expect(
        await releaser.releaseEnterprise(enterprise, new Date('2026-04-02T23:59:59.999Z')),
      ).toBe(0);
      expect(await everything([enterprise])).toEqual(before);
      expect(await releaser.releaseEnterprise(enterprise, new Date('2026-04-03T00:00:00Z'))).toBe(
        1,
      );
      expect(await windowsOf(enterprise)).toEqual([
        {
          kind: 'month',
          firstDay: '2026-03-01',
          lastDay: '2026-03-31',
          epsilonYear: 24,
          released: true,
        },
        {
          kind: 'month',
          firstDay: '2026-04-01',
          lastDay: '2026-04-30',
          epsilonYear: 24,
          released: false,
        },
      ]);

      // One value a participant, in hundredths: visible 80, a the mean of 20 and 30, b 70.004.
      // One word a participant, her most frequent: visible tired, a sleep (3 against 2), b work.
      const expected = seededRandom(SEED);
      const scores = releaseWindowScores([8000, 2500, 7000], RHO_MONTH, expected);
      const words = releaseWindowWords(
        [['tired'], ['sleep'], ['work']],
        RHO_MONTH,
        1,
        wordReleaseDelta('month'),
        expected,
      );
      // The noise is not zero (fixed by the seed): what is stored is not the exact aggregate.
      expect(scores.noisySum).not.toBe(17_500);
      expect(scores.noisyBins).not.toEqual(exactBins([8000, 2500, 7000]));
      expect(await releasesOf(g.group)).toEqual([
        scoresRow('2026-03-01', scores, RHO_MONTH),
        wordsRow('2026-03-01', 3, words.threshold, RHO_MONTH),
      ]);
      // Three speakers are far below a month's threshold at the default budget: no word passes.
      expect(words.words).toEqual([]);
      expect(await releasedWordsOf(g.group)).toEqual([]);
      // The other group, released at the same time: one participant, fewer than k.
      expect(await releasesOf(h.group)).toEqual([
        tooFew('2026-03-01', 'scores', 1),
        tooFew('2026-03-01', 'words', 1),
      ]);
      // March's results are no longer pending; April's wait for their window.
      expect(await pendingOf(g.group, 'scores')).toEqual([april]);
      expect(await pendingOf(g.group, 'words')).toEqual([april]);
      expect(await pendingOf(h.group, 'scores')).toEqual([]);
      // Each participant in both releases spent ρ twice; d, in none, nothing.
      expect(await ledgerOf(enterprise)).toEqual(
        ['visible', 'a', 'b']
          .map((who) => ({
            participantId: participant(who),
            lastDay: '2026-03-31',
            rho: 2 * RHO_MONTH,
          }))
          .sort((x, y) => (x.participantId < y.participantId ? -1 : 1)),
      );
    });

    it('a released window is released once: a second call, a sweep of the enterprise or another read releases nothing and changes nothing; two releasers on their own connections at once release each window once', async () => {
      const { enterprise, newGroup } = await world({ scores: 1, words: 1, speakers: 1 });
      const { group, checkIn } = await newGroup();
      for (const day of ['2026-05-04', '2026-05-20', '2026-06-03', '2026-06-30']) {
        await checkIn({ who: `p${day}`, day, mhci: 40, words: { tired: 1 } });
      }
      const other = await t.openDatabase(2);
      const now = new Date('2026-07-05T00:00:00Z');
      const released = await Promise.all([
        releaserWith(seededRandom(1)).releaseEnterprise(enterprise, now),
        releaserWith(seededRandom(2), other).releaseEnterprise(enterprise, now),
      ]);
      // One of them took the enterprise's lock first and released both months.
      expect(released.sort()).toEqual([0, 2]);
      expect(
        await t.rows(
          `SELECT series, count(*)::int AS releases, count(DISTINCT window_id)::int AS windows
             FROM metric_releases WHERE group_id = $1 GROUP BY series ORDER BY series`,
          [group],
        ),
      ).toEqual([
        { series: 'scores', releases: 2, windows: 2 },
        { series: 'words', releases: 2, windows: 2 },
      ]);
      expect(await ledgerOf(enterprise)).toHaveLength(4);

      const after = await everything([enterprise]);
      expect(await releaserWith(seededRandom(3)).releaseEnterprise(enterprise, now)).toBe(0);
      expect(
        await releaserWith(seededRandom(4)).releaseEnterprise(
          enterprise,
          new Date('2027-01-01T00:00:00Z'),
          { sweep: true },
        ),
      ).toBe(0);
      expect(await everything([enterprise])).toEqual(after);
    });
  });

  describe('what enters a release', () => {
    it('a series is released when at least k participants entered it, whatever their level; below k only their count is kept, with no noise and no spend', async () => {
      const { enterprise, newGroup, participant } = await world({
        scores: 3,
        words: 3,
        speakers: 1,
      });
      const small = await newGroup();
      const large = await newGroup();
      await small.checkIn({ who: 's1', day: '2026-08-03', level: 5, mhci: 10 });
      await small.checkIn({ who: 's2', day: '2026-08-04', level: 0, mhci: 90 });
      // Visible (5 shows everything, 4 the words) and hidden participants alike.
      await large.checkIn({ who: 'l1', day: '2026-08-03', level: 5, mhci: 25, words: { a: 1 } });
      await large.checkIn({ who: 'l2', day: '2026-08-10', level: 4, mhci: 45, words: { b: 1 } });
      await large.checkIn({ who: 'l3', day: '2026-08-31', level: 0, mhci: 65, words: { c: 1 } });

      expect(
        await releaserWith(seededRandom(SEED)).releaseEnterprise(
          enterprise,
          new Date('2026-09-05T00:00:00Z'),
        ),
      ).toBe(1);
      expect(await releasesOf(small.group)).toEqual([
        tooFew('2026-08-01', 'scores', 2),
        tooFew('2026-08-01', 'words', 2),
      ]);
      // The small group drew nothing: the large one's noise is the seed's first draws.
      const expected = seededRandom(SEED);
      const scores = releaseWindowScores([2500, 4500, 6500], RHO_MONTH, expected);
      const words = releaseWindowWords(
        [['a'], ['b'], ['c']],
        RHO_MONTH,
        1,
        wordReleaseDelta('month'),
        expected,
      );
      expect(await releasesOf(large.group)).toEqual([
        scoresRow('2026-08-01', scores, RHO_MONTH),
        wordsRow('2026-08-01', 3, words.threshold, RHO_MONTH),
      ]);
      expect((await ledgerOf(enterprise)).map((row) => row.participantId).sort()).toEqual(
        ['l1', 'l2', 'l3'].map(participant).sort(),
      );
    });

    it("a participant's values enter one group a window: where she has most sessions there, ties to the lowest groupID; the other group counts hers as left out", async () => {
      const { enterprise, newGroup, participant } = await world({
        scores: 1,
        words: 100,
        speakers: 1,
      });
      const first = await newGroup();
      const second = await newGroup();
      expect(first.group).toBeLessThan(second.group);
      // p: once in the first group, twice in the second; q: once in each; r: the first only.
      await first.checkIn({ who: 'p', day: '2026-10-05', mhci: 10 });
      await second.checkIn({ who: 'p', day: '2026-10-06', mhci: 60 });
      await second.checkIn({ who: 'p', day: '2026-10-07', mhci: 80 });
      await first.checkIn({ who: 'q', day: '2026-10-05', mhci: 30 });
      await second.checkIn({ who: 'q', day: '2026-10-06', mhci: 90 });
      await first.checkIn({ who: 'r', day: '2026-10-08', mhci: 50 });

      expect(
        await releaserWith(seededRandom(SEED)).releaseEnterprise(
          enterprise,
          new Date('2026-11-05T00:00:00Z'),
        ),
      ).toBe(1);
      // The first group: q (30) and r (50); p's 10 left out. The second: p, the mean of 60 and
      // 80; q's 90 left out. Words: fewer than k = 100 in both, nothing drawn.
      const expected = seededRandom(SEED);
      const inFirst = releaseWindowScores([3000, 5000], RHO_MONTH, expected);
      const inSecond = releaseWindowScores([7000], RHO_MONTH, expected);
      expect(await releasesOf(first.group)).toEqual([
        scoresRow('2026-10-01', inFirst, RHO_MONTH, 1),
        tooFew('2026-10-01', 'words', 2, 1),
      ]);
      expect(await releasesOf(second.group)).toEqual([
        scoresRow('2026-10-01', inSecond, RHO_MONTH, 1),
        tooFew('2026-10-01', 'words', 1, 1),
      ]);
      // Each spent one release's ρ, once, wherever her values went.
      expect(await ledgerOf(enterprise)).toEqual(
        ['p', 'q', 'r']
          .map((who) => ({
            participantId: participant(who),
            lastDay: '2026-10-31',
            rho: RHO_MONTH,
          }))
          .sort((x, y) => (x.participantId < y.participantId ? -1 : 1)),
      );
    });

    it('a result for a window already released joins no release: not pending, counted late in its group’s release (made if it had none), still in its day’s count', async () => {
      const { enterprise, newGroup } = await world({ scores: 1, words: 1, speakers: 1 });
      const g = await newGroup();
      await g.checkIn({ who: 'a', day: '2026-09-02', mhci: 40 });
      await g.checkIn({ who: 'b', day: '2026-09-03', mhci: 60 });
      const releaser = releaserWith(seededRandom(SEED));
      const now = new Date('2026-10-05T00:00:00Z');
      expect(await releaser.releaseEnterprise(enterprise, now)).toBe(1);
      const released = await releasesOf(g.group);
      const dayCount = () =>
        t.rows(`SELECT sessions FROM group_day_counts WHERE group_id = $1 AND day = '2026-09-15'`, [
          g.group,
        ]);

      const late = await g.checkIn({ who: 'c', day: '2026-09-15', mhci: 99 });
      expect(await pendingOf(g.group, 'scores')).toEqual([]);
      expect(await pendingOf(g.group, 'words')).toEqual([]);
      expect(await releasesOf(g.group)).toEqual(
        released.map((row) => ({ ...row, lateResults: 1 })),
      );
      expect(await dayCount()).toEqual([{ sessions: 1 }]);
      // A group with no release in that window gets one that says so: none entered, one late.
      const h = await newGroup();
      await h.checkIn({ who: 'd', day: '2026-09-20' });
      expect(await releasesOf(h.group)).toEqual([
        { ...tooFew('2026-09-01', 'scores', 0), lateResults: 1 },
        { ...tooFew('2026-09-01', 'words', 0), lateResults: 1 },
      ]);

      // A result whose ingestion raced the release (still pending for a released window): the
      // next sweep settles it as late, and releases nothing.
      await t.rows(
        `INSERT INTO cohort_pending (session_id, series, group_id)
         VALUES ($1, 'scores', $2), ($1, 'words', $2)`,
        [late, g.group],
      );
      expect(await releaser.releaseEnterprise(enterprise, now, { sweep: true })).toBe(0);
      expect(await pendingOf(g.group, 'scores')).toEqual([]);
      expect(await releasesOf(g.group)).toEqual(
        released.map((row) => ({ ...row, lateResults: 2 })),
      );
      expect(await windowsOf(enterprise)).toEqual([
        expect.objectContaining({ firstDay: '2026-09-01', released: true }),
      ]);
    });
  });

  describe('the sweep', () => {
    // Its windows are in 2025 and earlier: the tests above have nothing due then.
    it('releases what is due for every enterprise with results waiting or a window not released; a second sweep releases nothing and changes nothing', async () => {
      const monthly = await world({ scores: 1, words: 1, speakers: 1, window: 'month' });
      const weekly = await world({ scores: 1, words: 1, speakers: 1, window: 'week' });
      const idle = await world();
      const m = await monthly.newGroup();
      const w = await weekly.newGroup();
      await idle.newGroup();
      await m.checkIn({ who: 'a', day: '2025-01-06', words: { calm: 1 } });
      await m.checkIn({ who: 'b', day: '2025-01-31', words: { calm: 1 } });
      await m.checkIn({ who: 'a', day: '2025-02-03' });
      await w.checkIn({ who: 'a', day: '2025-01-27' });
      await w.checkIn({ who: 'a', day: '2025-02-02' });
      await w.checkIn({ who: 'b', day: '2025-02-03' });
      const enterprises = [monthly.enterprise, weekly.enterprise, idle.enterprise];
      const waiting = async () =>
        (await new MetricWindowsRepository(t.db).enterprisesWithPending()).filter((id) =>
          enterprises.includes(id),
        );
      expect((await waiting()).sort()).toEqual([monthly.enterprise, weekly.enterprise].sort());

      // 5 February: January and the week of 27 January are due (ended 2 days ago); February and
      // the week of 3 February are not.
      const now = new Date('2025-02-05T00:00:00Z');
      expect(await releaserWith(seededRandom(SEED)).releaseDue(now)).toBe(2);
      expect(
        (await windowsOf(monthly.enterprise)).map((row) => [row.firstDay, row.released]),
      ).toEqual([
        ['2025-01-01', true],
        ['2025-02-01', false],
      ]);
      expect(
        (await windowsOf(weekly.enterprise)).map((row) => [row.firstDay, row.released]),
      ).toEqual([
        ['2025-01-27', true],
        ['2025-02-03', false],
      ]);
      expect(await windowsOf(idle.enterprise)).toEqual([]);
      expect(await releasesOf(m.group)).toEqual([
        expect.objectContaining({ series: 'scores', participants: 2, released: true }),
        expect.objectContaining({ series: 'words', participants: 2, released: true }),
      ]);

      const after = await everything(enterprises);
      expect(await releaserWith(seededRandom(SEED)).releaseDue(now)).toBe(0);
      expect(await everything(enterprises)).toEqual(after);

      // A month later the rest is due; then nothing of theirs waits.
      expect(
        await releaserWith(seededRandom(SEED)).releaseDue(new Date('2025-03-05T00:00:00Z')),
      ).toBe(2);
      expect(await everything(enterprises)).toMatchObject({ pending: [] });
      expect(await waiting()).toEqual([]);
    });

    it('gives results pending from before the upgrade (no window yet) their windows of the kind in force, and releases those due; a read releases nothing for them', async () => {
      const { enterprise, newGroup } = await world({
        scores: 1,
        words: 1,
        speakers: 1,
        window: 'week',
        budget: 30,
      });
      const { group } = await newGroup();
      const pendingSession = async (day: string) => {
        const participant = await t.participant(enterprise);
        await t.membership(participant, group);
        const sessionId = await t.session(enterprise, participant, group, {
          completedAt: `${day}T09:00:00Z`,
          mhci: 55,
        });
        // As the second version left it: pending in both series, no window.
        await t.rows(
          `INSERT INTO cohort_pending (session_id, series, group_id)
           VALUES ($1, 'scores', $2), ($1, 'words', $2)`,
          [sessionId, group],
        );
        return sessionId;
      };
      await pendingSession('2024-09-04');
      const waiting = await pendingSession('2024-09-12');
      const now = new Date('2024-09-13T00:00:00Z');
      const releaser = releaserWith(seededRandom(SEED));

      // A group read looks for a due window only (an index probe): none is made yet.
      expect(await releaser.releaseEnterprise(enterprise, now)).toBe(0);
      expect(await windowsOf(enterprise)).toEqual([]);

      expect(await releaser.releaseDue(now)).toBe(1);
      expect(await windowsOf(enterprise)).toEqual([
        {
          kind: 'week',
          firstDay: '2024-09-02',
          lastDay: '2024-09-08',
          epsilonYear: 30,
          released: true,
        },
        {
          kind: 'week',
          firstDay: '2024-09-09',
          lastDay: '2024-09-15',
          epsilonYear: 30,
          released: false,
        },
      ]);
      expect(await releasesOf(group)).toEqual([
        expect.objectContaining({
          firstDay: '2024-09-02',
          series: 'scores',
          participants: 1,
          released: true,
          rho: releaseRho('week', 30),
        }),
        expect.objectContaining({ firstDay: '2024-09-02', series: 'words', participants: 1 }),
      ]);
      expect(await pendingOf(group, 'scores')).toEqual([waiting]);
    });
  });
});
