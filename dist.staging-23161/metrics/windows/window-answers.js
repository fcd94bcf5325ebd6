"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.estimateMhci = estimateMhci;
/**
 * Group answers from releases (docs/metrics.md, "Answers" and "Every answer says what it is
 * worth"): pure post-processing of what windows (and the second version's cells) released, so
 * reads, ranges, periods and their differences cost no privacy.
 *
 * Scores: the average is the merged noisy sum over the exact count. The histogram is projected
 * onto the histograms with no negative bin and exactly that count, then tilted (exponentially,
 * the least change in relative entropy) until its mean is the average: quartiles, `minMhci` (the
 * 5th percentile) and `maxMhci` (the 95th) are read from that one distribution, values spread
 * evenly inside a bin. Intervals: the average's from the sum's noise (95 %); each percentile's
 * from a band that holds every cumulative count of the histogram at once with probability at
 * least 95 % (Bonferroni over the bin edges), so they are conservative and bin-edge aligned.
 */
const score_release_1 = require("../releases/score-release");
const window_release_1 = require("./window-release");
/** Two-sided 95 % for Gaussian noise. */
const Z_95 = 1.96;
/**
 * Two-sided 95 % for noise that holds a Laplace part (second-version cells): a Laplace variable
 * exceeds t standard deviations with probability e^(−t√2), 5 % at t = 2.12; sums of Laplace and
 * Gaussian parts have lighter tails, so this is conservative.
 */
const Z_95_LAPLACE = 2.12;
/** The band over the 19 inner bin edges at once (Bonferroni, 0.05 / 19 each), Gaussian noise. */
const Z_BAND = 3.0;
/** The same for noise with a Laplace part: e^(−t√2) = 0.05 / 19 at t = 4.2. */
const Z_BAND_LAPLACE = 4.2;
const round2 = (value) => Math.round(value * 100) / 100;
const clamp = (value) => Math.min(Math.max(value, 0), 100);
/**
 * The merged histogram over SCORE_BINS bins, and the variance of each cumulative count at each
 * edge. A legacy cell's 10 bins are split in halves (its noise is then the same at the even edges
 * and half a bin's at the odd ones: counted in full, which is conservative).
 */
function mergeBins(parts) {
    const bins = new Array(window_release_1.SCORE_BINS).fill(0);
    const leftVariance = new Array(window_release_1.SCORE_BINS + 1).fill(0);
    for (const part of parts) {
        const ratio = window_release_1.SCORE_BINS / part.noisyBins.length;
        part.noisyBins.forEach((count, bin) => {
            for (let k = 0; k < ratio; k++)
                bins[bin * ratio + k] += count / ratio;
        });
        for (let edge = 1; edge <= window_release_1.SCORE_BINS; edge++) {
            leftVariance[edge] += Math.ceil(edge / ratio) * part.binNoiseVariance;
        }
    }
    return { bins, leftVariance };
}
/**
 * The distribution closest to `histogram` (as probabilities) whose mean is `target` among its
 * exponential tilts, bin means at their centres; the target is brought inside what a tilt can
 * reach (the centres of the lowest and highest bins).
 */
function tilt(histogram, target) {
    const total = histogram.reduce((sum, count) => sum + count, 0);
    // A tiny floor in every bin, so that the tilt can move mass anywhere.
    const base = histogram.map((count) => count / total + 1e-9);
    const width = 100 / window_release_1.SCORE_BINS;
    const centres = base.map((_, bin) => (bin + 0.5) * width);
    const goal = Math.min(Math.max(target, centres[0]), centres[centres.length - 1]);
    const at = (lambda) => {
        const exponents = centres.map((c) => (lambda * (c - 50)) / 100);
        const top = Math.max(...exponents);
        const weights = base.map((p, bin) => p * Math.exp(exponents[bin] - top));
        const sum = weights.reduce((s, w) => s + w, 0);
        return weights.map((w) => w / sum);
    };
    const meanOf = (p) => p.reduce((s, q, bin) => s + q * centres[bin], 0);
    let low = -5_000;
    let high = 5_000;
    for (let i = 0; i < 200; i++) {
        const middle = (low + high) / 2;
        if (meanOf(at(middle)) < goal)
            low = middle;
        else
            high = middle;
    }
    return at((low + high) / 2);
}
/** The `q` quantile of a distribution over equal bins, values spread evenly inside a bin. */
function quantile(probabilities, q) {
    const width = 100 / window_release_1.SCORE_BINS;
    let below = 0;
    for (let bin = 0; bin < probabilities.length; bin++) {
        const here = probabilities[bin];
        if (here > 0 && below + here >= q)
            return clamp((bin + (q - below) / here) * width);
        below += here;
    }
    return 100;
}
/**
 * The six numbers and their accuracy from merged releases; null without participants.
 */
