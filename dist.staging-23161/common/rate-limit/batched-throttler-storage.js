"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.BatchedThrottlerStorage = exports.SETTLE_SHARE_OF_LIMIT = exports.SETTLE_INTERVAL_MS = void 0;
exports.redisCounters = redisCounters;
const common_1 = require("@nestjs/common");
/** How often a process settles its counts with Redis (ms), at most. */
exports.SETTLE_INTERVAL_MS = 100;
/** A key settles early once it has this share of its limit unsettled (1/100: 60 of 6 000). */
exports.SETTLE_SHARE_OF_LIMIT = 100;
/** Redis keeps a window's counter this long past the window's end (clock skew between hosts). */
const EXPIRY_SLACK_MS = 5_000;
const WARN_INTERVAL_MS = 10_000;
/** The shared counters in Redis: one pipelined INCRBY + PEXPIREAT per key, one round trip. */
function redisCounters(redis) {
    return {
        async add(batches) {
            const pipeline = redis.pipeline();
            for (const { key, hits, expireAtMs } of batches) {
                pipeline.incrby(key, hits).pexpireat(key, expireAtMs);
            }
            const results = (await pipeline.exec()) ?? [];
            return batches.map((_, i) => {
                const [error, total] = results[2 * i] ?? [new Error('no answer'), null];
                return error ?? Number(total);
            });
        },
    };
}
/**
 * The per-API-key limit's throttler storage (docs/api.md, docs/performance.md): requests are counted in process and
 * decided locally, and the counts are settled with Redis in batches, so a request costs no Redis
 * round trip.
 *
 * Fixed windows aligned on the epoch (`floor(now / window)` is part of the Redis key), so every
 * process counts the same window. A request is allowed while (the shared total last learned from
 * Redis + this process's hits not yet reflected in it) < limit. Hits are settled at most
 * SETTLE_INTERVAL_MS after they happen, or as soon as a key has ⌈limit / SETTLE_SHARE_OF_LIMIT⌉
 * unsettled (one settle in flight at a time): one pipelined INCRBY + PEXPIREAT per key touched,
 * whose answers are the shared totals, learned back. A key is read once more (INCRBY 0) at the
 * settle after its last hits, so when traffic stops every process knows the final total within
 * two intervals.
 *
 * Bounds. One process alone is exact: it knows every hit (the limit is never exceeded, and
 * X-RateLimit-Remaining counts down by one per request). With P processes, a process may admit
 * hits that the others made but that it has not learned yet: those not yet sent (at most one
 * batch, N = min(⌈limit / 100⌉, R × SETTLE_INTERVAL_MS)) and those sent after its own last
 * settle (at most one more batch), plus what arrives during a Redis round trip. So a window's
 * total exceeds the limit by at most about 2 × P × N (docs/api.md, "Rate limits per API key").
 *
 * Redis not answering: the batch stays unsettled and is sent again with the next settle (until
 * its window ends, when it no longer matters), requests keep being decided on what this process
 * knows (never refused because Redis is away), and a warning is logged at most every 10 s. A
 * batch whose answer was lost after Redis applied it is counted twice: erring towards the limit.
 * Memory: one entry per key counted in the current window; past windows are dropped at each
 * settle. The settle timer is unref'd, armed only while hits wait, and cleared on shutdown, when
 * the last hits are settled.
 */
