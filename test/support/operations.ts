/**
 * The operator's side of a running process (docs/operations.md, "Monitoring"): scraping its
 * operations port as Prometheus does, and a TCP proxy a test can cut to make PostgreSQL or Redis
 * disappear for one process without touching the machine's shared servers.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** One sample of the Prometheus text format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The samples of a Prometheus text exposition (comments skipped). */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(LABEL)) labels[name] = value;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** A process's figures, as `GET /metrics` on its operations port answers them now. */
export class Scrape {
  constructor(
    readonly text: string,
    readonly samples: Sample[],
  ) {}

  static async of(opsPort: number): Promise<Scrape> {
    const response = await fetch(`http://127.0.0.1:${opsPort}/metrics`);
    if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
    const text = await response.text();
    return new Scrape(text, parseMetrics(text));
  }

  /** The metric families exposed (a histogram's _bucket, _sum and _count are its family). */
  families(): Set<string> {
    return new Set([...this.text.matchAll(/^# TYPE (\S+) /gm)].map(([, family]) => family));
  }

  /** The value of the one sample of `name` whose labels include `labels`; undefined if none. */
  value(name: string, labels: Record<string, string> = {}): number | undefined {
    const found = this.samples.filter(
      (sample) =>
        sample.name === name &&
        Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    );
    if (found.length > 1)
      throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length}`);
    return found[0]?.value;
  }
}

/**
 * Forwards a local port to a target (a dependency of one process under test). `cut()` stops
 * listening and drops every connection, as a server gone away; `restore()` listens on the same
 * port again.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<this> {
    await this.listen(0);
    return this;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async restore(): Promise<void> {
    await this.listen(this.port);
  }

  private listen(port: number): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const [from, to] of [
        [client, upstream],
        [upstream, client],
      ]) {
        this.sockets.add(from);
        from.on('error', () => to.destroy());
        from.on('close', () => {
          this.sockets.delete(from);
          to.destroy();
        });
        from.pipe(to);
      }
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        this.port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  }
}
