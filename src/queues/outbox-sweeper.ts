import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Client } from 'pg';

/**
 * Moves due rows of an outbox table (webhook deliveries, emails) into their Bull queue. It wakes
 * on a PostgreSQL NOTIFY channel (sent at commit by the transaction that wrote the rows) and on an
 * interval regardless, so nothing depends on Redis having kept anything: after a Redis restart or
 * flush, the next sweep queues the rows again. Sweeps never overlap; a wake-up during a sweep
 * runs one more right after it.
 */
export abstract class OutboxSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  protected readonly logger: Logger;
  protected stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private listener: Client | null = null;
  private running = false;
  private again = false;

  protected constructor(
    name: string,
    private readonly channel: string,
    private readonly databaseUrl: string,
    private readonly intervalMs: number,
  ) {
    this.logger = new Logger(name);
  }

  /** One pass: read due rows, queue them. */
  protected abstract sweepOnce(): Promise<void>;

  /**
   * A NOTIFY arrived: rows were committed. Sweeps now (or right after the one in progress); a
   * sweeper whose process can act on the rows itself wakes that first (DeliverySweeper).
   */
  protected notified(): void {
    this.sweep();
  }

  /** Runs after sweeping has stopped, before the queues and pools close. */
  protected async afterStop(): Promise<void> {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.sweep(), this.intervalMs);
    void this.listen();
    this.sweep();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.listener?.end().catch(() => undefined);
    await this.afterStop();
  }

  /** Runs a sweep now, or right after the one in progress. */
  sweep(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.sweepOnce()
      .catch((error: unknown) => this.logger.warn(`Sweep failed: ${(error as Error).message}`))
      .finally(() => {
        this.running = false;
        if (this.again) {
          this.again = false;
          this.sweep();
        }
      });
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.databaseUrl });
    client.on('notification', () => this.notified());
    client.on('error', () => {
      this.listener = null;
      void client.end().catch(() => undefined);
      setTimeout(() => void this.listen(), 1_000);
    });
    try {
      await client.connect();
      if (this.stopped) {
        await client.end();
        return;
      }
      await client.query(`LISTEN ${this.channel}`);
      this.listener = client;
    } catch {
      await client.end().catch(() => undefined);
      setTimeout(() => void this.listen(), 1_000);
    }
  }
}

/** Resolves with the promise's value, or undefined once `ms` have passed. */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether Bull will still run a job in this state. Anything else ('completed', 'failed', or
 * 'stuck': a job hash no list holds, seen after a Redis crash) will never run, and Bull ignores
 * re-adding its id: the sweepers then queue the work again.
 */
export const isRunnableJobState = (state: string | undefined): boolean =>
  state === 'waiting' || state === 'delayed' || state === 'active' || state === 'paused';
