/**
 * The mid-rank percentile the group and participant comparisons answer (docs/metrics.md, "Group
 * comparisons"): a value's place among `n` others, itself counted once, ties shared:
 * (below + ½·(equal + 1)) / (n + 1). It is never 0 or 1, and a value equal to all the others is
 * at ½. The group comparison computes the same in SQL over its histograms
 * (metric-rollups.repository.ts).
 */
export function midRankPercentile(value: number, others: readonly number[]): number {
  let below = 0;
  let equal = 0;
  for (const other of others) {
    if (other < value) below += 1;
    else if (other === value) equal += 1;
  }
  return (below + 0.5 * (equal + 1)) / (others.length + 1);
}

/**
 * Each feature's mid-rank percentile among the `others` that have it; a feature none of them has
 * is left out, so with nothing to compare the answer is {}. Keys in sorted order.
 */
export function midRankPercentiles(
  features: Record<string, number>,
  others: readonly Record<string, number>[],
): Record<string, number> {
  const percentiles: Record<string, number> = {};
  for (const name of Object.keys(features).sort()) {
    const values = others.flatMap((other) => (name in other ? [other[name]] : []));
    if (values.length > 0) percentiles[name] = midRankPercentile(features[name], values);
  }
  return percentiles;
}
