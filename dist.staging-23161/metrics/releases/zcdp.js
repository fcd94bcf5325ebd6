"use strict";
/**
 * Zero-concentrated differential privacy (ρ-zCDP) accounting: Bun & Steinke 2016, "Concentrated
 * Differential Privacy: Simplifications, Extensions, and Lower Bounds" (arXiv 1605.02065). ρ adds
 * up over composed releases; discrete-gaussian.ts turns ρ into noise, and these convert between
 * ρ and (ε, δ)-DP.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.epsilonOfRho = epsilonOfRho;
exports.rhoForEpsilon = rhoForEpsilon;
exports.laplaceRho = laplaceRho;
function checkDelta(delta) {
    if (!(delta > 0 && delta < 1))
        throw new RangeError(`δ must lie in (0, 1): ${delta}`);
}
/**
 * The ε of (ε, δ)-DP that ρ-zCDP implies: ρ + 2·√(ρ·ln(1/δ)) (Bun & Steinke 2016, Proposition
 * 1.3).
 */
function epsilonOfRho(rho, delta) {
    if (!(rho >= 0) || !Number.isFinite(rho))
        throw new RangeError(`ρ must be ≥ 0: ${rho}`);
    checkDelta(delta);
    return rho + 2 * Math.sqrt(rho * Math.log(1 / delta));
}
/** ρ is rounded down to a multiple of this, so the inverse never overspends. */
const RHO_STEP = 1e-9;
/**
 * The largest ρ (rounded down to a multiple of 10⁻⁹) whose (ε, δ) guarantee by
 * `epsilonOfRho` (Bun & Steinke 2016, Proposition 1.3) is at most ε: with L = ln(1/δ), solving
 * ρ + 2√(ρL) = ε for √ρ gives √ρ = √(L + ε) − √L = ε / (√(L + ε) + √L) (the second form avoids
 * cancellation). The result is checked against `epsilonOfRho` and stepped down if floating-point
 * rounding put it over.
 */
function rhoForEpsilon(epsilon, delta) {
    if (!(epsilon > 0) || !Number.isFinite(epsilon)) {
        throw new RangeError(`ε must be positive: ${epsilon}`);
    }
    checkDelta(delta);
    const l = Math.log(1 / delta);
    const root = epsilon / (Math.sqrt(l + epsilon) + Math.sqrt(l));
    let steps = Math.floor((root * root) / RHO_STEP);
    while (steps > 0 && epsilonOfRho(steps * RHO_STEP, delta) > epsilon)
        steps -= 1;
    return steps * RHO_STEP;
}
/**
 * The ρ of an ε-DP mechanism (the Laplace releases): ε-DP implies (ε²/2)-zCDP (Bun & Steinke
 * 2016, Proposition 1.4).
 */
function laplaceRho(epsilon) {
    if (!(epsilon >= 0) || !Number.isFinite(epsilon)) {
        throw new RangeError(`ε must be ≥ 0: ${epsilon}`);
    }
    return (epsilon * epsilon) / 2;
}
//# sourceMappingURL=zcdp.js.map