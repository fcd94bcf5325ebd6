/**
 * The webhook HTTP client (src/webhooks/safe-http.ts) against a real local receiver: what it
 * reads of an answer, its one deadline, and its keep-alive pools (docs/webhooks.md). The SSRF
 * guard's refusals are in test/webhook-delivery-errors.e2e-spec.ts and safe-http.spec.ts.
 */
import http from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import {
  EndpointPools,
  MAX_RESPONSE_BYTES,
  postJson,
  type PostOptions,
  RequestTimeoutError,
} from '../../src/webhooks/safe-http';

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

describe('webhook HTTP client (safe-http)', () => {
  let server: http.Server;
  let url: string;
  let handler: Handler;
  const received: {
    method?: string;
    url?: string;
    headers: http.IncomingHttpHeaders;
    body: string;
  }[] = [];
  const connections = new Set<Socket>();
  let connectionsOpened = 0;
  /** Each test's own pool, closed after it. */
  let shared: EndpointPools;
  let options: PostOptions;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        received.push({ method: request.method, url: request.url, headers: request.headers, body });
        handler(request, response);
      });
    });
    server.on('connection', (socket: Socket) => {
      connectionsOpened += 1;
      connections.add(socket);
      socket.on('close', () => connections.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook?token=abc`;
  });

  afterAll(async () => {
    for (const socket of connections) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    shared = new EndpointPools({ connectionsPerOrigin: 4, timeoutMs: 2_000, allowPrivate: true });
    options = { timeoutMs: 2_000, allowPrivate: true, pool: shared.for(url) };
    received.length = 0;
    connectionsOpened = 0;
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain', 'retry-after': '7' });
      response.end('ok');
    };
  });

  afterEach(() => shared.destroy());

  it('POSTs the body with our headers to the path and query, and answers status, headers and body', async () => {
    const answer = await postJson(url, '{"a":1}', { 'webhook-id': 'evt_1' }, options);
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe('ok');
    expect(answer.headers).toMatchObject({ 'retry-after': '7', 'content-type': 'text/plain' });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/hook?token=abc', body: '{"a":1}' });
    expect(received[0].headers).toMatchObject({
      'webhook-id': 'evt_1',
      'content-type': 'application/json',
      'content-length': '7',
      'user-agent': 'checkin-webhooks/1.0',
    });
  });

  it('reads an answer up to 64 KiB and no further', async () => {
    handler = (_request, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      // 200 KiB, in chunks, so that the cap falls inside one of them.
      for (let i = 0; i < 50; i++) response.write('x'.repeat(4_000));
      response.end('y'.repeat(4_000));
    };
    const answer = await postJson(url, '{}', {}, options);
    expect(answer.statusCode).toBe(500);
    expect(answer.body).toBe('x'.repeat(MAX_RESPONSE_BYTES));
  });

  it('gives up at the deadline with RequestTimeoutError, however much of the answer came', async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('partial');
      // …and never ends.
    };
    const started = Date.now();
    await expect(postJson(url, '{}', {}, { ...options, timeoutMs: 300 })).rejects.toBeInstanceOf(
      RequestTimeoutError,
    );
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a pool keeps its connections alive, and a request waiting for one past the deadline is never sent', async () => {
    const pools = new EndpointPools({
      connectionsPerOrigin: 1,
      timeoutMs: 400,
      allowPrivate: true,
    });
    try {
      const pool = pools.for(url);
      expect(pools.for(url.replace('/hook', '/other'))).toBe(pool);
      for (let i = 0; i < 3; i++) {
        expect((await postJson(url, `{"n":${i}}`, {}, { ...options, pool })).statusCode).toBe(200);
      }
      expect(connectionsOpened).toBe(1);

      // The one connection is held by an answer that never comes; the second request waits for
      // it, times out waiting, and must not reach the receiver afterwards.
      received.length = 0;
      handler = () => undefined;
      const held = postJson(url, '{"held":true}', {}, { ...options, timeoutMs: 400, pool });
      const queued = postJson(url, '{"queued":true}', {}, { ...options, timeoutMs: 200, pool });
      await expect(queued).rejects.toBeInstanceOf(RequestTimeoutError);
      await expect(held).rejects.toBeInstanceOf(RequestTimeoutError);
      // Were the queued request still waiting, the pool would send it before a later one.
      handler = (_request, response) => response.end('ok');
      expect((await postJson(url, '{"after":true}', {}, { ...options, pool })).statusCode).toBe(
        200,
      );
      expect(received.map((request) => request.body)).toEqual(['{"held":true}', '{"after":true}']);
    } finally {
      await pools.destroy();
    }
  });
});
