"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.windowWordThreshold = exports.wordEpsilon = exports.scoreBin = exports.WORDS_PER_RELEASE = exports.SUM_SHARE = exports.SCORE_BINS = void 0;
exports.scoreNoise = scoreNoise;
exports.releaseWindowScores = releaseWindowScores;
exports.releaseWindowWords = releaseWindowWords;
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
const discrete_gaussian_1 = require("../releases/discrete-gaussian");
const discrete_laplace_1 = require("../releases/discrete-laplace");
const score_release_1 = require("../releases/score-release");
const word_release_1 = require("../releases/word-release");
/** Equal bins of the histogram over [0, 100] (5 points each; 100 in the last). */
exports.SCORE_BINS = 20;
/** The share of a scores release's ρ that the sum takes; the histogram takes the rest. */
exports.SUM_SHARE = 0.5;
/** m: the words one participant gives a release (chosen by the accuracy table). */
exports.WORDS_PER_RELEASE = 1;
/** The bin of a value in hundredths. */
const scoreBin = (hundredths) => Math.min(exports.SCORE_BINS - 1, Math.floor((hundredths * exports.SCORE_BINS) / score_release_1.MHCI_MAX));
exports.scoreBin = scoreBin;
/** The noise of a scores release at ρ: the variances σ² of the sum and of each bin. */
function scoreNoise(rho) {
    const sum = (0, discrete_gaussian_1.sigma2For)(score_release_1.MHCI_MAX, rho * exports.SUM_SHARE);
    const bin = (0, discrete_gaussian_1.sigma2For)(Math.SQRT2, rho * (1 - exports.SUM_SHARE));
    return {
        sum,
        bin,
        sumVariance: (0, discrete_gaussian_1.discreteGaussianVariance)(sum),
        binVariance: (0, discrete_gaussian_1.discreteGaussianVariance)(bin),
    };
}
/** Releases the participants' values (hundredths) at ρ: noise drawn now, once. */
function releaseWindowScores(values, rho, random = discrete_laplace_1.cryptoRandom) {
    const noise = scoreNoise(rho);
    const bins = new Array(exports.SCORE_BINS).fill(0);
    let sum = 0;
    for (const value of values) {
        if (!Number.isInteger(value) || value < 0 || value > score_release_1.MHCI_MAX) {
            throw new RangeError(`a participant's score must be whole hundredths in [0, 100]: ${value}`);
        }
        sum += value;
        bins[(0, exports.scoreBin)(value)] += 1;
    }
    return {
        participants: values.length,
        noisySum: sum + (0, discrete_gaussian_1.discreteGaussian)(noise.sum, random),
        noisyBins: bins.map((count) => count + (0, discrete_gaussian_1.discreteGaussian)(noise.bin, random)),
        sumNoiseVariance: noise.sumVariance,
        binNoiseVariance: noise.binVariance,
    };
}
/** The pure ε (hundredths, rounded down) whose ε²/2 is at most ρ: the words' noise. */
const wordEpsilon = (rho) => Math.floor(Math.sqrt(2 * rho) * 100);
exports.wordEpsilon = wordEpsilon;
/** The noisy count a word must reach in a words release at ρ and δ. */
const windowWordThreshold = (rho, minWordSpeakers, delta) => (0, word_release_1.wordThreshold)((0, exports.wordEpsilon)(rho), minWordSpeakers, exports.WORDS_PER_RELEASE, delta);
exports.windowWordThreshold = windowWordThreshold;
/** Releases the participants' words at ρ and δ: noise drawn now, once. */
function releaseWindowWords(speakers, rho, minWordSpeakers, delta, random = discrete_laplace_1.cryptoRandom) {
    const epsilon = (0, exports.wordEpsilon)(rho);
    return {
        words: (0, word_release_1.releaseWords)(speakers, epsilon, minWordSpeakers, random, exports.WORDS_PER_RELEASE, delta),
        threshold: (0, word_release_1.wordThreshold)(epsilon, minWordSpeakers, exports.WORDS_PER_RELEASE, delta),
    };
}
//# sourceMappingURL=window-release.js.map