import fc from 'fast-check';
import { replayableRandom } from './replayable-random';
import {
  binOf,
  MHCI_MAX,
  participantScore,
  projectOntoCount,
  releaseScores,
  SCORE_MECHANISM,
  scoreNoiseScales,
  scoreStatistics,
} from './score-release';

describe('score releases (ε-DP: sum and histogram)', () => {
  it('a participant gives one value: the mean, clipped to [0, 100], in hundredths', () => {
    expect(participantScore(37.25)).toBe(3725);
    expect(participantScore(-4)).toBe(0);
    expect(participantScore(104)).toBe(MHCI_MAX);
    expect(participantScore(52.3333333)).toBe(5233);
  });

  it('bins: equal bins over [0, 100], 100 in the last', () => {
    const { bins } = SCORE_MECHANISM;
    expect(binOf(0, bins)).toBe(0);
    expect(binOf(999, bins)).toBe(0);
    expect(binOf(1000, bins)).toBe(1);
    expect(binOf(MHCI_MAX, bins)).toBe(bins - 1);
  });

  it.each([10, 55, 100, 250, 1000])(
    'at ε = %i/100 the sum and the histogram spend exactly ε between them',
    (epsilon) => {
      const { sum, bin } = scoreNoiseScales(epsilon);
      // Replacing one value moves the sum by at most MHCI_MAX and the histogram by 2 (L1): the
      // ε each spends is sensitivity ÷ scale, and scale = t/s.
      const spent = (MHCI_MAX * sum.s) / sum.t + (2 * bin.s) / bin.t;
      expect(spent).toBeCloseTo(epsilon / 100, 12);
      for (const scale of [sum, bin]) {
        expect(Number.isSafeInteger(scale.t) && Number.isSafeInteger(scale.s)).toBe(true);
      }
    },
  );

  it('releases the exact count, and noise that depends on nothing but the draws: swapping two participants’ values changes nothing, changing one moves only the exact part', () => {
    const world = [3725, 5000, 5100, 5200, 5300, 5400, 5500, 5600, 5700, 5800];
    const swapped = [5000, 3725, ...world.slice(2)];
    const changed = [9000, ...world.slice(1)];
    const { record, replay } = replayableRandom();
    const first = releaseScores(world, 100, record);
    expect(first.participants).toBe(10);
    expect(releaseScores(swapped, 100, replay())).toEqual(first);
    const other = releaseScores(changed, 100, replay());
    expect(other.noisySum - first.noisySum).toBe(9000 - 3725);
    expect(other.noisyBins.map((count, bin) => count - first.noisyBins[bin])).toEqual([
      0, 0, 0, -1, 0, 0, 0, 0, 0, 1,
    ]);
  });

  it('two releases of the same values differ (fresh noise; equal with probability below 10⁻⁴)', () => {
    // The sum's noise alone: two draws at scale 10,000/0.6 are equal with probability
    // Σ pmf(z)² ≈ (1 − q)/(2(1 + q)) ≈ 1.5·10⁻⁵.
    const values = [1000, 2000, 3000, 4000, 5000];
    expect(releaseScores(values, 100).noisySum).not.toBe(releaseScores(values, 100).noisySum);
  });

  it('refuses a value that is not whole hundredths in [0, 100]', () => {
    expect(() => releaseScores([10.5], 100)).toThrow(RangeError);
    expect(() => releaseScores([MHCI_MAX + 1], 100)).toThrow(RangeError);
  });

  it('the projection keeps no negative bin and sums to the count', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 10, maxLength: 10 }),
        fc.integer({ min: 1, max: 200 }),
        (noisy, n) => {
          const histogram = projectOntoCount(noisy, n);
          expect(histogram.every((count) => count >= 0)).toBe(true);
          expect(histogram.reduce((sum, count) => sum + count, 0)).toBeCloseTo(n, 9);
        },
      ),
    );
  });

  it('without noise, the statistics are the histogram’s: quartiles spread evenly in their bins, min and max the edges of the outermost bins', () => {
    const values = [2000, 4000, 6000, 8000];
    const bins = new Array<number>(10).fill(0);
    for (const value of values) bins[binOf(value, 10)] += 1;
    expect(
      scoreStatistics({ participants: 4, noisySum: 20_000, noisyBins: bins, binNoiseVariance: 0 }),
    ).toEqual({
      minMhci: 20,
      maxMhci: 90,
      avgMhci: 50,
      percentile25Mhci: 30,
      percentile50Mhci: 50,
      percentile75Mhci: 70,
    });
  });

  it('whatever the noise, six numbers in [0, 100] to the hundredth, with min ≤ p25 ≤ p50 ≤ p75 ≤ max and min ≤ avg ≤ max', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: -5_000_000, max: 15_000_000 }),
        fc.array(fc.integer({ min: -200, max: 400 }), { minLength: 10, maxLength: 10 }),
        fc.double({ min: 0, max: 1000, noNaN: true }),
        (participants, noisySum, noisyBins, binNoiseVariance) => {
          const stats = scoreStatistics({ participants, noisySum, noisyBins, binNoiseVariance })!;
          const values = Object.values(stats);
          expect(values).toHaveLength(6);
          for (const value of values) {
            expect(value).toBeGreaterThanOrEqual(0);
            expect(value).toBeLessThanOrEqual(100);
            expect(Math.round(value * 100) / 100).toBe(value);
          }
          expect(stats.minMhci).toBeLessThanOrEqual(stats.percentile25Mhci);
          expect(stats.percentile25Mhci).toBeLessThanOrEqual(stats.percentile50Mhci);
          expect(stats.percentile50Mhci).toBeLessThanOrEqual(stats.percentile75Mhci);
          expect(stats.percentile75Mhci).toBeLessThanOrEqual(stats.maxMhci);
          expect(stats.minMhci).toBeLessThanOrEqual(stats.avgMhci);
          expect(stats.avgMhci).toBeLessThanOrEqual(stats.maxMhci);
        },
      ),
    );
  });

  it('a bin counts as support for min and max only above the noise: an empty bin with noise below two deviations does not', () => {
    const bins = [3, 0, 0, 0, 0, 40, 40, 0, 0, 0];
    const stats = scoreStatistics({
      participants: 80,
      noisySum: 80 * 5500,
      noisyBins: bins,
      binNoiseVariance: 25,
    })!;
    expect(stats.minMhci).toBe(50);
    expect(stats.maxMhci).toBe(70);
  });

  it('no participants: nothing to answer', () => {
    expect(
      scoreStatistics({ participants: 0, noisySum: 0, noisyBins: [], binNoiseVariance: 0 }),
    ).toBeNull();
  });
});
