/**
 * What one window releases for one group (docs/metrics.md, "Scores" and "Words"), as pure
 * functions: the release repository stores their output, and nothing else of the values.
 *
 * Scores: each participant gives one value, her mean MHCI in the window in hundredths, clipped to
 * [0, 100]. The release is the exact count, the sum of the values plus discrete Gaussian noise, and
 * a histogram of SCORE_BINS equal bins plus discrete Gaussian noise (discrete-gaussian.ts, sampled
 * exactly from `crypto`). Replacing one participant's value moves the sum by at most 10,000
 * hundredths and the histogram by one count out of a bin and one into another (L2 distance √2),
 * so a release that gives the sum a share ρ_sum of ρ and the histogram the rest is ρ-zCDP.
 *
 * Words: each participant gives at most WORDS_PER_RELEASE of her most frequent words; a word's
 * count is its speakers; the release is the partition selection of word-release.ts (discrete
 * Laplace noise and a threshold) at the pure ε = √(2ρ), which is (ρ, δ)-approximately zCDP: ρ for
 * the noisy counts (an ε-DP mechanism is ε²/2-zCDP), δ for a word only one world has.
 */
import {
  discreteGaussian,
  discreteGaussianVariance,
  sigma2For,
} from '../releases/discrete-gaussian';
import { cryptoRandom, type RandomSource } from '../releases/discrete-laplace';
import { MHCI_MAX } from '../releases/score-release';
import { type ReleasedWord, releaseWords, wordThreshold } from '../releases/word-release';

/** Equal bins of the histogram over [0, 100] (5 points each; 100 in the last). */
export const SCORE_BINS = 20;
/** The share of a scores release's ρ that the sum takes; the histogram takes the rest. */
export const SUM_SHARE = 0.5;
/** m: the words one participant gives a release (chosen by the accuracy table). */
export const WORDS_PER_RELEASE = 1;

/** The bin of a value in hundredths. */
export const scoreBin = (hundredths: number): number =>
  Math.min(SCORE_BINS - 1, Math.floor((hundredths * SCORE_BINS) / MHCI_MAX));

/** One window's scores release for one group, as stored (the count exact, the rest noisy). */
export interface WindowScores {
  participants: number;
  noisySum: number;
  noisyBins: number[];
  sumNoiseVariance: number;
  binNoiseVariance: number;
}

/** The noise of a scores release at ρ: the variances σ² of the sum and of each bin. */
export function scoreNoise(rho: number) {
  const sum = sigma2For(MHCI_MAX, rho * SUM_SHARE);
  const bin = sigma2For(Math.SQRT2, rho * (1 - SUM_SHARE));
  return {
    sum,
    bin,
    sumVariance: discreteGaussianVariance(sum),
    binVariance: discreteGaussianVariance(bin),
  };
}

/** Releases the participants' values (hundredths) at ρ: noise drawn now, once. */
export function releaseWindowScores(
  values: readonly number[],
  rho: number,
  random: RandomSource = cryptoRandom,
): WindowScores {
  const noise = scoreNoise(rho);
  const bins = new Array<number>(SCORE_BINS).fill(0);
  let sum = 0;
  for (const value of values) {
    if (!Number.isInteger(value) || value < 0 || value > MHCI_MAX) {
      throw new RangeError(`a participant's score must be whole hundredths in [0, 100]: ${value}`);
    }
    sum += value;
    bins[scoreBin(value)] += 1;
  }
  return {
    participants: values.length,
    noisySum: sum + discreteGaussian(noise.sum, random),
    noisyBins: bins.map((count) => count + discreteGaussian(noise.bin, random)),
    sumNoiseVariance: noise.sumVariance,
    binNoiseVariance: noise.binVariance,
  };
}

/** The pure ε (hundredths, rounded down) whose ε²/2 is at most ρ: the words' noise. */
export const wordEpsilon = (rho: number): number => Math.floor(Math.sqrt(2 * rho) * 100);

/** The noisy count a word must reach in a words release at ρ and δ. */
export const windowWordThreshold = (rho: number, minWordSpeakers: number, delta: number): number =>
  wordThreshold(wordEpsilon(rho), minWordSpeakers, WORDS_PER_RELEASE, delta);

/** Releases the participants' words at ρ and δ: noise drawn now, once. */
export function releaseWindowWords(
  speakers: readonly (readonly string[])[],
  rho: number,
  minWordSpeakers: number,
  delta: number,
  random: RandomSource = cryptoRandom,
): { words: ReleasedWord[]; threshold: number } {
  const epsilon = wordEpsilon(rho);
  return {
    words: releaseWords(speakers, epsilon, minWordSpeakers, random, WORDS_PER_RELEASE, delta),
    threshold: wordThreshold(epsilon, minWordSpeakers, WORDS_PER_RELEASE, delta),
  };
}
