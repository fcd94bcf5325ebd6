"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.discreteLaplaceRatio = exports.cryptoRandom = exports.MAX_UNIFORM_RANGE = void 0;
exports.bernoulliExp = bernoulliExp;
exports.discreteLaplace = discreteLaplace;
exports.discreteLaplacePmf = discreteLaplacePmf;
exports.discreteLaplaceCdf = discreteLaplaceCdf;
exports.discreteLaplaceVariance = discreteLaplaceVariance;
/**
 * The discrete Laplace (two-sided geometric) distribution on the integers, sampled exactly
 * (docs/metrics.md, "Words" and "Upgrade"): P(Z = z) = (1 − q)/(1 + q) · q^|z| with
 * q = e^(−s/t), that is Laplace noise of scale t/s restricted to the integers.
 *
 * The sampler is Canonne, Kamath and Steinke's (2020, arXiv 2004.00010, Algorithms 1 and 2), in
 * integer arithmetic only: every step is a uniform integer from `crypto` compared with another
 * integer, so the output follows the distribution exactly. No `Math.random` (not a secure
 * source), and no floating-point Laplace (inverse-CDF sampling with doubles leaks the secret
 * value through the low bits of the result: Mironov 2012).
 */
const node_crypto_1 = require("node:crypto");
/** The widest range `crypto.randomInt` draws from. */
exports.MAX_UNIFORM_RANGE = 2 ** 48 - 1;
/** Node's CSPRNG (`crypto.randomInt`, rejection-sampled, so exactly uniform). */
exports.cryptoRandom = {
    below(n) {
        if (!Number.isSafeInteger(n) || n < 1 || n > exports.MAX_UNIFORM_RANGE) {
            throw new RangeError(`uniform range out of bounds: ${n}`);
        }
        return (0, node_crypto_1.randomInt)(n);
    },
};
/** Bernoulli(numerator / denominator), 0 ≤ numerator ≤ denominator. */
function bernoulli(numerator, denominator, random) {
    return random.below(denominator) < numerator;
}
/**
 * Bernoulli(e^(−γ)) for γ = numerator / denominator in [0, 1] (CKS Algorithm 1, first case):
 * draw A_k ~ Bernoulli(γ / k) for k = 1, 2, … until one is 0; the answer is 1 when that k is odd.
 */
function bernoulliExpAtMostOne(numerator, denominator, random) {
    let k = 1;
    while (bernoulli(numerator, denominator * k, random))
        k += 1;
    return k % 2 === 1;
}
/** Bernoulli(e^(−γ)) for any rational γ = numerator / denominator ≥ 0 (CKS Algorithm 1). */
function bernoulliExp(numerator, denominator, random) {
    const whole = (numerator - (numerator % denominator)) / denominator;
    for (let i = 0; i < whole; i++) {
        if (!bernoulliExpAtMostOne(1, 1, random))
            return false;
    }
    return bernoulliExpAtMostOne(numerator % denominator, denominator, random);
}
/**
 * One draw of the discrete Laplace of scale t/s (positive integers; CKS Algorithm 2): a geometric
 * of parameter 1 − e^(−1/t) built from a uniform remainder and a count of e^(−1) trials, divided
 * by s, given a random sign (a negative zero is drawn again, so zero is not counted twice).
 */
function discreteLaplace(t, s, random = exports.cryptoRandom) {
    if (!Number.isSafeInteger(t) || !Number.isSafeInteger(s) || t < 1 || s < 1) {
        throw new RangeError(`discrete Laplace scale must be a ratio of positive integers: ${t}/${s}`);
    }
    for (;;) {
        const u = random.below(t);
        if (!bernoulliExp(u, t, random))
            continue;
        let v = 0;
        while (bernoulliExpAtMostOne(1, 1, random))
            v += 1;
        const x = u + t * v;
        const y = (x - (x % s)) / s;
        const negative = random.below(2) === 1;
        if (negative && y === 0)
            continue;
        return negative ? -y : y;
    }
}
/** q = e^(−s/t), the ratio between the probabilities of neighbouring values. */
const discreteLaplaceRatio = (t, s) => Math.exp(-s / t);
exports.discreteLaplaceRatio = discreteLaplaceRatio;
/** P(Z = z). */
function discreteLaplacePmf(t, s, z) {
    const q = (0, exports.discreteLaplaceRatio)(t, s);
    return ((1 - q) / (1 + q)) * q ** Math.abs(z);
}
/** P(Z ≤ z). */
function discreteLaplaceCdf(t, s, z) {
    const q = (0, exports.discreteLaplaceRatio)(t, s);
    return z < 0 ? q ** -z / (1 + q) : 1 - q ** (z + 1) / (1 + q);
}
/** The variance, 2q / (1 − q)². */
function discreteLaplaceVariance(t, s) {
    const q = (0, exports.discreteLaplaceRatio)(t, s);
    return (2 * q) / (1 - q) ** 2;
}
//# sourceMappingURL=discrete-laplace.js.map