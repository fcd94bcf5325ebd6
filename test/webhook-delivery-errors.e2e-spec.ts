/**
 * What the deliveries API says about an attempt that got no HTTP answer (docs/webhooks.md, "What
 * an attempt's error says"): one fixed text per kind of failure, never the host, the address it
 * resolved to or a library's message; the worker's log has the detail, one warn line per failed
 * attempt, without the URL's path or query.
 */
import { Logger } from '@nestjs/common';
import { createServer as createTcpServer, Server as TcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { startTestApp, TestApp, TestEnterprise } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

interface Attempt {
  statusCode: number | null;
  error: string | null;
}

/** The receiver's own secret in its URL: it must reach no log line. */
const RECEIVER_TOKEN = 'receiver-token-5f2a9c';

const warnings = jest.spyOn(Logger.prototype, 'warn');

/** A TCP port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A server that accepts connections and drops them at once. */
async function resettingServer(): Promise<TcpServer> {
  const server = createTcpServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/**
 * Registers an endpoint at `url` in a new group, sends it a test event, and answers its first
 * attempt as the deliveries API shows it, with the raw body of that answer.
 */
async function firstAttempt(
  t: TestApp,
  enterprise: TestEnterprise,
  url: string,
): Promise<{ attempt: Attempt; body: string; webhookId: string; groupID: number }> {
  const group = await t.newGroup(enterprise, `Errors ${url}`);
  const created = await t.request('POST', `/webhooks/${group.groupID}`, {
    apiKey: enterprise.apiKey,
    body: { url, description: 'unreachable' },
  });
  expect(created.status).toBe(200);
  const webhookId = (created.body as { id: string }).id;
  const sent = await t.request('POST', `/webhooks/${group.groupID}/${webhookId}/test`, {
    apiKey: enterprise.apiKey,
  });
  expect(sent.status).toBe(200);
  let attempt: Attempt | undefined;
  let body = '';
  await eventually(async () => {
    const listed = await t.request('GET', `/webhooks/${group.groupID}/${webhookId}/deliveries`, {
      apiKey: enterprise.apiKey,
    });
    expect(listed.status).toBe(200);
    body = listed.text;
    attempt = (listed.body as { attemptLog: Attempt[] }[])[0]?.attemptLog[0];
    expect(attempt).toBeDefined();
  }, 10_000);
  return { attempt: attempt!, body, webhookId, groupID: group.groupID };
}

/**
 * The warn lines logged for this endpoint's attempts: their message (a line's fields come first,
 * `{ deliveryId, endpointId, … }`, then its message).
 */
const logLinesOf = (webhookId: string): string[] =>
  warnings.mock.calls
    .map(([first, message]) => String(typeof first === 'string' ? first : message))
    .filter((line) => line.includes(webhookId));

describe('Delivery errors, private URLs allowed (local receivers)', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  const servers: { stop: () => Promise<void> }[] = [];

  beforeAll(async () => {
    // One attempt per delivery in these tests (the retry is an hour away); a short timeout.
    t = await startTestApp({ WEBHOOK_RETRY_SCHEDULE: '1h', WEBHOOK_TIMEOUT_MS: '500' });
    acme = await t.newEnterprise('Acme');
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await t.close();
  });

  it('a refused port is `connection refused`', async () => {
    const port = await closedPort();
    const { attempt, body, webhookId } = await firstAttempt(
      t,
      acme,
      `http://127.0.0.1:${port}/hook?token=${RECEIVER_TOKEN}`,
    );
    expect(attempt).toMatchObject({ statusCode: null, error: 'connection refused' });
    expect(body).not.toContain('127.0.0.1');
    expect(body).not.toContain(`:${port}`);
    expect(body).not.toContain('ECONNREFUSED');
    const [line] = logLinesOf(webhookId);
    expect(line).toContain(`(host 127.0.0.1:${port}), attempt 1, failed: connection refused`);
    // What happens next: the retry an hour later (WEBHOOK_RETRY_SCHEDULE=1h).
    expect(line).toMatch(/; next attempt at \d{4}-\d\d-\d\dT[\d:.]+Z$/);
    expect(line).toContain(`ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port}`);
    expect(line).not.toContain(RECEIVER_TOKEN);
    expect(line).not.toContain('/hook');
  });

  it('a receiver slower than WEBHOOK_TIMEOUT_MS is `timeout`', async () => {
    const receiver = await new WebhookReceiver().start();
    servers.push(receiver);
    receiver.replies.push({ status: 200, delayMs: 3_000 });
    const { attempt, body, webhookId } = await firstAttempt(t, acme, `${receiver.url}/slow`);
    expect(attempt).toMatchObject({ statusCode: null, error: 'timeout' });
    expect(body).not.toContain('500 ms');
    expect(logLinesOf(webhookId)).toEqual([
      expect.stringContaining('failed: timeout (ETIMEDOUT: timed out after 500 ms)') as string,
    ]);
  });

  it('https:// to a plain-HTTP port is `TLS error`', async () => {
    const receiver = await new WebhookReceiver().start();
    servers.push(receiver);
    const { attempt, body } = await firstAttempt(
      t,
      acme,
      receiver.url.replace('http://', 'https://'),
    );
    expect(attempt).toMatchObject({ statusCode: null, error: 'TLS error' });
    expect(body).not.toMatch(/SSL|wrong version/i);
  });

  it('a connection dropped by the receiver is `connection reset`', async () => {
    const server = await resettingServer();
    servers.push({ stop: () => new Promise((resolve) => server.close(() => resolve())) });
    const { port } = server.address() as AddressInfo;
    const { attempt } = await firstAttempt(t, acme, `http://127.0.0.1:${port}/`);
    expect(attempt).toMatchObject({ statusCode: null, error: 'connection reset' });
  });

  it('an HTTP answer has its status and no error; the log says which', async () => {
    const receiver = await new WebhookReceiver().start();
    servers.push(receiver);
    receiver.replies.push({ status: 503 });
    const { attempt, webhookId } = await firstAttempt(t, acme, receiver.url);
    expect(attempt).toMatchObject({ statusCode: 503, error: null });
    expect(logLinesOf(webhookId)).toEqual([
      expect.stringContaining('attempt 1, failed: HTTP 503') as string,
    ]);
  });
});

describe('Delivery errors, private URLs not allowed (as in production)', () => {
  let t: TestApp;
  let acme: TestEnterprise;

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false', WEBHOOK_RETRY_SCHEDULE: '1h' });
    acme = await t.newEnterprise('Acme');
  });
  afterAll(() => t.close());

  it('a name that resolves to a private address is `address not allowed`', async () => {
    // This machine's own name resolves to a loopback address (/etc/hosts): a name, so it passes
    // registration, and the guard refuses it when the delivery resolves it.
    const host = hostname();
    const { attempt, body, webhookId } = await firstAttempt(
      t,
      acme,
      `https://${host}/hook?token=${RECEIVER_TOKEN}`,
    );
    expect(attempt).toMatchObject({ statusCode: null, error: 'address not allowed' });
    expect(body).not.toContain(`${host} `);
    expect(body).not.toContain('private');
    const [line] = logLinesOf(webhookId);
    expect(line).toContain(
      `failed: address not allowed (BlockedAddressError: refused: ${host} resolves to a private or reserved address)`,
    );
    expect(line).not.toContain(RECEIVER_TOKEN);
  });

  it('a name that does not resolve reads the same, `address not allowed`: deliveries cannot tell our internal names from nonexistent ones', async () => {
    const { attempt, body, webhookId } = await firstAttempt(
      t,
      acme,
      'https://no-such-host.invalid/hook',
    );
    expect(attempt).toMatchObject({ statusCode: null, error: 'address not allowed' });
    expect(body).not.toContain('no-such-host');
    expect(body).not.toContain('ENOTFOUND');
    expect(body).not.toContain('DNS');
    // The operator's log keeps the detail.
    expect(logLinesOf(webhookId)).toEqual([
      expect.stringMatching(
        /failed: address not allowed \((ENOTFOUND|EAI_AGAIN): getaddrinfo \S+ no-such-host\.invalid\); next attempt at /,
      ) as string,
    ]);
  });
});
