/** A real local HTTP receiver for webhook tests; verifies with the `standardwebhooks` package. */
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { LocalServer } from './local-server';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Answer after this long (a slow receiver). */
  delayMs?: number;
}

export class WebhookReceiver {
  readonly received: Received[] = [];
  /** Replies used in order; when empty, 200. */
  readonly replies: Reply[] = [];
  private server!: LocalServer;
  url = '';

  async start(): Promise<this> {
    this.server = await LocalServer.start((request, body, response) => {
      this.received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: body.toString('utf8'),
        at: Date.now(),
      });
      const reply = this.replies.shift() ?? { status: 200 };
      setTimeout(() => {
        response.writeHead(reply.status, reply.headers);
        response.end(reply.body ?? 'ok');
      }, reply.delayMs ?? 0);
    });
    this.url = this.server.url;
    return this;
  }

  stop(): Promise<void> {
    return this.server.stop();
  }

  /** Verifies a delivery with the secret, as a receiver would; throws when it does not verify. */
  static verify(received: Received, secret: string): Record<string, unknown> {
    const headers = Object.fromEntries(
      Object.entries(received.headers).map(([name, value]) => [name, String(value)]),
    );
    return new Webhook(secret).verify(received.body, headers) as Record<string, unknown>;
  }

  async waitFor(count: number, timeoutMs = 10_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) {
        throw new Error(`expected ${count} deliveries, got ${this.received.length}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return this.received;
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How often a test that waits for a state (a delivery recorded, a mail sent) looks again: a wait
 * ends within this long of the state being reached, not after a fixed time.
 */
export const POLL_INTERVAL_MS = 25;

/** Retries `check` (which throws while not yet true) until it passes or `timeoutMs` is over. */
export async function eventually(check: () => Promise<void>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(POLL_INTERVAL_MS);
    }
  }
}
