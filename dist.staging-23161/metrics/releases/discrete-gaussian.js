"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SIGMA2_DENOMINATOR = void 0;
exports.uniformBigInt = uniformBigInt;
exports.bernoulliExpBig = bernoulliExpBig;
exports.discreteLaplaceBig = discreteLaplaceBig;
exports.discreteGaussian = discreteGaussian;
exports.discreteGaussianVariance = discreteGaussianVariance;
exports.sigma2For = sigma2For;
/**
 * The discrete Gaussian N_Z(0, σ²) on the integers, sampled exactly: P(Z = z) ∝ e^(−z²/(2σ²)).
 *
 * The sampler is Canonne, Kamath and Steinke's (2020, arXiv 2004.00010, Algorithms 1–3), the
 * same construction as discrete-laplace.ts but in BigInt arithmetic, because the rejection step's
 * exponent (|Y| − σ²/t)²/(2σ²) has numerators and denominators far beyond 2^53 once σ is in the
 * thousands. Every step is a uniform integer from a `RandomSource` compared with another integer,
 * so the output follows the distribution exactly, and a replaying source replays it.
 *
 * Privacy (CKS Theorems 14 and 15; Bun & Steinke 2016, "Concentrated Differential Privacy:
 * Simplifications, Extensions, and Lower Bounds", arXiv 1605.02065): adding independent
 * N_Z(0, σ²) noise to each coordinate of an integer-valued query of L2 sensitivity Δ is
 * (Δ²/(2σ²))-zCDP. `sigma2For` picks σ² for a target ρ; zcdp.ts converts ρ to (ε, δ).
 */
const discrete_laplace_1 = require("./discrete-laplace");
/** Width of the chunks a wide uniform draw is composed of: below(2^47) fits MAX_UNIFORM_RANGE. */
const CHUNK_BITS = 47;
const CHUNK = 2n ** BigInt(CHUNK_BITS);
const bitLength = (n) => n.toString(2).length;
/**
 * A uniform integer in [0, n), for any n ≥ 1, built from `random.below` calls only (so a replaying
 * source replays it). Up to MAX_UNIFORM_RANGE it is one `below(n)`; beyond, it composes m chunks of
 * 47 bits into a uniform x in [0, 2^(47m)) with 2^(47m) ≥ n, rejects x at or past the largest
 * multiple of n below 2^(47m) and returns x mod n (each of the n residues then has the same
 * number of preimages, so the result is exactly uniform; a rejection has probability < 1/2).
 */
function uniformBigInt(n, random) {
    if (n < 1n)
        throw new RangeError(`uniform range out of bounds: ${n}`);
    if (n <= BigInt(discrete_laplace_1.MAX_UNIFORM_RANGE))
        return BigInt(random.below(Number(n)));
    const chunks = Math.ceil(bitLength(n) / CHUNK_BITS);
    const range = 2n ** BigInt(CHUNK_BITS * chunks);
    const limit = range - (range % n);
    for (;;) {
        let x = 0n;
        for (let i = 0; i < chunks; i++)
            x = x * CHUNK + BigInt(random.below(2 ** CHUNK_BITS));
        if (x < limit)
            return x % n;
    }
}
/** Bernoulli(numerator / denominator), 0 ≤ numerator ≤ denominator. */
function bernoulliBig(numerator, denominator, random) {
    return uniformBigInt(denominator, random) < numerator;
}
/**
 * Bernoulli(e^(−γ)) for γ = numerator / denominator in [0, 1] (CKS Algorithm 1, first case):
 * draw A_k ~ Bernoulli(γ / k) for k = 1, 2, … until one is 0; the answer is 1 when that k is odd.
 */
function bernoulliExpAtMostOneBig(numerator, denominator, random) {
    let k = 1n;
    while (bernoulliBig(numerator, denominator * k, random))
        k += 1n;
    return k % 2n === 1n;
}
/**
 * Bernoulli(e^(−γ)) for any rational γ = numerator / denominator ≥ 0 (CKS Algorithm 1):
 * floor(γ) independent Bernoulli(e^(−1)) trials, all of which must succeed, then one
 * Bernoulli(e^(−(γ − floor(γ)))).
 */
function bernoulliExpBig(numerator, denominator, random) {
    if (numerator < 0n || denominator < 1n) {
        throw new RangeError(`γ must be a non-negative rational: ${numerator}/${denominator}`);
    }
    const whole = numerator / denominator;
    for (let i = 0n; i < whole; i++) {
        if (!bernoulliExpAtMostOneBig(1n, 1n, random))
            return false;
    }
    return bernoulliExpAtMostOneBig(numerator % denominator, denominator, random);
}
/**
 * One draw of the discrete Laplace of scale t, P(Z = z) ∝ e^(−|z|/t) (CKS Algorithm 2 with s = 1):
 * a geometric of parameter 1 − e^(−1/t) built from a uniform remainder U accepted with probability
 * e^(−U/t) and a count V of e^(−1) trials, X = U + t·V, given a random sign (a negative zero is
 * drawn again, so zero is not counted twice).
 */
