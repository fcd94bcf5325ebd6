"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.wordReleaseDelta = exports.releaseRho = exports.yearRho = exports.BUDGET = exports.SERIES_PER_WINDOW = exports.CONVERSION_DELTA = exports.YEAR_DELTA = void 0;
/**
 * The yearly budget per participant and what each release may spend of it (docs/metrics.md,
 * "The budget"). Releases are accounted in zero-concentrated differential privacy (zCDP, Bun and
 * Steinke 2016): ρ adds up over releases, and a year's total ρ with the words' δ converts to the
 * promise the operator sets, (ε_year, δ = 10⁻⁶)-differential privacy over any 365 days.
 *
 * - δ = 10⁻⁶ in all, half for the conversion from ρ to ε, half for the words' thresholds
 *   (split evenly over the year's word releases);
 * - ρ_year is the largest ρ that converts to ε_year (zcdp.ts);
 * - with a fixed window, each release (one per window and series) spends
 *   ρ_year ÷ (windows a year × 2 series), so a participant in every release of a year spends
 *   exactly ρ_year; the accountant (window-releaser.ts) checks it per participant anyway, and
 *   leaves out of a release whoever it would take over.
 */
const zcdp_1 = require("../releases/zcdp");
const calendar_1 = require("./calendar");
/** δ of the yearly promise. */
exports.YEAR_DELTA = 1e-6;
/** The share of δ the conversion of ρ to ε takes; the rest goes to the words' thresholds. */
exports.CONVERSION_DELTA = exports.YEAR_DELTA / 2;
/** The two series, scores and words, each released once per window. */
exports.SERIES_PER_WINDOW = 2;
/** The defaults and bounds the operator sets (enterprises:set-privacy-floor). */
exports.BUDGET = {
    defaultEpsilonYear: 24,
    minEpsilonYear: 1,
    maxEpsilonYear: 100,
    defaultMaxMargin: 10,
    minMaxMargin: 1,
    maxMaxMargin: 100,
};
/** ρ_year: the zCDP budget a year of releases may spend, for the promise ε_year. */
const yearRho = (epsilonYear) => (0, zcdp_1.rhoForEpsilon)(epsilonYear, exports.CONVERSION_DELTA);
exports.yearRho = yearRho;
/** What one release (one window, one series) spends of each participant in it. */
const releaseRho = (kind, epsilonYear) => (0, exports.yearRho)(epsilonYear) / (calendar_1.WINDOWS_PER_YEAR[kind] * exports.SERIES_PER_WINDOW);
exports.releaseRho = releaseRho;
/** δ of one words release: half the year's δ over the most word releases a year holds. */
const wordReleaseDelta = (kind) => (exports.YEAR_DELTA - exports.CONVERSION_DELTA) / calendar_1.WINDOWS_PER_YEAR[kind];
exports.wordReleaseDelta = wordReleaseDelta;
//# sourceMappingURL=budget.js.map