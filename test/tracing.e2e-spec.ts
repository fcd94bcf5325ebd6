/**
 * Traces (docs/operations.md, "Traces"), with real processes and a local OTLP receiver: an API
 * process (RUN_WORKERS=false) and a worker process export to it. A request that creates a
 * participant writes `user.created` with its trace context; the worker's delivery span, and the
 * span of a mail the next request queues, join the traces of the requests that caused them. What
 * leaves the processes names no participant, no client and no secret. With
 * OTEL_EXPORTER_OTLP_ENDPOINT unset nothing is stored, nothing is sent and the SDK is not loaded.
 */
import { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, databaseUrl, dropDatabase } from './support/databases';
import { request } from './support/http';
import { OtlpReceiver, ReceivedSpan, SpanKinds } from './support/otlp-receiver';
import {
  createEnterpriseWithCli,
  freePort,
  kill,
  RunningProcess,
  serviceEnv,
  startService,
  startWorker,
} from './support/processes';
import type { SessionCreated, TestGroup } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

/** A trace a client says it is part of: the service starts its own instead. */
const CALLER_TRACE_ID = 'a1'.repeat(16);
const CALLER_TRACEPARENT = `00-${CALLER_TRACE_ID}-${'b2'.repeat(8)}-01`;
/** What the webhook URL carries for its receiver: never in a span. */
const URL_SECRET = 'receiver-own-token-7f3a';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

/** Stops a worker as an orchestrator does (SIGTERM) and resolves once it is gone. */
async function stopWorker(worker: ChildProcess): Promise<void> {
  if (worker.exitCode !== null || worker.signalCode !== null) return;
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  worker.kill('SIGTERM');
  await exited;
}