class BatchedThrottlerStorage {
    counters;
    logger = new common_1.Logger('RateLimit');
    counts = new Map();
    settleIntervalMs;
    now;
    timer;
    settling;
    settleAgain = false;
    /** The last settle failed (Redis did not answer). */
    failing = false;
    destroyed = false;
    lastWarning = -Infinity;
    constructor(counters, options = {}) {
        this.counters = counters;
        this.settleIntervalMs = options.settleIntervalMs ?? exports.SETTLE_INTERVAL_MS;
        this.now = options.now ?? Date.now;
    }
    /** ThrottlerStorage's shape of hit(), for callers that go through @nestjs/throttler. */
    increment(key, ttl, limit) {
        return Promise.resolve(this.hit(key, ttl, limit));
    }
    /**
     * Counts one request against `key` (ttl = the window, ms) and decides it locally, synchronously:
     * the per-key guard calls this on every authenticated request, so it costs no promise.
     */
    hit(key, ttl, limit) {
        const now = this.now();
        const window = Math.floor(now / ttl);
        const redisKey = `${key}:${window}`;
        let count = this.counts.get(redisKey);
        if (!count) {
            count = {
                redisKey,
                windowEnd: (window + 1) * ttl,
                known: 0,
                inFlight: 0,
                unsettled: 0,
                refresh: false,
            };
            this.counts.set(redisKey, count);
        }
        const secondsLeft = Math.max(1, Math.ceil((count.windowEnd - now) / 1000));
        const used = count.known + count.inFlight + count.unsettled;
        if (used >= limit) {
            return {
                totalHits: used + 1,
                timeToExpire: secondsLeft,
                isBlocked: true,
                timeToBlockExpire: secondsLeft,
            };
        }
        count.unsettled++;
        const settleNow = count.unsettled >= Math.ceil(limit / exports.SETTLE_SHARE_OF_LIMIT);
        // While Redis is failing, only the timer retries: a request never waits for, nor causes, more.
        if (settleNow && !this.failing)
            void this.settle();
        else
            this.armTimer();
        return {
            totalHits: used + 1,
            timeToExpire: secondsLeft,
            isBlocked: false,
            timeToBlockExpire: 0,
        };
    }
    /**
     * Sends every unsettled hit to Redis in one round trip and learns the shared totals back.
     * Resolves when done (after the follow-up settle, if hits asked for one meanwhile); never rejects.
     */
    settle() {
        if (this.settling) {
            this.settleAgain = true;
            return this.settling;
        }
        this.clearTimer();
        this.settling = this.settleOnce().finally(() => {
            this.settling = undefined;
            if (this.settleAgain) {
                this.settleAgain = false;
                void this.settle();
            }
            else
                this.scheduleSettle();
        });
        return this.settling;
    }
    /** Waits for any settle under way (and the ones it triggers) to finish. */
    async idle() {
        while (this.settling)
            await this.settling;
    }
    /** Stops the timer and settles what is left (Redis is disconnected after this). */
    async onModuleDestroy() {
        this.destroyed = true;
        this.clearTimer();
        await this.idle();
        await this.settleOnce();
    }
    /** Keys counted in memory (for tests of the memory bound). */
    get size() {
        return this.counts.size;
    }
    get hasTimer() {
        return this.timer !== undefined;
    }
    async settleOnce() {
        const now = this.now();
        const batch = [];
        for (const [redisKey, count] of this.counts) {
            if (count.windowEnd <= now)
                this.counts.delete(redisKey);
            else if (count.unsettled > 0 || count.refresh)
                batch.push(count);
        }
        if (batch.length === 0)
            return;
        const sent = batch.map((count) => {
            const hits = count.unsettled;
            count.inFlight += hits;
            count.unsettled = 0;
            count.refresh = hits > 0;
            return hits;
        });
        let totals;
        try {
            totals = await this.counters.add(batch.map((count, i) => ({
                key: count.redisKey,
                hits: sent[i],
                expireAtMs: count.windowEnd + EXPIRY_SLACK_MS,
            })));
        }
        catch (error) {
            totals = batch.map(() => error);
        }
        this.failing = false;
        batch.forEach((count, i) => {
            const total = totals[i];
            count.inFlight -= sent[i];
            if (typeof total === 'number' && Number.isFinite(total)) {
                // Never below what we counted ourselves (Redis may have lost the key, e.g. restarted).
                count.known = Math.max(count.known + sent[i], total);
            }
            else {
                count.unsettled += sent[i];
                this.failing = true;
                this.warn(total instanceof Error ? total : new Error(String(total)));
            }
        });
    }
    /** After a settle: arms the timer if hits arrived meanwhile (or were not accepted). */
    scheduleSettle() {
        for (const count of this.counts.values()) {
            if (count.unsettled > 0 || count.refresh)
                return this.armTimer();
        }
    }
    armTimer() {
        if (this.timer || this.settling || this.destroyed)
            return;
        this.timer = setTimeout(() => {
            this.timer = undefined;
            void this.settle();
        }, this.settleIntervalMs).unref();
    }
    clearTimer() {
        if (this.timer)
            clearTimeout(this.timer);
        this.timer = undefined;
    }
    warn(error) {
        const now = Date.now();
        if (now - this.lastWarning < WARN_INTERVAL_MS)
            return;
        this.lastWarning = now;
        this.logger.warn(`Rate limit counted in this process only: Redis did not answer (${error.message})`);
    }
}
exports.BatchedThrottlerStorage = BatchedThrottlerStorage;
//# sourceMappingURL=batched-throttler-storage.js.map