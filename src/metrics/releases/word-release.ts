/**
 * Group words as an (ε, δ)-differentially private partition selection (docs/metrics.md,
 * "Words"; Korolova et al. 2009, Desfontaines et al. 2022), for the calendar windows
 * (windows/window-release.ts, m = 1) as for the second version's cells. In a release (a cell
 * then) each participant gives at most WORDS_PER_PARTICIPANT distinct words (their most
 * frequent there); a word's count is its number of speakers. Each word said by at least
 * `minWordSpeakers` gets discrete Laplace noise, and is released, with its noisy count, only when
 * that reaches a threshold set so that a word one participant's choice decides is released with
 * probability at most δ. Words that do not pass are never stored.
 *
 * Why the scale and threshold are what they are: replacing one participant's words, everyone
 * else fixed, lowers at most m counts by one and raises at most m others (L1 distance 2m), so
 * noise of scale 2m/ε makes the noisy counts of words present in both worlds ε-DP. A word present
 * in only one world has exactly `minWordSpeakers` speakers there; it passes the threshold with
 * probability at most δ₁, and there are at most m such words in each world, so the release is
 * (ε, m·δ₁·(1 + e^ε))-DP: δ₁ is chosen to make that δ.
 */
import { cryptoRandom, discreteLaplace, discreteLaplaceRatio } from './discrete-laplace';
import type { RandomSource } from './discrete-laplace';
import { WORD_DELTA } from '../../common/privacy-model';

/** m: the most distinct words one participant gives a cell (chosen by the accuracy table). */
export const WORDS_PER_PARTICIPANT = 3;

/**
 * A participant's words in a cell: the `m` they said most often there; ties go to the longer
 * word, then the alphabetically first (a fixed rule, the same for everyone).
 */
export function participantWords(
  counts: Iterable<readonly [string, number]>,
  m: number = WORDS_PER_PARTICIPANT,
): string[] {
  return [...counts]
    .filter(([, count]) => count > 0)
    .sort(([a, m1], [b, m2]) => m2 - m1 || b.length - a.length || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, m)
    .map(([word]) => word);
}

/** The noise scale t/s, in integers: 2m / (ε/100). */
export const wordNoiseScale = (epsilon: number, m: number = WORDS_PER_PARTICIPANT) => ({
  t: 2 * m * 100,
  s: epsilon,
});

/**
 * The smallest noisy count released: `minWordSpeakers` + the smallest k with
 * P(noise ≥ k) = q^k / (1 + q) ≤ δ₁, δ₁ = δ / (m · (1 + e^ε)).
 */
export function wordThreshold(
  epsilon: number,
  minWordSpeakers: number,
  m: number = WORDS_PER_PARTICIPANT,
  delta: number = WORD_DELTA,
): number {
  const { t, s } = wordNoiseScale(epsilon, m);
  const q = discreteLaplaceRatio(t, s);
  const perWord = delta / (m * (1 + Math.exp(epsilon / 100)));
  let k = Math.max(1, Math.ceil(Math.log(perWord * (1 + q)) / Math.log(q)) - 1);
  // The logarithms are floating point: step to the exact smallest k the inequality allows.
  while (q ** k / (1 + q) > perWord) k += 1;
  while (k > 1 && q ** (k - 1) / (1 + q) <= perWord) k -= 1;
  return minWordSpeakers + k;
}

/** A released word: its noisy count of speakers. */
export interface ReleasedWord {
  word: string;
  count: number;
}

/**
 * Releases a cell's words at ε (hundredths): `speakers` holds each participant's words
 * ({@link participantWords}). Noise is drawn now, once, in word order.
 */
export function releaseWords(
  speakers: readonly (readonly string[])[],
  epsilon: number,
  minWordSpeakers: number,
  random: RandomSource = cryptoRandom,
  m: number = WORDS_PER_PARTICIPANT,
  delta: number = WORD_DELTA,
): ReleasedWord[] {
  const counts = new Map<string, number>();
  for (const words of speakers) {
    if (new Set(words).size !== words.length || words.length > m) {
      throw new RangeError(`a participant gives at most ${m} distinct words`);
    }
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const { t, s } = wordNoiseScale(epsilon, m);
  const threshold = wordThreshold(epsilon, minWordSpeakers, m, delta);
  const released: ReleasedWord[] = [];
  for (const word of [...counts.keys()].sort()) {
    const count = counts.get(word)!;
    if (count < minWordSpeakers) continue;
    const noisy = count + discreteLaplace(t, s, random);
    if (noisy >= threshold) released.push({ word, count: noisy });
  }
  return released;
}
