import crypto from 'node:crypto';
import {
  bernoulliExp,
  cryptoRandom,
  discreteLaplace,
  discreteLaplaceCdf,
  discreteLaplacePmf,
  discreteLaplaceVariance,
} from './discrete-laplace';
import { replayableRandom } from './replayable-random';

/**
 * The Dvoretzky–Kiefer–Wolfowitz inequality with Massart's constant: for n independent draws
 * from any distribution on the line (discrete ones included), the empirical CDF is further than λ
 * from the true CDF anywhere with probability at most 2·e^(−2nλ²). Solved for λ, it gives a
 * goodness-of-fit test whose chance of failing a correct sampler is at most `failure`, exactly,
 * not asymptotically (no χ² approximation involved).
 */
const dkwBound = (n: number, failure: number): number => Math.sqrt(Math.log(2 / failure) / (2 * n));

/** The largest distance between the empirical CDF of `samples` and `cdf`, over their range. */
function maxCdfDistance(samples: readonly number[], cdf: (z: number) => number): number {
  const counts = new Map<number, number>();
  for (const z of samples) counts.set(z, (counts.get(z) ?? 0) + 1);
  const values = [...counts.keys()].sort((a, b) => a - b);
  let below = 0;
  let worst = 0;
  // Between observed values the empirical CDF is flat and the true one only rises, so checking
  // just below and at every observed value (and past both ends) covers the supremum.
  for (let z = values[0] - 1; z <= values[values.length - 1]; z++) {
    below += counts.get(z) ?? 0;
    worst = Math.max(worst, Math.abs(below / samples.length - cdf(z)));
  }
  return worst;
}

describe('discrete Laplace sampler (CKS 2020, exact)', () => {
  // Three scales the releases use at ε = 1 (score-release.ts, word-release.ts): a histogram bin's
  // 2/0.4 = 5, a word's 2·3/1 = 6, and the sum's 10,000/0.6 hundredths; plus a narrow one, 1/2.
  // Each test may fail a correct sampler with probability 2.5·10⁻⁵ (DKW), so the four together
  // fail one with probability below 10⁻⁴.
  const SCALES: [number, number][] = [
    [500, 100],
    [600, 100],
    [5_000_000, 300],
    [1, 2],
  ];
  const N = 100_000;

  it.each(SCALES)(
    'matches the distribution at scale %i/%i (DKW bound, fails a correct sampler with p ≤ 2.5e-5)',
    (t, s) => {
      const samples = Array.from({ length: N }, () => discreteLaplace(t, s));
      expect(maxCdfDistance(samples, (z) => discreteLaplaceCdf(t, s, z))).toBeLessThan(
        dkwBound(N, 2.5e-5),
      );
    },
  );

  it('is symmetric and centred, with the distribution’s variance (a loose check of the helpers)', () => {
    expect(discreteLaplaceCdf(500, 100, -1) + discreteLaplaceCdf(500, 100, 0)).toBeCloseTo(1, 12);
    let total = 0;
    let second = 0;
    for (let z = -400; z <= 400; z++) {
      total += discreteLaplacePmf(500, 100, z);
      second += z * z * discreteLaplacePmf(500, 100, z);
    }
    expect(total).toBeCloseTo(1, 12);
    expect(second).toBeCloseTo(discreteLaplaceVariance(500, 100), 9);
  });

  it('Bernoulli(e^-γ) has the right mean for γ below and above 1 (each fails with p < 10⁻⁶)', () => {
    // Hoeffding: |mean − p| ≥ 0.006 over 200,000 draws has probability ≤ 2e^(−2·200000·0.006²)
    // = 1.1·10⁻⁶.
    for (const [numerator, denominator] of [
      [1, 3],
      [7, 2],
    ]) {
      let hits = 0;
      for (let i = 0; i < 200_000; i++) {
        if (bernoulliExp(numerator, denominator, cryptoRandom)) hits += 1;
      }
      expect(Math.abs(hits / 200_000 - Math.exp(-numerator / denominator))).toBeLessThan(0.006);
    }
  });

  it('takes its randomness from crypto only: never Math.random, and crypto.randomInt by default', () => {
    const mathRandom = jest.spyOn(Math, 'random');
    const randomInt = jest.spyOn(crypto, 'randomInt');
    try {
      for (let i = 0; i < 100; i++) discreteLaplace(500, 100);
      expect(mathRandom).not.toHaveBeenCalled();
      expect(randomInt).toHaveBeenCalled();
    } finally {
      mathRandom.mockRestore();
      randomInt.mockRestore();
    }
  });

  it('is a function of its uniform draws: the same draws give the same noise', () => {
    const { record, replay, draws } = replayableRandom();
    const first = Array.from({ length: 50 }, () => discreteLaplace(600, 100, record));
    const replaying = replay();
    expect(Array.from({ length: 50 }, () => discreteLaplace(600, 100, replaying))).toEqual(first);
    expect(draws.length).toBeGreaterThan(50);
  });

  it('refuses a scale that is not a ratio of positive integers, and a uniform range out of bounds', () => {
    expect(() => discreteLaplace(0, 1)).toThrow(RangeError);
    expect(() => discreteLaplace(1.5, 1)).toThrow(RangeError);
    expect(() => cryptoRandom.below(0)).toThrow(RangeError);
    expect(() => cryptoRandom.below(2 ** 48)).toThrow(RangeError);
  });
});
