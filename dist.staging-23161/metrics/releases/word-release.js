"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.wordNoiseScale = exports.WORDS_PER_PARTICIPANT = void 0;
exports.participantWords = participantWords;
exports.wordThreshold = wordThreshold;
exports.releaseWords = releaseWords;
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
const discrete_laplace_1 = require("./discrete-laplace");
const privacy_model_1 = require("../../common/privacy-model");
/** m: the most distinct words one participant gives a cell (chosen by the accuracy table). */
exports.WORDS_PER_PARTICIPANT = 3;
/**
 * A participant's words in a cell: the `m` they said most often there; ties go to the longer
 * word, then the alphabetically first (a fixed rule, the same for everyone).
 */
function participantWords(counts, m = exports.WORDS_PER_PARTICIPANT) {
    return [...counts]
        .filter(([, count]) => count > 0)
        .sort(([a, m1], [b, m2]) => m2 - m1 || b.length - a.length || (a < b ? -1 : a > b ? 1 : 0))
        .slice(0, m)
        .map(([word]) => word);
}
/** The noise scale t/s, in integers: 2m / (ε/100). */
const wordNoiseScale = (epsilon, m = exports.WORDS_PER_PARTICIPANT) => ({
    t: 2 * m * 100,
    s: epsilon,
});
exports.wordNoiseScale = wordNoiseScale;
/**
 * The smallest noisy count released: `minWordSpeakers` + the smallest k with
 * P(noise ≥ k) = q^k / (1 + q) ≤ δ₁, δ₁ = δ / (m · (1 + e^ε)).
 */
function wordThreshold(epsilon, minWordSpeakers, m = exports.WORDS_PER_PARTICIPANT, delta = privacy_model_1.WORD_DELTA) {
    const { t, s } = (0, exports.wordNoiseScale)(epsilon, m);
    const q = (0, discrete_laplace_1.discreteLaplaceRatio)(t, s);
    const perWord = delta / (m * (1 + Math.exp(epsilon / 100)));
    let k = Math.max(1, Math.ceil(Math.log(perWord * (1 + q)) / Math.log(q)) - 1);
    // The logarithms are floating point: step to the exact smallest k the inequality allows.
    while (q ** k / (1 + q) > perWord)
        k += 1;
    while (k > 1 && q ** (k - 1) / (1 + q) <= perWord)
        k -= 1;
    return minWordSpeakers + k;
}
/**
 * Releases a cell's words at ε (hundredths): `speakers` holds each participant's words
 * ({@link participantWords}). Noise is drawn now, once, in word order.
 */
function releaseWords(speakers, epsilon, minWordSpeakers, random = discrete_laplace_1.cryptoRandom, m = exports.WORDS_PER_PARTICIPANT, delta = privacy_model_1.WORD_DELTA) {
    const counts = new Map();
    for (const words of speakers) {
        if (new Set(words).size !== words.length || words.length > m) {
            throw new RangeError(`a participant gives at most ${m} distinct words`);
        }
        for (const word of words)
            counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    const { t, s } = (0, exports.wordNoiseScale)(epsilon, m);
    const threshold = wordThreshold(epsilon, minWordSpeakers, m, delta);
    const released = [];
    for (const word of [...counts.keys()].sort()) {
        const count = counts.get(word);
        if (count < minWordSpeakers)
            continue;
        const noisy = count + (0, discrete_laplace_1.discreteLaplace)(t, s, random);
        if (noisy >= threshold)
            released.push({ word, count: noisy });
    }
    return released;
}
//# sourceMappingURL=word-release.js.map