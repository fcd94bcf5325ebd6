import crypto from 'node:crypto';
import {
  bernoulliExpBig,
  discreteGaussian,
  discreteGaussianVariance,
  discreteLaplaceBig,
  sigma2For,
  uniformBigInt,
  type Rational,
} from './discrete-gaussian';
import { cryptoRandom, discreteLaplaceCdf, type RandomSource } from './discrete-laplace';
import { replayableRandom } from './replayable-random';

/** A source that hands out `values` in order and records the ranges it was asked for. */
function scripted(values: readonly number[]): RandomSource & { ranges: number[] } {
  const ranges: number[] = [];
  let next = 0;
  return {
    ranges,
    below: (n) => {
      ranges.push(n);
      if (next >= values.length) throw new Error('script exhausted');
      return values[next++];
    },
  };
}

/** Pearson's χ² statistic of `observed` counts against `expected` ones. */
function chiSquare(observed: readonly number[], expected: readonly number[]): number {
  return observed.reduce((sum, o, i) => sum + (o - expected[i]) ** 2 / expected[i], 0);
}

/**
 * Upper 10⁻⁵ quantiles of χ² (scipy.stats.chi2.isf(1e-5, df)): a goodness-of-fit test with this
 * threshold fails a correct sampler with probability 10⁻⁵ (up to the χ² approximation, good here
 * with every expected count above 50).
 */
const CHI2_P1E5 = { 9: 39.3407, 10: 41.2962 };

/** Two-sided normal tails: P(|Z| > 4.5) = 6.8·10⁻⁶, P(|Z| > 5) = 5.7·10⁻⁷. */
const Z_MEAN = 4.5;
const Z_VARIANCE = 5;

const p2e47 = 2 ** 47;

describe('uniformBigInt', () => {
  it('is one below(n) call up to 2^48 − 1', () => {
    const source = scripted([12345]);
    expect(uniformBigInt(2n ** 48n - 1n, source)).toBe(12345n);
    expect(source.ranges).toEqual([2 ** 48 - 1]);
  });

  it('composes 47-bit chunks past 2^48, rejecting the partial block at the top', () => {
    const n = 2n ** 60n + 3n;
    // x = 2^94 − 1 lies past the largest multiple of n below 2^94 (n is odd, so it does not
    // divide 2^94): rejected; then x = 5, then x = 2^47.
    const source = scripted([p2e47 - 1, p2e47 - 1, 0, 5, 1, 0]);
    expect(uniformBigInt(n, source)).toBe(5n);
    expect(uniformBigInt(n, source)).toBe(2n ** 47n);
    expect(source.ranges).toEqual(Array(6).fill(p2e47));
  });

  it('is a function of its uniform draws, and stays below a wide n', () => {
    const n = 2n ** 60n + 3n;
    const { record, replay } = replayableRandom();
    const first = Array.from({ length: 1_000 }, () => uniformBigInt(n, record));
    expect(first.every((x) => x >= 0n && x < n)).toBe(true);
    const replaying = replay();
    expect(Array.from({ length: 1_000 }, () => uniformBigInt(n, replaying))).toEqual(first);
    // Half the draws should land in the top half: 1,000 fair coins give 500 ± 16, and 400–600
    // (6.3 standard deviations) fails a correct sampler with p ≈ 3·10⁻¹⁰.
    expect(first.filter((x) => x >= n / 2n).length).toBeGreaterThan(400);
    expect(first.filter((x) => x >= n / 2n).length).toBeLessThan(600);
  });

  it('is uniform over 10^15 + 7 (χ² over 10 buckets, fails a correct sampler with p ≈ 1e-5)', () => {
    const n = 10n ** 15n + 7n;
    const draws = 20_000;
    const counts: number[] = new Array<number>(10).fill(0);
    for (let i = 0; i < draws; i++) counts[Number((uniformBigInt(n, cryptoRandom) * 10n) / n)]++;
    // Bucket b holds the x with b·n ≤ 10x < (b + 1)·n: ceil((b + 1)n/10) − ceil(bn/10) values.
    const ceilTenth = (k: bigint) => (k * n + 9n) / 10n;
    const expected = counts.map(
      (_, b) => (Number(ceilTenth(BigInt(b + 1)) - ceilTenth(BigInt(b))) / Number(n)) * draws,
    );
    expect(chiSquare(counts, expected)).toBeLessThan(CHI2_P1E5[9]);
  });

  it('refuses an empty range', () => {
    expect(() => uniformBigInt(0n, cryptoRandom)).toThrow(RangeError);
  });
});

