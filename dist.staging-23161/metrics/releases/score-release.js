"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.binOf = exports.SCORE_MECHANISM = exports.MHCI_MAX = void 0;
exports.participantScore = participantScore;
exports.scoreNoiseScales = scoreNoiseScales;
exports.releaseScores = releaseScores;
exports.projectOntoCount = projectOntoCount;
exports.scoreStatistics = scoreStatistics;
/**
 * The second version's score cells (docs/metrics.md, "Upgrade"): their releases are read, never
 * made again; the calendar windows release with windows/window-release.ts. A sealed cell of scores
 * was released once: each participant gives one value (the
 * mean MHCI of their sessions in the cell, clipped to [0, 100], in hundredths); the release is
 * their exact count, a noisy sum and a noisy histogram, with discrete Laplace noise
 * (discrete-laplace.ts). Replacing one participant's value, everyone else fixed, moves the sum by
 * at most 10,000 hundredths and the histogram by 2 (one count leaves a bin, one enters another),
 * so the sum takes SUM_SHARE of ε, the histogram the rest, and the release is ε-DP. The exact sum
 * and histogram are never stored; every answer is computed from releases ({@link scoreStatistics}).
 */
const discrete_laplace_1 = require("./discrete-laplace");
/** MHCI 100 in hundredths: a participant's value is an integer in [0, MHCI_MAX]. */
exports.MHCI_MAX = 10_000;
exports.SCORE_MECHANISM = {
    bins: 10,
    sumShare: { numerator: 3, denominator: 5 },
    supportDeviations: 2,
};
/** A participant's value in a cell: the mean of their sessions' MHCI, clipped, in hundredths. */
function participantScore(meanMhci) {
    return Math.round(Math.min(Math.max(meanMhci, 0), 100) * 100);
}
/** The bin of a value in hundredths: equal bins over [0, 100], 100 in the last one. */
const binOf = (hundredths, bins) => Math.min(bins - 1, Math.floor((hundredths * bins) / exports.MHCI_MAX));
exports.binOf = binOf;
/** The noise scales, each t/s in integers, for ε in hundredths. */
function scoreNoiseScales(epsilon, mechanism = exports.SCORE_MECHANISM) {
    const { numerator, denominator } = mechanism.sumShare;
    return {
        // 10,000 / (ε/100 · numerator/denominator)
        sum: { t: exports.MHCI_MAX * 100 * denominator, s: epsilon * numerator },
        // 2 / (ε/100 · (denominator − numerator)/denominator)
        bin: { t: 2 * 100 * denominator, s: epsilon * (denominator - numerator) },
    };
}
/** Releases a cell's values (hundredths) at ε (hundredths): noise drawn now, once. */
function releaseScores(values, epsilon, random = discrete_laplace_1.cryptoRandom, mechanism = exports.SCORE_MECHANISM) {
    const scales = scoreNoiseScales(epsilon, mechanism);
    const bins = new Array(mechanism.bins).fill(0);
    let sum = 0;
    for (const value of values) {
        if (!Number.isInteger(value) || value < 0 || value > exports.MHCI_MAX) {
            throw new RangeError(`a participant's score must be whole hundredths in [0, 100]: ${value}`);
        }
        sum += value;
        bins[(0, exports.binOf)(value, mechanism.bins)] += 1;
    }
    return {
        participants: values.length,
        noisySum: sum + (0, discrete_laplace_1.discreteLaplace)(scales.sum.t, scales.sum.s, random),
        noisyBins: bins.map((count) => count + (0, discrete_laplace_1.discreteLaplace)(scales.bin.t, scales.bin.s, random)),
        binNoiseVariance: (0, discrete_laplace_1.discreteLaplaceVariance)(scales.bin.t, scales.bin.s),
    };
}
/**
 * The closest histogram to the noisy one (least squares) with no negative bin and exactly
 * `total` in all (Duchi et al. 2008, projection onto the simplex): pure post-processing, and it
 * uses what is known exactly, the count.
 */
function projectOntoCount(noisy, total) {
    const sorted = [...noisy].sort((a, b) => b - a);
    let running = 0;
    let shift = 0;
    for (let j = 0; j < sorted.length; j++) {
        running += sorted[j];
        const candidate = (running - total) / (j + 1);
        if (sorted[j] - candidate > 0)
            shift = candidate;
    }
    return noisy.map((value) => Math.max(value - shift, 0));
}
const round2 = (value) => Math.round(value * 100) / 100;
/**
 * Group `mhci` from merged releases (docs/metrics.md): the average from the noisy sum over the
 * exact count; the quartiles from the histogram projected onto the count, values spread evenly
 * inside a bin; min and max the lower edge of the lowest and the upper edge of the highest bin
 * holding at least `supportDeviations` standard deviations of the merged noise (when none does:
 * the first and third quartiles). Every value in [0, 100], to the hundredth, with
 * min ≤ p25 ≤ p50 ≤ p75 ≤ max and min ≤ avg ≤ max. Null only without participants.
 */
function scoreStatistics(merged, mechanism = exports.SCORE_MECHANISM) {
    const n = merged.participants;
    if (n <= 0)
        return null;
    const width = 100 / mechanism.bins;
    const avg = Math.min(Math.max(merged.noisySum / n / 100, 0), 100);
    const histogram = projectOntoCount(merged.noisyBins, n);
    const quantile = (p) => {
        const target = p * n;
        let below = 0;
        for (let bin = 0; bin < histogram.length; bin++) {
            const here = histogram[bin];
            if (here > 0 && below + here >= target) {
                return Math.min((bin + (target - below) / here) * width, 100);
            }
            below += here;
        }
        return 100;
    };
    const [p25, p50, p75] = [quantile(0.25), quantile(0.5), quantile(0.75)];
    const support = mechanism.supportDeviations * Math.sqrt(merged.binNoiseVariance);
    const supported = histogram.flatMap((count, bin) => (count >= support && count > 0 ? [bin] : []));
    const lowest = supported.length ? supported[0] * width : p25;
    const highest = supported.length ? (supported[supported.length - 1] + 1) * width : p75;
    return {
        minMhci: round2(Math.min(lowest, p25, avg)),
        maxMhci: round2(Math.max(highest, p75, avg)),
        avgMhci: round2(avg),
        percentile25Mhci: round2(p25),
        percentile50Mhci: round2(p50),
        percentile75Mhci: round2(p75),
    };
}
//# sourceMappingURL=score-release.js.map