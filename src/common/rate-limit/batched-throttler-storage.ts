import { Logger, OnModuleDestroy } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type Redis from 'ioredis';

type StorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** How often a process settles its counts with Redis (ms), at most. */
export const SETTLE_INTERVAL_MS = 100;

/** A key settles early once it has this share of its limit unsettled (1/100: 60 of 6 000). */
export const SETTLE_SHARE_OF_LIMIT = 100;

/** Redis keeps a window's counter this long past the window's end (clock skew between hosts). */
const EXPIRY_SLACK_MS = 5_000;

const WARN_INTERVAL_MS = 10_000;

/** One key's hits to add to the shared counter, and when that counter may expire. */
export interface CounterBatch {
  key: string;
  hits: number;
  expireAtMs: number;
}

/**
 * Where the shared counters live: adds each batch's hits and answers each counter's new total
 * (or the error for that counter). Rejects when the store does not answer at all.
 */
export interface SharedCounters {
  add(batches: CounterBatch[]): Promise<(number | Error)[]>;
}

/** The shared counters in Redis: one pipelined INCRBY + PEXPIREAT per key, one round trip. */
export function redisCounters(redis: Redis): SharedCounters {
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

/** What this process knows of one key in one window. */
interface WindowCount {
  redisKey: string;
  windowEnd: number;
  /** The shared total Redis last answered (every process's settled hits, ours included). */
  known: number;
  /** Our hits sent to Redis, not answered yet. */
  inFlight: number;
  /** Our hits not sent yet. */
  unsettled: number;
  /** Read the total once more at the next settle (hits were sent at the last one). */
  refresh: boolean;
}

export interface BatchedStorageOptions {
  settleIntervalMs?: number;
  now?: () => number;
}

/**
 * The per-API-key limit's throttler storage (docs/api.md, docs/performance.md): requests are
 * counted in process and decided locally, and the counts are settled with Redis in batches, so a
 * request costs no Redis round trip: with the limit on, GET /groups measured 0.66 of its reference
 * with a Redis round trip a request, and about what it measures with the limit off since (`node
 * bench/run.js groups` measures both side by side; docs/performance.md, "Headline figures", Rate
 * limit). Pinned to the library it replaced (ThrottlerStorageRedisService) by
 * test/integration/rate-limit-library.spec.ts.
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
export class BatchedThrottlerStorage implements ThrottlerStorage, OnModuleDestroy {
  private readonly logger = new Logger('RateLimit');
  private readonly counts = new Map<string, WindowCount>();
  private readonly settleIntervalMs: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private settling: Promise<void> | undefined;
  private settleAgain = false;
  /** The last settle failed (Redis did not answer). */
  private failing = false;
  private destroyed = false;
  private lastWarning = -Infinity;

  constructor(
    private readonly counters: SharedCounters,
    options: BatchedStorageOptions = {},
  ) {
    this.settleIntervalMs = options.settleIntervalMs ?? SETTLE_INTERVAL_MS;
    this.now = options.now ?? Date.now;
  }

  /** ThrottlerStorage's shape of hit(), for callers that go through @nestjs/throttler. */
  increment(key: string, ttl: number, limit: number): Promise<StorageRecord> {
    return Promise.resolve(this.hit(key, ttl, limit));
  }

  /**
   * Counts one request against `key` (ttl = the window, ms) and decides it locally, synchronously:
   * the per-key guard calls this on every authenticated request, so it costs no promise.
   */
  hit(key: string, ttl: number, limit: number): StorageRecord {
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
    const settleNow = count.unsettled >= Math.ceil(limit / SETTLE_SHARE_OF_LIMIT);
    // While Redis is failing, only the timer retries: a request never waits for, nor causes, more.
    if (settleNow && !this.failing) void this.settle();
    else this.armTimer();
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
  settle(): Promise<void> {
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
      } else this.scheduleSettle();
    });
    return this.settling;
  }

  /** Waits for any settle under way (and the ones it triggers) to finish. */
  async idle(): Promise<void> {
    while (this.settling) await this.settling;
  }

  /** Stops the timer and settles what is left (Redis is disconnected after this). */
  async onModuleDestroy(): Promise<void> {
    this.destroyed = true;
    this.clearTimer();
    await this.idle();
    await this.settleOnce();
  }

  /** Keys counted in memory (for tests of the memory bound). */
  get size(): number {
    return this.counts.size;
  }

  get hasTimer(): boolean {
    return this.timer !== undefined;
  }

  private async settleOnce(): Promise<void> {
    const now = this.now();
    const batch: WindowCount[] = [];
    for (const [redisKey, count] of this.counts) {
      if (count.windowEnd <= now) this.counts.delete(redisKey);
      else if (count.unsettled > 0 || count.refresh) batch.push(count);
    }
    if (batch.length === 0) return;
    const sent = batch.map((count) => {
      const hits = count.unsettled;
      count.inFlight += hits;
      count.unsettled = 0;
      count.refresh = hits > 0;
      return hits;
    });
    let totals: (number | Error)[];
    try {
      totals = await this.counters.add(
        batch.map((count, i) => ({
          key: count.redisKey,
          hits: sent[i],
          expireAtMs: count.windowEnd + EXPIRY_SLACK_MS,
        })),
      );
    } catch (error) {
      totals = batch.map(() => error as Error);
    }
    this.failing = false;
    batch.forEach((count, i) => {
      const total = totals[i];
      count.inFlight -= sent[i];
      if (typeof total === 'number' && Number.isFinite(total)) {
        // Never below what we counted ourselves (Redis may have lost the key, e.g. restarted).
        count.known = Math.max(count.known + sent[i], total);
      } else {
        count.unsettled += sent[i];
        this.failing = true;
        this.warn(total instanceof Error ? total : new Error(String(total)));
      }
    });
  }

  /** After a settle: arms the timer if hits arrived meanwhile (or were not accepted). */
  private scheduleSettle(): void {
    for (const count of this.counts.values()) {
      if (count.unsettled > 0 || count.refresh) return this.armTimer();
    }
  }

  private armTimer(): void {
    if (this.timer || this.settling || this.destroyed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.settle();
    }, this.settleIntervalMs).unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private warn(error: Error): void {
    const now = Date.now();
    if (now - this.lastWarning < WARN_INTERVAL_MS) return;
    this.lastWarning = now;
    this.logger.warn(
      `Rate limit counted in this process only: Redis did not answer (${error.message})`,
    );
  }
}
