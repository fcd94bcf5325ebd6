/**
 * The mid-rank percentile of the comparisons: (below + ½·(equal + 1)) / (n + 1), ties shared,
 * the value itself counted once; features nobody else has are left out.
 */
import { midRankPercentile, midRankPercentiles } from './mid-rank';

describe('midRankPercentile', () => {
  it('places a value among the others, itself counted once', () => {
    expect(midRankPercentile(5, [1, 2, 3])).toBe(3.5 / 4);
    expect(midRankPercentile(0, [1, 2, 3])).toBe(0.5 / 4);
    expect(midRankPercentile(2, [1, 3])).toBe(1.5 / 3);
    expect(midRankPercentile(7, [7])).toBe(0.5);
  });

  it('shares ties: a value equal to every other is at one half, whatever their number', () => {
    for (const n of [1, 2, 5, 40]) expect(midRankPercentile(3, Array(n).fill(3))).toBe(0.5);
    // below 1, equal 2: (1 + 1.5) / 5
    expect(midRankPercentile(4, [1, 4, 4, 9])).toBe(2.5 / 5);
  });

  it('is never 0 or 1, and grows with the value', () => {
    const others = [-3, 0, 0, 2.5, 10];
    let previous = 0;
    for (const value of [-4, -3, -1, 0, 1, 2.5, 3, 10, 11]) {
      const percentile = midRankPercentile(value, others);
      expect(percentile).toBeGreaterThan(previous);
      expect(percentile).toBeLessThan(1);
      previous = percentile;
    }
  });
});

describe('midRankPercentiles', () => {
  it('answers each feature against the others that have it, in sorted order, and {} with none', () => {
    const answer = midRankPercentiles({ pitch: 2, energy: 5, pace: 1 }, [
      { energy: 1, pitch: 2 },
      { energy: 9 },
    ]);
    expect(answer).toEqual({ energy: 1.5 / 3, pitch: 0.5 });
    expect(Object.keys(answer)).toEqual(['energy', 'pitch']);
    expect(midRankPercentiles({ energy: 5 }, [])).toEqual({});
    expect(midRankPercentiles({ energy: 5 }, [{ pitch: 1 }])).toEqual({});
  });
});
