import { participantScore } from '../releases/score-release';
import { releaseRho } from './budget';
import { estimateMhci, type MhciStats, type ScorePart } from './window-answers';
import { releaseWindowScores } from './window-release';

/** A seeded generator for the data (the noise is crypto's, as in production). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const normal = (random: () => number, mean: number, sd: number) =>
  mean + sd * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

/** Participants' values in hundredths, as the releaser makes them. */
const values = (random: () => number, n: number, draw: (r: () => number) => number) =>
  Array.from({ length: n }, () => participantScore(draw(random)));

/** PostgreSQL's percentile_cont of values in points. */
function percentileCont(sorted: readonly number[], q: number): number {
  const position = q * (sorted.length - 1);
  const low = Math.floor(position);
  return sorted[low] + (position - low) * (sorted[Math.ceil(position)] - sorted[low]);
}

const part = (release: ReturnType<typeof releaseWindowScores>): ScorePart => ({
  ...release,
  legacy: false,
});

const RHO = releaseRho('month', 24);

describe('group mhci answers from window releases (docs/metrics.md, "Scores")', () => {
  it('the six numbers describe one distribution: ordered, in [0, 100], the average inside', () => {
    const random = mulberry32(7);
    const shapes: ((r: () => number) => number)[] = [
      (r) => normal(r, 60, 15),
      (r) => 100 * r(),
      (r) => (r() < 0.9 ? 5 * r() : 95 + 5 * r()),
      (r) => 100 - 3 * r(),
      () => 0,
    ];
    for (const shape of shapes) {
      for (const n of [5, 12, 40, 200, 1000]) {
        for (let trial = 0; trial < 20; trial++) {
          const estimate = estimateMhci([part(releaseWindowScores(values(random, n, shape), RHO))]);
          const s = estimate!.stats;
          expect(s.minMhci).toBeLessThanOrEqual(s.percentile25Mhci);
          expect(s.percentile25Mhci).toBeLessThanOrEqual(s.percentile50Mhci);
          expect(s.percentile50Mhci).toBeLessThanOrEqual(s.percentile75Mhci);
          expect(s.percentile75Mhci).toBeLessThanOrEqual(s.maxMhci);
          expect(s.avgMhci).toBeGreaterThanOrEqual(s.minMhci);
          expect(s.avgMhci).toBeLessThanOrEqual(s.maxMhci);
          for (const value of Object.values(s)) {
            expect(value).toBeGreaterThanOrEqual(0);
            expect(value).toBeLessThanOrEqual(100);
          }
        }
      }
    }
  });

  it('the average is the released one, and min and max are percentiles, not bin edges of the bulk', () => {
    const random = mulberry32(11);
    const data = values(random, 1000, (r) => 10 + 90 * r());
    const release = releaseWindowScores(data, RHO);
    const estimate = estimateMhci([part(release)])!;
    expect(estimate.stats.avgMhci).toBeCloseTo(release.noisySum / 1000 / 100, 1);
    // 5th and 95th percentiles of a uniform on [10, 100]: 14.5 and 95.5.
    expect(Math.abs(estimate.stats.minMhci - 14.5)).toBeLessThan(3);
    expect(Math.abs(estimate.stats.maxMhci - 95.5)).toBeLessThan(3);
  });

  it('without participants there is nothing to answer', () => {
    expect(estimateMhci([])).toBeNull();
  });

  /**
   * The 95 % intervals cover the truth at least 95 % of the time, over 2,000 releases of 200
   * bell-shaped values. A correct build misses each number's truth at most 5 % of the time, so
   * its misses are at most Binomial(2000, 0.05): mean 100, standard deviation 9.75. Failing above
   * 145 misses (4.6 standard deviations) happens to a correct build with probability below 10⁻⁵
   * per number, below 10⁻⁴ for the six. The percentile intervals are conservative by design (a
   * band over every bin edge at once); the average's is exact, so a wrong σ fails it.
   */
  it('the 95 % intervals cover the truth at their stated rate', () => {
    const random = mulberry32(2026);
    const trials = 2000;
    const misses: Record<keyof MhciStats, number> = {
      minMhci: 0,
      maxMhci: 0,
      avgMhci: 0,
      percentile25Mhci: 0,
      percentile50Mhci: 0,
      percentile75Mhci: 0,
    };
    let medianWidth = 0;
    for (let trial = 0; trial < trials; trial++) {
      const data = values(random, 200, (r) => normal(r, 60, 15));
      const points = data.map((v) => v / 100).sort((a, b) => a - b);
      const truth: MhciStats = {
        minMhci: percentileCont(points, 0.05),
        maxMhci: percentileCont(points, 0.95),
        avgMhci: points.reduce((sum, v) => sum + v, 0) / points.length,
        percentile25Mhci: percentileCont(points, 0.25),
        percentile50Mhci: percentileCont(points, 0.5),
        percentile75Mhci: percentileCont(points, 0.75),
      };
      const { intervals } = estimateMhci([part(releaseWindowScores(data, RHO))])!;
      for (const key of Object.keys(misses) as (keyof MhciStats)[]) {
        const [low, high] = intervals[key];
        if (truth[key] < low - 0.005 || truth[key] > high + 0.005) misses[key] += 1;
      }
      medianWidth += intervals.percentile50Mhci[1] - intervals.percentile50Mhci[0];
    }
    for (const key of Object.keys(misses) as (keyof MhciStats)[]) {
      // The key in the message: which number's interval missed too often.
      expect([key, Math.min(misses[key], 146)]).toEqual([key, Math.min(misses[key], 145)]);
    }
    // The average's interval is not padded: it misses close to 5 % (a correct build is above
    // 55 misses with probability above 1 − 10⁻⁵).
    expect(misses.avgMhci).toBeGreaterThan(55);
    // And the median's is useful: a few bins wide, not [0, 100].
    expect(medianWidth / trials).toBeLessThan(20);
  });
});
