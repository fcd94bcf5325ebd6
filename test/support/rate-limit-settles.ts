/**
 * The settles of one API key's rate-limit counter as Redis runs them, seen with MONITOR: what lets
 * a test of several API processes wait for the processes to have told Redis their counts and read
 * the shared total back, instead of sleeping a few settle intervals and hoping.
 *
 * Each process counts in memory and settles with one INCRBY per key (BatchedThrottlerStorage, in
 * src/common/rate-limit): its hits, or 0 to read the total once more at the settle after its last
 * hits. An INCRBY answers the total, so a process learns what Redis held when it ran, and a
 * process sends its INCRBY 0 only once it has taken in the answer to its previous settle.
 */
import Redis from 'ioredis';
import { hashApiKey } from '../../src/common/ids';
import type { Queryable } from './deliveries';

export interface Settle {
  /** The connection (address:port) it came from: one per API process. */
  source: string;
  hits: number;
  /** The counter's value once Redis ran it, which is what the process learned. */
  total: number;
}

/** The Redis key of `apiKey`'s counter, without the window: `<QUEUE_PREFIX>:rate:api-key:<id>:`. */
export async function rateLimitKeyOf(
  db: Queryable,
  queuePrefix: string,
  apiKey: string,
): Promise<string> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM api_keys WHERE key_hash = $1', [
    hashApiKey(apiKey),
  ]);
  if (rows.length !== 1) throw new Error('rateLimitKeyOf: no such API key');
  return `${queuePrefix}:rate:api-key:${rows[0].id}:`;
}

export class RateLimitSettles {
  readonly settles: Settle[] = [];
  private total = 0;
  private failure?: Error;

  private constructor(private readonly monitor: Redis) {}

  /**
   * Starts watching the counter whose key starts with `keyPrefix` (see rateLimitKeyOf); start it
   * before the key's first hit, so that the totals are the counter's.
   */
  static async watch(redisUrl: string, keyPrefix: string): Promise<RateLimitSettles> {
    // Not ioredis's monitor(): it attaches its error listener only until the first error, and the
    // client switches into monitoring mode one tick after MONITOR's OK, so lines that arrive in the
    // same read as the OK are taken for answers to no command ("Command queue state error"), and
    // the second such line threw out of the socket's handler (a CI run failed so). Our listener is
    // there from the start. Those lines, and any after stop(), are commands Redis ran before
    // watch() resolved, hence before the counter's first hit, or after stop(): none is a settle
    // this watch counts. Any other error fails quiet().
    const monitor = new Redis(redisUrl, { lazyConnect: true, monitor: true });
    const watched = new RateLimitSettles(monitor);
    monitor.on('error', (error: Error) => {
      if (!error.message.startsWith('Command queue state error')) watched.failure ??= error;
    });
    const monitoring = new Promise((resolve) => monitor.once('monitoring', resolve));
    await monitor.connect();
    await monitoring;
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (args[0]?.toLowerCase() !== 'incrby' || !args[1]?.startsWith(keyPrefix)) return;
      watched.total += Number(args[2]);
      watched.settles.push({ source, hits: Number(args[2]), total: watched.total });
    });
    return watched;
  }

  /** The processes seen so far, in the order of their first settle. */
  get sources(): string[] {
    return [...new Set(this.settles.map((settle) => settle.source))];
  }

  /**
   * Resolves once the counter holds `total` and every process that settled has read it back since
   * its last hits (its last INCRBY is a 0): each has taken in the answers to its settles, and none
   * sends anything more until it counts another hit.
   */
  async quiet(total: number, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const isQuiet = () =>
      this.total === total &&
      this.sources.every(
        (source) => this.settles.filter((settle) => settle.source === source).at(-1)?.hits === 0,
      );
    while (!isQuiet()) {
      if (this.failure) throw this.failure;
      if (Date.now() > deadline) {
        throw new Error(
          `the counter did not settle at ${total}: ${JSON.stringify(this.settles.slice(-10))}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  stop(): void {
    this.monitor.disconnect();
  }
}
