/**
 * A real local HTTP server for the tests' peers (a webhook receiver, an OTLP collector): listens
 * on 127.0.0.1 at a free port and hands each request, with its whole body, to `answer`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Answer = (request: IncomingMessage, body: Buffer, response: ServerResponse) => void;

export class LocalServer {
  private constructor(
    private readonly server: Server,
    /** `http://127.0.0.1:<port>`. */
    readonly url: string,
  ) {}

  static async start(answer: Answer): Promise<LocalServer> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => answer(request, Buffer.concat(chunks), response));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new LocalServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