describe('BigInt Bernoulli(e^-γ) and discrete Laplace', () => {
  it('Bernoulli(e^-γ) has the right mean for small and huge fractions (each fails with p < 10⁻⁵)', () => {
    // Hoeffding: |mean − p| ≥ 0.006 over 200,000 draws has probability ≤ 2e^(−2·200000·0.006²)
    // = 1.1·10⁻⁶, for each of the three.
    const cases: [bigint, bigint][] = [
      [1n, 3n],
      [7n, 2n],
      [3n * 10n ** 30n + 1n, 2n * 10n ** 30n],
    ];
    for (const [numerator, denominator] of cases) {
      let hits = 0;
      for (let i = 0; i < 200_000; i++) {
        if (bernoulliExpBig(numerator, denominator, cryptoRandom)) hits += 1;
      }
      const p = Math.exp(-Number(numerator) / Number(denominator));
      expect(Math.abs(hits / 200_000 - p)).toBeLessThan(0.006);
    }
  });

  it('the discrete Laplace of scale 3 matches its CDF (DKW, fails a correct sampler with p ≤ 1e-5)', () => {
    const draws = 100_000;
    const counts = new Map<number, number>();
    for (let i = 0; i < draws; i++) {
      const z = Number(discreteLaplaceBig(3n, cryptoRandom));
      counts.set(z, (counts.get(z) ?? 0) + 1);
    }
    const values = [...counts.keys()];
    let below = 0;
    let worst = 0;
    for (let z = Math.min(...values) - 1; z <= Math.max(...values); z++) {
      below += counts.get(z) ?? 0;
      worst = Math.max(worst, Math.abs(below / draws - discreteLaplaceCdf(3, 1, z)));
    }
    // Dvoretzky–Kiefer–Wolfowitz–Massart: P(sup |F_n − F| > λ) ≤ 2e^(−2nλ²).
    expect(worst).toBeLessThan(Math.sqrt(Math.log(2 / 1e-5) / (2 * draws)));
  });
});

describe('discrete Gaussian sampler (CKS 2020, exact)', () => {
  const N = 20_000;

  // Each case fails a correct sampler with probability below 10⁻⁵: the mean is off by more than
  // 4.5 standard errors (σ/√N) with probability 6.8·10⁻⁶; the mean of the squares (the variance
  // estimate, the true mean being 0) by more than 5 standard errors (σ²·√(2/N), the fourth
  // moment being 3σ⁴ to within 10⁻³⁰ from σ = 2 on) with probability about 6·10⁻⁷ (a little more
  // in the right tail from the skew of a sum of 20,000 squares: still far below 10⁻⁵).
  it.each([
    ['4', { numerator: 4n, denominator: 1n }],
    ['1,000,000', { numerator: 10_000_000_000n, denominator: 10_000n }],
  ])('has mean 0 and variance σ² at σ² = %s', (_, sigma2: Rational) => {
    const samples = Array.from({ length: N }, () => discreteGaussian(sigma2));
    const s2 = Number(sigma2.numerator) / Number(sigma2.denominator);
    const mean = samples.reduce((a, b) => a + b, 0) / N;
    const meanSquare = samples.reduce((a, b) => a + b * b, 0) / N;
    expect(Math.abs(mean)).toBeLessThan(Z_MEAN * Math.sqrt(s2 / N));
    expect(Math.abs(meanSquare - discreteGaussianVariance(sigma2))).toBeLessThan(
      Z_VARIANCE * s2 * Math.sqrt(2 / N),
    );
  });

  it('matches the pmf ∝ e^(−x²/2σ²) at σ² = 9/4 (χ², fails a correct sampler with p ≈ 1e-5)', () => {
    const sigma2 = { numerator: 9n, denominator: 4n };
    const draws = 50_000;
    // Bins: x ≤ −5, −4 … 4, x ≥ 5 (10 degrees of freedom; the tails expect about 56 each).
    const bin = (x: number) => Math.min(Math.max(x, -5), 5) + 5;
    const weights = new Map<number, number>();
    for (let x = -40; x <= 40; x++) weights.set(x, Math.exp(-(x * x) / 4.5));
    const total = [...weights.values()].reduce((a, b) => a + b, 0);
    const expected: number[] = new Array<number>(11).fill(0);
    for (const [x, w] of weights) expected[bin(x)] += (w / total) * draws;
    const observed: number[] = new Array<number>(11).fill(0);
    for (let i = 0; i < draws; i++) observed[bin(discreteGaussian(sigma2))]++;
    expect(Math.min(...expected)).toBeGreaterThan(50);
    expect(chiSquare(observed, expected)).toBeLessThan(CHI2_P1E5[10]);
  });

  it('draws 10,000 values at σ² = 4.18·10⁸ (σ ≈ 20,445) without trouble', () => {
    const sigma2 = { numerator: 4_180_000_000_000n, denominator: 10_000n };
    const samples = Array.from({ length: 10_000 }, () => discreteGaussian(sigma2));
    // |x| > 20σ has probability e^(−200) per draw.
    expect(samples.every((x) => Number.isSafeInteger(x) && Math.abs(x) < 20 * 20_445)).toBe(true);
  });

  it('takes its randomness from crypto only: never Math.random, and crypto.randomInt by default', () => {
    const mathRandom = jest.spyOn(Math, 'random');
    const randomInt = jest.spyOn(crypto, 'randomInt');
    try {
      for (let i = 0; i < 100; i++)
        discreteGaussian({ numerator: 4_180_000_000_000n, denominator: 10_000n });
      expect(mathRandom).not.toHaveBeenCalled();
      expect(randomInt).toHaveBeenCalled();
    } finally {
      mathRandom.mockRestore();
      randomInt.mockRestore();
    }
  });

  it('is a function of its uniform draws: the same draws give the same noise', () => {
    const sigma2 = { numerator: 4_180_000_000_000n, denominator: 10_000n };
    const { record, replay, draws } = replayableRandom();
    const first = Array.from({ length: 50 }, () => discreteGaussian(sigma2, record));
    const replaying = replay();
    expect(Array.from({ length: 50 }, () => discreteGaussian(sigma2, replaying))).toEqual(first);
    expect(draws.length).toBeGreaterThan(50);
  });

  it('refuses a σ² that is not a positive rational', () => {
    expect(() => discreteGaussian({ numerator: 0n, denominator: 1n })).toThrow(RangeError);
    expect(() => discreteGaussian({ numerator: 1n, denominator: 0n })).toThrow(RangeError);
    expect(() => discreteGaussian({ numerator: -4n, denominator: -1n })).toThrow(RangeError);
  });

  it('variance: the pmf sum below σ = 10, just under σ² where it shows; σ² beyond', () => {
    const quarter = discreteGaussianVariance({ numerator: 1n, denominator: 4n });
    expect(quarter).toBeLessThan(0.25);
    // At σ = 1/2 the pmf is ∝ e^(−2x²): variance 2(e^(−2) + 4e^(−8) + …)/(1 + 2e^(−2) + …).
    const e2 = Math.exp(-2);
    const e8 = Math.exp(-8);
    const e18 = Math.exp(-18);
    expect(quarter).toBeCloseTo((2 * (e2 + 4 * e8 + 9 * e18)) / (1 + 2 * (e2 + e8 + e18)), 12);
    expect(discreteGaussianVariance({ numerator: 1n, denominator: 1n })).toBeLessThan(1);
    expect(discreteGaussianVariance({ numerator: 1n, denominator: 1n })).toBeCloseTo(1, 6);
    expect(discreteGaussianVariance({ numerator: 4n, denominator: 1n })).toBeCloseTo(4, 12);
    expect(discreteGaussianVariance({ numerator: 4_180_000_000_000n, denominator: 10_000n })).toBe(
      418_000_000,
    );
  });
});

