/**
 * The "two worlds" of differential privacy, on real releases (docs/metrics.md, "The budget",
 * "Scores" and "Words"): two enterprises alike in everything but the values of hidden
 * participants, their month released with the same random draws (replayed). A release is the
 * exact aggregate plus noise that depends on nothing but the draws, so:
 * - when two hidden colleagues' values are swapped between the worlds, every answer — every
 *   range, every period, scores and words, with what it says of its accuracy — is identical;
 * - when one hidden participant's values differ, the releases differ by exactly her
 *   contribution — at most what the noise is calibrated to cover (10,000 hundredths in the sum,
 *   one count out of a bin and one into another, one speaker off a word and onto another) — and
 *   in nothing else: counts, budget, thresholds, the words let through.
 * (With fresh draws, as in production, the worlds' releases differ only by noise: the probability
 * of any release changes by at most what ρ allows; src/metrics/releases/*.spec.ts.)
 */
import { randomBytes } from 'node:crypto';
import { PiiCipher } from '../../src/common/crypto/pii-cipher';
import type { RandomSource } from '../../src/metrics/releases/discrete-laplace';
import { replayableRandom } from '../../src/metrics/releases/replayable-random';
import { participantScore } from '../../src/metrics/releases/score-release';
import { releaseRho, wordReleaseDelta } from '../../src/metrics/windows/budget';
import {
  type GroupRange,
  GroupReleasesReader,
} from '../../src/metrics/windows/group-releases.reader';
import { MetricWindowsRepository } from '../../src/metrics/windows/metric-windows.repository';
import {
  scoreBin,
  SCORE_BINS,
  windowWordThreshold,
} from '../../src/metrics/windows/window-release';
import { sealJson } from '../../src/sessions/transcript-codec';
import { windowReleaserOn } from './service-fixtures';
import { TestDatabase } from './support';

/** A member of a world: her level, the day of her check-in, her MHCI and counted words. */
interface Member {
  level: number;
  day: string;
  mhci: number;
  words: Record<string, number>;
}

/** The budget of both worlds: the highest, so a month of a few dozen lets words through. */
const EPSILON_YEAR = 100;
const MIN_WORD_SPEAKERS = 2;
/** Released on 5 April: March is due. */
const NOW = new Date('2026-04-05T00:00:00Z');
const DAYS = ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06'];

