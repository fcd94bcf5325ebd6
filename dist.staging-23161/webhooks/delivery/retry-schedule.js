"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RETRY_AFTER_CAP_MS = void 0;
exports.parseRetryAfter = parseRetryAfter;
exports.nextRetryDelay = nextRetryDelay;
const node_crypto_1 = require("node:crypto");
/**
 * When to try again (docs/webhooks.md): the configured schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
 * 10 h, 24 h by default) with ±10 % jitter so retries of many endpoints do not arrive in lockstep,
 * or the receiver's `Retry-After` (seconds or an HTTP date) when it gives one, capped at 2 h.
 * After the last delay the delivery has failed.
 */
exports.RETRY_AFTER_CAP_MS = 2 * 3_600_000;
/** A uniform number in [0, 1) from crypto (the service takes no randomness from Math.random). */
const uniform = () => (0, node_crypto_1.randomInt)(2 ** 48 - 1) / (2 ** 48 - 1);
function parseRetryAfter(header, now) {
    const value = Array.isArray(header) ? header[0] : header;
    if (!value)
        return null;
    if (/^\d+$/.test(value.trim()))
        return Number(value.trim()) * 1000;
    const date = Date.parse(value);
    return Number.isFinite(date) ? Math.max(0, date - now) : null;
}
/**
 * Delay before the next attempt, after `attemptsMade` attempts, or null when none is left.
 * `random` is injectable for tests (0..1).
 */
function nextRetryDelay(schedule, attemptsMade, retryAfterMs, random = uniform) {
    if (attemptsMade < 1 || attemptsMade > schedule.length)
        return null;
    if (retryAfterMs !== null)
        return Math.min(retryAfterMs, exports.RETRY_AFTER_CAP_MS);
    const base = schedule[attemptsMade - 1];
    return Math.round(base * (0.9 + 0.2 * random()));
}
//# sourceMappingURL=retry-schedule.js.map