describe('sigma2For', () => {
  it('is the smallest multiple of 1/10⁴ at or above Δ²/(2ρ)', () => {
    expect(sigma2For(1, 0.5)).toEqual({ numerator: 10_000n, denominator: 10_000n });
    expect(sigma2For(1, 0.3)).toEqual({ numerator: 16_667n, denominator: 10_000n });
    expect(sigma2For(2, 0.6)).toEqual({ numerator: 33_334n, denominator: 10_000n });
  });

  it('rounds up even where floating point lands exactly on a multiple', () => {
    // The double nearest 0.15 is 0.1499999999999999944…, so 3²/(2ρ) is a hair above 30 and
    // σ² must be 30.0001; 9 / 0.3 · 10⁴ in doubles gives exactly 300,000.
    expect(Math.ceil(((3 * 3) / (2 * 0.15)) * 1e4)).toBe(300_000);
    expect(sigma2For(3, 0.15)).toEqual({ numerator: 300_001n, denominator: 10_000n });
  });

  it('never spends more than ρ: Δ²/(2σ²) ≤ ρ, and one step lower would overspend (exactly)', () => {
    // Compared in exact rationals: a double is m / 2^k, and Δ²/(2σ²) ≤ ρ ⟺ Δ²·d ≤ 2ρ·n.
    const exact = (x: number): [bigint, bigint] => {
      let scale = 1n;
      while (!Number.isInteger(x)) [x, scale] = [x * 2, scale * 2n];
      return [BigInt(x), scale];
    };
    const spends = (sensitivity: number, numerator: bigint, rho: number): boolean => {
      const [dn, dd] = exact(sensitivity);
      const [rn, rd] = exact(rho);
      // Δ²·10⁴ / (2·numerator) ≤ ρ, cross-multiplied.
      return dn * dn * 10_000n * rd <= 2n * numerator * rn * dd * dd;
    };
    for (const [sensitivity, rho] of [
      [1, 5.74],
      [2, 0.01],
      [10, 0.125],
      [7, 1e-6],
      [3, 0.15],
      [0.7, 0.3],
    ]) {
      const { numerator, denominator } = sigma2For(sensitivity, rho);
      expect(denominator).toBe(10_000n);
      expect(spends(sensitivity, numerator, rho)).toBe(true);
      expect(spends(sensitivity, numerator - 1n, rho)).toBe(false);
    }
  });

  it('refuses a non-positive sensitivity or ρ', () => {
    expect(() => sigma2For(0, 1)).toThrow(RangeError);
    expect(() => sigma2For(1, 0)).toThrow(RangeError);
    expect(() => sigma2For(1, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