describe('two worlds: hidden values differ, the draws are the same', () => {
  let t: TestDatabase;
  const cipher = new PiiCipher(randomBytes(32));
  let windows: MetricWindowsRepository;
  let reader: GroupReleasesReader;
  const ingestion = () => windowReleaserOn(t.db, cipher);

  beforeAll(async () => {
    t = await TestDatabase.create();
    windows = new MetricWindowsRepository(t.db);
    reader = new GroupReleasesReader(t.db);
  });
  afterAll(() => t.close());

  /** A world: an enterprise whose one group's members each checked in once in March. */
  async function world(members: readonly Member[]): Promise<{ enterprise: string; group: number }> {
    const enterprise = await t.enterprise();
    await t.rows(
      `UPDATE enterprises SET min_cohort_scores = 2, min_cohort_words = 2, min_word_speakers = $2,
              epsilon_year = $3, metrics_window = 'month' WHERE id = $1`,
      [enterprise, MIN_WORD_SPEAKERS, EPSILON_YEAR],
    );
    const group = await t.group(enterprise);
    for (const { level, day, mhci, words } of members) {
      const participant = await t.participant(enterprise);
      await t.membership(participant, group, level);
      const completedAt = `${day}T09:00:00Z`;
      const sessionId = await t.session(enterprise, participant, group, { completedAt, mhci });
      await t.rows(
        `UPDATE sessions SET word_counts = $2, counted_words = 1 WHERE session_id = $1`,
        [sessionId, sealJson(cipher, words)],
      );
      await t.db.transaction((sql) =>
        ingestion().addCompleted({ sessionId, groupId: group }, new Date(completedAt), sql),
      );
    }
    return { enterprise, group };
  }

  /** Releases the world's March with `random` (one window). */
  const release = async (w: { enterprise: string }, random: RandomSource) =>
    windowReleaserOn(t.db, cipher, { random }).releaseEnterprise(w.enterprise, NOW);

  /** `n` colleagues saying `word`, levels and days and scores spread. */
  const crowd = (n: number, word: string, offset = 0): Member[] =>
    Array.from({ length: n }, (_, i) => ({
      level: [0, 0, 1, 4, 5][(i + offset) % 5],
      day: DAYS[(i + offset) % DAYS.length],
      mhci: 35 + ((i * 17 + offset) % 50),
      words: { [word]: 2, other: 1 },
    }));

  it('two hidden colleagues’ values swapped: every answer of group mhci and wordcloud is identical', async () => {
    const someone: Member = {
      level: 0,
      day: DAYS[0],
      mhci: 23.4,
      words: { antidepressant: 2, divorce: 1, tired: 1 },
    };
    const colleague: Member = { level: 0, day: DAYS[1], mhci: 61.5, words: { sleep: 1, tired: 2 } };
    const others = [...crowd(30, 'tired'), ...crowd(8, 'work', 3)];
    const swap = (a: Member, b: Member): Member[] => [
      { ...someone, mhci: a.mhci, words: a.words },
      { ...colleague, mhci: b.mhci, words: b.words },
    ];
    const original = await world([...others, ...swap(someone, colleague)]);
    const swapped = await world([...others, ...swap(colleague, someone)]);

    const { record, replay } = replayableRandom();
    expect(await release(original, record)).toBe(1);
    expect(await release(swapped, replay())).toBe(1);

    const answers = async (w: { enterprise: string; group: number }) => {
      const settings = (await windows.settingsOf(w.enterprise))!;
      const all: unknown[] = [];
      for (const from of [null, '2026-03-01', '2026-03-03']) {
        for (const to of [null, '2026-03-05', '2026-03-31']) {
          for (const groupBy of [null, 'day', 'week', 'month'] as const) {
            const range: GroupRange = { from, to, groupBy };
            all.push(await reader.mhci(w.enterprise, w.group, range, settings));
            all.push(await reader.wordcloud(w.enterprise, w.group, range, settings, 200));
          }
        }
      }
      return all;
    };
    const inOriginal = await answers(original);
    expect(await answers(swapped)).toEqual(inOriginal);
    // The releases do answer, scores and words; nothing only she said is released.
    const [mhci, cloud] = inOriginal as [{ value: unknown }[], { value: unknown }[]];
    expect(mhci[0].value).not.toBeNull();
    expect(cloud[0].value).toHaveProperty('tired');
    expect(JSON.stringify(inOriginal)).not.toMatch(/antidepressant|divorce/);
  });

  it('one hidden participant’s values differ: the releases differ by exactly her contribution, and in nothing else', async () => {
    const rho = releaseRho('month', EPSILON_YEAR);
    const threshold = windowWordThreshold(rho, MIN_WORD_SPEAKERS, wordReleaseDelta('month'));
    // Both words far above the threshold in both worlds, whatever the (shared) draws.
    const others = [...crowd(threshold + 11, 'tired'), ...crowd(threshold + 11, 'work', 2)];
    const mine = { level: 0, day: DAYS[2] };
    const low = await world([...others, { ...mine, mhci: 23.4, words: { tired: 3, sleep: 1 } }]);
    const high = await world([...others, { ...mine, mhci: 81, words: { work: 2 } }]);

    const { record, replay } = replayableRandom();
    expect(await release(low, record)).toBe(1);
    expect(await release(high, replay())).toBe(1);

    const releases = (group: number) =>
      t.rows<Record<string, unknown> & { noisySum: number | null; noisyBins: number[] | null }>(
        `SELECT series, participants, released, left_out AS "leftOut",
                late_results AS "lateResults", rho, noisy_sum AS "noisySum",
                noisy_bins AS "noisyBins", sum_noise_variance AS "sumNoiseVariance",
                bin_noise_variance AS "binNoiseVariance", word_threshold AS "wordThreshold"
           FROM metric_releases WHERE group_id = $1 ORDER BY series`,
        [group],
      );
    const words = (group: number) =>
      t
        .rows<{ word: string; count: number }>(
          `SELECT w.word, w.count FROM metric_release_words w
             JOIN metric_releases r ON r.id = w.release_id
            WHERE r.group_id = $1 ORDER BY w.word`,
          [group],
        )
        .then((rows) => Object.fromEntries(rows.map((row) => [row.word, row.count])));

    const [lowScores, lowWords] = await releases(low.group);
    const [highScores, highWords] = await releases(high.group);
    // Everything but the noisy aggregates is the same: counts, budget, variances, threshold.
    const without = ({ noisySum: _s, noisyBins: _b, ...rest }: typeof lowScores) => rest;
    expect(without(highScores)).toEqual(without(lowScores));
    expect(highWords).toEqual(lowWords);
    expect(lowScores).toMatchObject({ participants: 2 * threshold + 23, released: true, rho });
    expect(lowWords).toMatchObject({ released: true, wordThreshold: threshold });

    // The sum: her value moved from 23.4 to 81, in hundredths, under the same noise.
    expect(highScores.noisySum! - lowScores.noisySum!).toBe(
      participantScore(81) - participantScore(23.4),
    );
    // The histogram: one count out of her old bin, one into her new one.
    const moved = new Array<number>(SCORE_BINS).fill(0);
    moved[scoreBin(participantScore(23.4))] -= 1;
    moved[scoreBin(participantScore(81))] += 1;
    expect(highScores.noisyBins!.map((count, bin) => count - lowScores.noisyBins![bin])).toEqual(
      moved,
    );
    // The words: her one word, tired in one world, work in the other; the same words pass.
    const [lowCloud, highCloud] = [await words(low.group), await words(high.group)];
    expect(Object.keys(highCloud)).toEqual(['tired', 'work']);
    expect(Object.keys(lowCloud)).toEqual(['tired', 'work']);
    expect(highCloud.tired - lowCloud.tired).toBe(-1);
    expect(highCloud.work - lowCloud.work).toBe(1);
  });
});
