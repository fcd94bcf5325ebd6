"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.midRankPercentile = midRankPercentile;
exports.midRankPercentiles = midRankPercentiles;
/**
 * The mid-rank percentile the group and participant comparisons answer (docs/metrics.md, "Group
 * comparisons"): a value's place among `n` others, itself counted once, ties shared:
 * (below + ½·(equal + 1)) / (n + 1). It is never 0 or 1, and a value equal to all the others is
 * at ½. The group comparison computes the same in SQL over its histograms
 * (metric-rollups.repository.ts).
 */
function midRankPercentile(value, others) {
    let below = 0;
    let equal = 0;
    for (const other of others) {
        if (other < value)
            below += 1;
        else if (other === value)
            equal += 1;
    }
    return (below + 0.5 * (equal + 1)) / (others.length + 1);
}
/**
 * Each feature's mid-rank percentile among the `others` that have it; a feature none of them has
 * is left out, so with nothing to compare the answer is {}. Keys in sorted order.
 */
function midRankPercentiles(features, others) {
    const percentiles = {};
    for (const name of Object.keys(features).sort()) {
        const values = others.flatMap((other) => (name in other ? [other[name]] : []));
        if (values.length > 0)
            percentiles[name] = midRankPercentile(features[name], values);
    }
    return percentiles;
}
//# sourceMappingURL=mid-rank.js.map