function discreteLaplaceBig(t, random) {
    if (t < 1n)
        throw new RangeError(`discrete Laplace scale must be a positive integer: ${t}`);
    for (;;) {
        const u = uniformBigInt(t, random);
        if (!bernoulliExpBig(u, t, random))
            continue;
        let v = 0n;
        while (bernoulliExpAtMostOneBig(1n, 1n, random))
            v += 1n;
        const x = u + t * v;
        const negative = random.below(2) === 1;
        if (negative && x === 0n)
            continue;
        return negative ? -x : x;
    }
}
const gcd = (a, b) => {
    while (b !== 0n)
        [a, b] = [b, a % b];
    return a;
};
/** floor(√n) for n ≥ 0 (Newton's method on integers). */
function isqrt(n) {
    if (n < 2n)
        return n;
    let x = 2n ** BigInt(Math.ceil(bitLength(n) / 2)); // ≥ √n
    for (;;) {
        const next = (x + n / x) / 2n;
        if (next >= x)
            return x;
        x = next;
    }
}
function checkRational(r, what) {
    if (typeof r.numerator !== 'bigint' ||
        typeof r.denominator !== 'bigint' ||
        r.numerator < 1n ||
        r.denominator < 1n) {
        throw new RangeError(`${what} must be a positive rational: ${r.numerator}/${r.denominator}`);
    }
}
/**
 * One exact draw of the discrete Gaussian N_Z(0, σ²), σ² = numerator / denominator (CKS
 * Algorithm 3): with t = floor(σ) + 1, draw Y from the discrete Laplace of scale t and accept it
 * with probability e^(−γ), γ = (|Y| − σ²/t)² / (2σ²), kept as the exact rational
 * (|Y|·d·t − n)² / (2·n·d·t²) for σ² = n/d (in lowest terms). A round is accepted with
 * probability about 0.76 for large σ and above 0.45 for any σ.
 */
function discreteGaussian(sigma2, random = discrete_laplace_1.cryptoRandom) {
    checkRational(sigma2, 'σ²');
    const common = gcd(sigma2.numerator, sigma2.denominator);
    const n = sigma2.numerator / common;
    const d = sigma2.denominator / common;
    // floor(√(n/d)) = floor(√floor(n/d)): both are the largest m with m² ≤ n/d, m² an integer.
    const t = isqrt(n / d) + 1n;
    const gammaDenominator = 2n * n * d * t * t;
    for (;;) {
        const y = discreteLaplaceBig(t, random);
        const magnitude = y < 0n ? -y : y;
        const offset = magnitude * d * t - n;
        if (!bernoulliExpBig(offset * offset, gammaDenominator, random))
            continue;
        const value = Number(y);
        if (!Number.isSafeInteger(value))
            throw new RangeError(`noise beyond 2^53: ${y}`);
        return value;
    }
}
/**
 * The variance of N_Z(0, σ²). It is below σ² (CKS Corollary 9), but by a relative gap of about
 * 8π²σ²·e^(−2π²σ²) (Poisson summation), 2.1·10⁻⁷ at σ = 1 and 1.6·10⁻³² at σ = 2, so from
 * σ = 10 on this returns σ² itself; below, it sums x²·e^(−x²/(2σ²)) over |x| ≤ 12σ + 2 (the rest
 * weighs less than e^(−72)) and divides by the normalising sum.
 */
function discreteGaussianVariance(sigma2) {
    checkRational(sigma2, 'σ²');
    const s2 = Number(sigma2.numerator) / Number(sigma2.denominator);
    if (s2 >= 100)
        return s2;
    const reach = Math.ceil(12 * Math.sqrt(s2)) + 2;
    let total = 0;
    let second = 0;
    for (let x = -reach; x <= reach; x++) {
        const weight = Math.exp(-(x * x) / (2 * s2));
        total += weight;
        second += x * x * weight;
    }
    return second / total;
}
/** A finite double as an exact fraction numerator / 2^k (doubling is exact below 2^53). */
function exactFraction(x) {
    let denominator = 1n;
    while (!Number.isInteger(x)) {
        x *= 2;
        denominator *= 2n;
    }
    return { numerator: BigInt(x), denominator };
}
/** The σ² denominators `sigma2For` uses: σ² is rounded up to the next multiple of 1/10⁴. */
exports.SIGMA2_DENOMINATOR = 10000n;
/**
 * σ² for ρ-zCDP at L2 sensitivity Δ: adding N_Z(0, σ²) per coordinate to a query of L2
 * sensitivity Δ is (Δ²/(2σ²))-zCDP (CKS Theorems 14 and 15; Bun & Steinke 2016), so σ² must be at
 * least Δ²/(2ρ). Returns the smallest multiple of 1/10⁴ that is ≥ Δ²/(2ρ), computed exactly from
 * the two doubles (no floating-point rounding can make it fall short), so the release spends at
 * most ρ.
 */
function sigma2For(sensitivity, rho) {
    if (!Number.isFinite(sensitivity) || sensitivity <= 0 || !Number.isFinite(rho) || rho <= 0) {
        throw new RangeError(`sensitivity and ρ must be positive: Δ = ${sensitivity}, ρ = ${rho}`);
    }
    const delta = exactFraction(sensitivity);
    const r = exactFraction(rho);
    // Δ²/(2ρ)·10⁴ = Δn²·ρd·10⁴ / (Δd²·2·ρn), rounded up.
    const top = delta.numerator * delta.numerator * r.denominator * exports.SIGMA2_DENOMINATOR;
    const bottom = delta.denominator * delta.denominator * 2n * r.numerator;
    return { numerator: (top + bottom - 1n) / bottom, denominator: exports.SIGMA2_DENOMINATOR };
}
//# sourceMappingURL=discrete-gaussian.js.map