function estimateMhci(parts) {
    const n = parts.reduce((sum, part) => sum + part.participants, 0);
    if (n <= 0)
        return null;
    const legacy = parts.some((part) => part.legacy);
    const noisySum = parts.reduce((sum, part) => sum + part.noisySum, 0);
    const sumVariance = parts.reduce((sum, part) => sum + part.sumNoiseVariance, 0);
    const rawAverage = noisySum / n / 100;
    const margin = ((legacy ? Z_95_LAPLACE : Z_95) * Math.sqrt(sumVariance)) / n / 100;
    const { bins, leftVariance } = mergeBins(parts);
    const projected = (0, score_release_1.projectOntoCount)(bins, n);
    const distribution = tilt(projected, clamp(rawAverage));
    const width = 100 / window_release_1.SCORE_BINS;
    const mean = distribution.reduce((s, p, bin) => s + p * (bin + 0.5) * width, 0);
    const [p5, p25, p50, p75, p95] = [0.05, 0.25, 0.5, 0.75, 0.95].map((q) => quantile(distribution, q));
    const stats = {
        minMhci: round2(Math.min(p5, mean)),
        maxMhci: round2(Math.max(p95, mean)),
        avgMhci: round2(mean),
        percentile25Mhci: round2(p25),
        percentile50Mhci: round2(p50),
        percentile75Mhci: round2(p75),
    };
    // The band: every cumulative count within z standard deviations at once.
    const z = legacy ? Z_BAND_LAPLACE : Z_BAND;
    const totalVariance = leftVariance[window_release_1.SCORE_BINS];
    const cumulative = [];
    let left = 0;
    for (let edge = 0; edge <= window_release_1.SCORE_BINS; edge++) {
        if (edge > 0)
            left += bins[edge - 1];
        if (edge === 0 || edge === window_release_1.SCORE_BINS) {
            cumulative.push({ estimate: edge === 0 ? 0 : n, deviation: 0 });
            continue;
        }
        // Knowing the total exactly: the left count corrected by its share of the total's error.
        const share = leftVariance[edge] / totalVariance;
        const estimate = left - share * (left + bins.slice(edge).reduce((s, c) => s + c, 0) - n);
        const variance = leftVariance[edge] * (1 - share);
        cumulative.push({ estimate, deviation: z * Math.sqrt(Math.max(variance, 0)) });
    }
    const percentileInterval = (q) => {
        const rank = q * (n - 1);
        let low = 0;
        let high = 100;
        cumulative.forEach(({ estimate, deviation }, edge) => {
            if (estimate + deviation <= Math.floor(rank))
                low = Math.max(low, edge * width);
        });
        for (let edge = window_release_1.SCORE_BINS; edge >= 0; edge--) {
            const { estimate, deviation } = cumulative[edge];
            if (estimate - deviation >= Math.ceil(rank) + 1)
                high = Math.min(high, edge * width);
        }
        return [round2(low), round2(Math.max(high, low))];
    };
    const average = clamp(rawAverage);
    return {
        stats,
        margin: round2(margin),
        intervals: {
            minMhci: percentileInterval(0.05),
            maxMhci: percentileInterval(0.95),
            avgMhci: [round2(clamp(average - margin)), round2(clamp(average + margin))],
            percentile25Mhci: percentileInterval(0.25),
            percentile50Mhci: percentileInterval(0.5),
            percentile75Mhci: percentileInterval(0.75),
        },
    };
}
//# sourceMappingURL=window-answers.js.map