import { epsilonOfRho, laplaceRho, rhoForEpsilon } from './zcdp';

describe('zCDP accounting (Bun & Steinke 2016)', () => {
  it('converts ρ to ε: ρ + 2√(ρ ln(1/δ))', () => {
    expect(epsilonOfRho(0, 1e-6)).toBe(0);
    expect(epsilonOfRho(1, Math.exp(-4))).toBeCloseTo(5, 12);
    expect(epsilonOfRho(0.5, 1e-5)).toBeCloseTo(0.5 + 2 * Math.sqrt(0.5 * Math.log(1e5)), 12);
  });

  it('inverts it: ρ for ε = 24, δ = 5·10⁻⁷ is about 5.74, and spends at most ε', () => {
    const rho = rhoForEpsilon(24, 5e-7);
    expect(rho).toBeCloseTo(5.74, 2);
    expect(epsilonOfRho(rho, 5e-7)).toBeLessThanOrEqual(24);
  });

  it('gives the largest ρ on the 10⁻⁹ grid that spends at most ε, for a range of ε and δ', () => {
    for (const epsilon of [1e-3, 0.1, 0.5, 1, 3, 10, 24, 100]) {
      for (const delta of [1e-10, 5e-7, 1e-5, 0.01]) {
        const rho = rhoForEpsilon(epsilon, delta);
        expect(epsilonOfRho(rho, delta)).toBeLessThanOrEqual(epsilon);
        // Rounded down to 10⁻⁹, so within 10⁻⁹ (plus floating-point slack) of the exact root.
        expect(epsilonOfRho(rho + 2e-9, delta)).toBeGreaterThan(epsilon);
        expect(Math.abs(rho * 1e9 - Math.round(rho * 1e9))).toBeLessThan(1e-3);
      }
    }
  });

  it('an ε-DP (Laplace) release is ε²/2-zCDP', () => {
    expect(laplaceRho(1)).toBe(0.5);
    expect(laplaceRho(0.2)).toBeCloseTo(0.02, 15);
    expect(laplaceRho(0)).toBe(0);
  });

  it('refuses out-of-range inputs', () => {
    expect(() => epsilonOfRho(-1, 1e-6)).toThrow(RangeError);
    expect(() => epsilonOfRho(1, 0)).toThrow(RangeError);
    expect(() => epsilonOfRho(1, 1)).toThrow(RangeError);
    expect(() => rhoForEpsilon(0, 1e-6)).toThrow(RangeError);
    expect(() => rhoForEpsilon(1, Number.NaN)).toThrow(RangeError);
    expect(() => laplaceRho(-1)).toThrow(RangeError);
  });
});