describe('Traces', () => {
  let databaseName: string;
  let db: Client;
  const mailDir = mkdtempSync(join(tmpdir(), 'checkin-tracing-mail-'));
  const stoppers: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    databaseName = await createTestDatabase();
    db = new Client({ connectionString: databaseUrl(databaseName) });
    await db.connect();
  });
  afterAll(async () => {
    for (const stop of stoppers.reverse()) await stop();
    await db.end();
    await dropDatabase(databaseName);
    rmSync(mailDir, { recursive: true, force: true });
  });

  /** Stopped after the file's tests, whatever happens in them. */
  const started = <T extends { stop: () => Promise<unknown> }>(thing: T): T => {
    stoppers.push(() => thing.stop());
    return thing;
  };
  const env = (extra: Record<string, string>) =>
    serviceEnv(databaseName, {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_SWEEP_INTERVAL_MS: '200',
      MAIL_DIR: mailDir,
      ...extra,
    });

  /** An enterprise with a group and an endpoint taking user.created; a participant joins it. */
  async function participantJoins(
    settings: Record<string, string>,
    base: string,
    inbox: WebhookReceiver,
    name: string,
  ) {
    const { apiKey } = await createEnterpriseWithCli(settings, name);
    const group = (await request(base, 'POST', '/groups', { apiKey, body: { groupName: name } }))
      .body as TestGroup;
    const endpoint = await request(base, 'POST', `/webhooks/${group.groupID}`, {
      apiKey,
      body: { url: `${inbox.url}/hooks/${URL_SECRET}?token=${URL_SECRET}`, description: name },
    });
    expect(endpoint.status).toBe(200);
    const email = `${name.toLowerCase()}@example.com`;
    const created = await request(base, 'POST', '/session/create', {
      apiKey,
      headers: { traceparent: CALLER_TRACEPARENT },
      body: {
        groupID: group.groupID,
        groupKey: group.key,
        userIdentifier: email,
        returnURL: 'https://app.example.com/done',
      },
    });
    expect(created.status).toBe(200);
    const { userIdentifier } = created.body as SessionCreated;
    return { apiKey, group, email, userIdentifier };
  }

  const storedContext = async (table: 'events' | 'email_messages', groupId: number) =>
    (
      await db.query<{ traceContext: Record<string, string> | null }>(
        `SELECT trace_context AS "traceContext" FROM ${table} WHERE group_id = $1`,
        [groupId],
      )
    ).rows.map((row) => row.traceContext);

  it("one trace spans the API's request and the worker's delivery; a mail joins its request's trace", async () => {
    const receiver = started(await new OtlpReceiver().start());
    const inbox = started(await new WebhookReceiver().start());
    const settings = env({
      RUN_WORKERS: 'false',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    const port = await freePort();
    const api: RunningProcess = started(await startService(settings, port));
    const worker = await startWorker(settings);
    stoppers.push(() => kill(worker));
    const base = `http://127.0.0.1:${port}`;

    const { apiKey, group, email, userIdentifier } = await participantJoins(
      settings,
      base,
      inbox,
      'Traced',
    );
    const [delivered] = await inbox.waitFor(1);
    // Trace context does not cross the service's edge: none is sent to the receiver.
    expect(delivered.headers.traceparent).toBeUndefined();
    expect(delivered.path).toBe(`/hooks/${URL_SECRET}?token=${URL_SECRET}`);
    const emailed = await request(base, 'POST', `/interact/participants/${userIdentifier}/email`, {
      apiKey,
      body: { emailType: 'checkinReminder' },
    });
    expect(emailed.status).toBe(200);
    await eventually(async () => {
      const { rows } = await db.query<{ status: string }>(
        'SELECT status FROM email_messages WHERE group_id = $1',
        [group.groupID],
      );
      expect(rows).toEqual([{ status: 'sent' }]);
    }, 15_000);

    // Stopped as an orchestrator stops them: each sends its last spans before it exits.
    expect(await api.stop()).toBe(true);
    await stopWorker(worker);

    // The event keeps the trace context of the request that wrote it.
    const [stored] = await storedContext('events', group.groupID);
    const [, traceId, parentSpanId] = TRACEPARENT.exec(stored?.traceparent ?? '') ?? [];
    expect(traceId).toBeDefined();
    expect(traceId).not.toBe(CALLER_TRACE_ID);

    const find = (predicate: (span: ReceivedSpan) => boolean, what: string) => {
      const found = receiver.spans.find(predicate);
      if (!found) throw new Error(`no ${what} among ${receiver.spans.length} spans`);
      return found;
    };
    let delivery!: ReceivedSpan;
    let mail!: ReceivedSpan;
    await eventually(() => {
      delivery = find((s) => s.name === 'webhook.delivery', 'delivery span');
      mail = find((s) => s.name === 'email.send', 'mail span');
      return Promise.resolve();
    }, 10_000);
    const trace = receiver.trace(traceId);

    // The API's server span of the request, and the worker's delivery span, in one trace.
    const server = find(
      (s) => s.kind === SpanKinds.Server && s.attributes['http.route'] === '/session/create',
      'server span',
    );
    expect(server).toMatchObject({
      service: 'checkin-api',
      traceId,
      parentSpanId: '',
      name: 'POST /session/create',
    });
    expect(server.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.response.status_code': 200,
    });
    // Load balancers' probes (startService polls /health) make no traces.
    expect(receiver.spans.filter((s) => s.attributes['http.route'] === '/health')).toEqual([]);
    expect(delivery).toMatchObject({
      service: 'checkin-worker',
      scope: 'checkin',
      traceId,
      // Its parent is the span that was active when the event was written, in the API.
      parentSpanId,
      kind: SpanKinds.Internal,
    });
    expect(trace.filter((s) => s.service === 'checkin-api').map((s) => s.spanId)).toContain(
      parentSpanId,
    );
    const eventId = (JSON.parse(delivered.body) as { id: string }).id;
    expect(delivery.attributes).toEqual({
      'webhook.delivery.id': expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
      'webhook.delivery.attempt': 1,
      'webhook.event.id': eventId,
      'webhook.event.type': 'user.created',
      'webhook.delivery.outcome': 'delivered',
      'webhook.delivery.status_code': 200,
    });
    // The outbound request is the delivery's child; its URL is the receiver's origin only.
    const outbound = find(
      (s) => s.kind === SpanKinds.Client && s.parentSpanId === delivery.spanId,
      'outbound request span',
    );
    expect(outbound).toMatchObject({ service: 'checkin-worker', traceId, name: 'POST' });
    expect(outbound.attributes).toMatchObject({
      'url.full': inbox.url,
      'http.response.status_code': 200,
    });
    // PostgreSQL's spans in the request's trace: the statements, with placeholders.
    const statements = trace
      .filter((s) => s.attributes['db.system.name'] === 'postgresql')
      .map((s) => String(s.attributes['db.query.text']));
    // The event, its outbox rows and the NOTIFY are one statement (events.repository.ts).
    expect(statements).toContainEqual(
      expect.stringMatching(/^WITH event AS \(\s+INSERT INTO events .*VALUES \(\$1/s),
    );
    expect(statements).toContainEqual(expect.stringMatching(/^INSERT INTO participants/));
    // Redis's, by command name only: the rate limit's counters, settled in some request's trace.
    expect(
      receiver.spans
        .filter((s) => s.service === 'checkin-api' && s.attributes['db.system.name'] === 'redis')
        .map((s) => s.attributes['db.query.text']),
    ).toContain('incrby');

    // The mail: queued by the interact request, sent by the worker, one trace.
    const [mailContext] = await storedContext('email_messages', group.groupID);
    expect(mailContext?.traceparent).toMatch(TRACEPARENT);
    const interact = find(
      (s) =>
        s.kind === SpanKinds.Server &&
        s.attributes['http.route'] === '/interact/participants/:externalID/email',
      'interact server span',
    );
    expect(mail).toMatchObject({ service: 'checkin-worker', traceId: interact.traceId });
    expect(mailContext?.traceparent).toContain(interact.traceId);
    expect(mail.attributes).toMatchObject({
      'email.type': 'checkinReminder',
      'email.outcome': 'sent',
    });

    // Nothing that names a participant, a client or a secret left the processes.
    expect(receiver.spans.some((s) => s.traceId === CALLER_TRACE_ID)).toBe(false);
    const exported = JSON.stringify(receiver.spans);
    for (const secret of [email, userIdentifier, apiKey, group.key, URL_SECRET]) {
      expect(exported).not.toContain(secret);
    }
    const keys = new Set(receiver.spans.flatMap((s) => Object.keys(s.attributes)));
    for (const key of [
      'url.path',
      'url.query',
      'client.address',
      'network.peer.address',
      'user_agent.original',
      'db.postgresql.values',
    ]) {
      expect(keys).not.toContain(key);
    }
  }, 90_000);

  it('off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: nothing stored, nothing sent, the SDK not loaded', async () => {
    const receiver = started(await new OtlpReceiver().start());
    const inbox = started(await new WebhookReceiver().start());
    const loadedModules = join(mailDir, 'loaded-modules.json');
    const settings = env({
      RUN_WORKERS: 'true',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'checkin-off',
      // The SDK's own variable for the traces endpoint does not turn tracing on.
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
      NODE_OPTIONS: `--require ${join(__dirname, 'support', 'record-loaded-modules.js')}`,
      LOADED_MODULES_FILE: loadedModules,
    });
    const port = await freePort();
    const api = started(await startService(settings, port));
    const base = `http://127.0.0.1:${port}`;

    const { apiKey, group, userIdentifier } = await participantJoins(
      settings,
      base,
      inbox,
      'Untraced',
    );
    await inbox.waitFor(1);
    const emailed = await request(base, 'POST', `/interact/participants/${userIdentifier}/email`, {
      apiKey,
      body: { emailType: 'checkinReminder' },
    });
    expect(emailed.status).toBe(200);
    expect(await api.stop()).toBe(true);

    expect(await storedContext('events', group.groupID)).toEqual([null]);
    expect(await storedContext('email_messages', group.groupID)).toEqual([null]);
    expect(receiver.exports).toEqual([]);
    const loaded = JSON.parse(readFileSync(loadedModules, 'utf8')) as string[];
    // The API (spans are no-ops without an SDK) is all of OpenTelemetry the process loaded.
    expect(loaded.filter((path) => /node_modules\/@opentelemetry\/api\//.test(path))).not.toEqual(
      [],
    );
    expect(
      loaded.filter((path) =>
        /node_modules\/(@opentelemetry\/(?!api\/)|@fastify\/otel)/.test(path),
      ),
    ).toEqual([]);
  }, 60_000);

  it('sends OTLP/HTTP protobuf by default, as OTEL_SERVICE_NAME', async () => {
    const receiver = started(await new OtlpReceiver().start());
    const settings = env({
      RUN_WORKERS: 'false',
      OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.url}/`,
      OTEL_SERVICE_NAME: 'checkin-edge',
    });
    const port = await freePort();
    const api = started(await startService(settings, port));
    const { apiKey } = await createEnterpriseWithCli(settings, 'Protobuf');
    const listed = await request(`http://127.0.0.1:${port}`, 'GET', '/groups', { apiKey });
    expect(listed.status).toBe(200);
    expect(await api.stop()).toBe(true);

    await eventually(() => Promise.resolve(expect(receiver.exports.length).toBeGreaterThan(0)));
    const body = Buffer.concat(receiver.exports.map((e) => e.body));
    expect(receiver.exports.map((e) => [e.path, e.contentType])).toContainEqual([
      '/v1/traces',
      'application/x-protobuf',
    ]);
    // Protobuf keeps strings as they are: the service's name and the span's.
    expect(body.includes('checkin-edge')).toBe(true);
    expect(body.includes('GET /groups')).toBe(true);
  }, 60_000);
});
