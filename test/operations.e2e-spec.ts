/**
 * What an operator sees (docs/operations.md, "Monitoring"), on the built processes: the API and a
 * worker each serve /metrics, /livez and /readyz on an operations port of their own; the figures
 * move as events, deliveries, failures and mails happen; /readyz follows PostgreSQL and Redis
 * going away and coming back; start-up and shutdown say what they do, in one line each.
 */
import { createServer, type Server } from 'node:net';
import { createTestDatabase, databaseUrl, dropDatabase } from './support/databases';
import { ENGINE_TOKEN, engineHeaders, engineResult } from './support/engine';
import { request } from './support/http';
import { Scrape, TcpProxy } from './support/operations';
import {
  createEnterpriseWithCli,
  freePort,
  kill,
  RunningProcess,
  runToExit,
  serviceEnv,
  startService,
  startWorkerProcess,
} from './support/processes';
import { TEST_REDIS_URL } from './support/run-environment';
import { SmtpSink } from './support/smtp-sink';
import type { SessionCreated, TestGroup } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

/** The JSON log lines of a process's output. */
const logLines = (output: string): Record<string, unknown>[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const get = (port: number, path: string) => request(`http://127.0.0.1:${port}`, 'GET', path);

const READY = {
  status: 'ready',
  checks: { postgresql: 'ok', redis: 'ok', shutdown: 'running' },
};

describe('Operations: metrics, liveness, readiness and logs', () => {
  let databaseName: string;
  let env: Record<string, string>;
  let api: RunningProcess;
  let worker: RunningProcess;
  const ports = { api: 0, apiOps: 0, workerOps: 0 };
  let receiver: WebhookReceiver;
  let smtp: SmtpSink;

  beforeAll(async () => {
    databaseName = await createTestDatabase();
    receiver = await new WebhookReceiver().start();
    smtp = await new SmtpSink().start();
    env = serviceEnv(databaseName, {
      RUN_WORKERS: 'false',
      ENGINE_TOKEN,
      SMTP_URL: smtp.url,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_SWEEP_INTERVAL_MS: '200',
      // Four attempts two seconds apart: a failing receiver exhausts them within the test.
      WEBHOOK_RETRY_SCHEDULE: '2s,2s,2s',
      RATE_LIMIT_REQUESTS: '40',
      RATE_LIMIT_WINDOW: '1h',
      LOG_LEVEL: 'info',
    });
    ports.api = await freePort();
    ports.apiOps = await freePort();
    ports.workerOps = await freePort();
    api = await startService({ ...env, OPS_PORT: String(ports.apiOps) }, ports.api);
    worker = await startWorkerProcess({ ...env, OPS_PORT: String(ports.workerOps) });
  }, 60_000);

  afterAll(async () => {
    await api?.stop();
    await worker?.stop();
    await receiver.stop();
    await smtp.stop();
    await dropDatabase(databaseName);
  });

  const call = (apiKey: string, method: string, path: string, body?: unknown) =>
    request(`http://127.0.0.1:${ports.api}`, method, path, { apiKey, body });

  describe('the operations port', () => {
    it('serves /livez, /readyz and /metrics on each process, and 404 for anything else', async () => {
      for (const port of [ports.apiOps, ports.workerOps]) {
        expect(await get(port, '/livez')).toMatchObject({ status: 200, body: { status: 'ok' } });
        expect(await get(port, '/readyz')).toMatchObject({ status: 200, body: READY });
        const metrics = await get(port, '/metrics');
        expect(metrics.status).toBe(200);
        expect(metrics.headers.get('content-type')).toBe(
          'text/plain; version=0.0.4; charset=utf-8',
        );
        for (const path of ['/', '/health', '/metrics/groups/1/count', '/livez/x']) {
          expect(await get(port, path)).toMatchObject({
            status: 404,
            body: { error: 'Not found' },
          });
        }
        const posted = await request(`http://127.0.0.1:${port}`, 'POST', '/readyz');
        expect(posted).toMatchObject({ status: 405, body: { error: 'Method not allowed' } });
      }
    });

    it('is not on the API port: /livez, /readyz and /metrics are 404 there (/metrics/… is the product’s)', async () => {
      expect(await get(ports.api, '/livez')).toMatchObject({
        status: 404,
        body: { error: 'Not found' },
      });
      expect(await get(ports.api, '/readyz')).toMatchObject({
        status: 404,
        body: { error: 'Not found' },
      });
      // `/metrics/…` there is the product's, for enterprises with a key.
      expect(await get(ports.api, '/metrics')).toMatchObject({
        status: 404,
        body: { error: 'Not found' },
      });
      expect(await get(ports.api, '/metrics/groups/1/count')).toMatchObject({
        status: 401,
        body: { error: 'Unauthorized' },
      });
      expect(await get(ports.api, '/health')).toMatchObject({
        status: 200,
        body: { status: 'ok' },
      });
    });

    it('each process exposes what it does: the API its requests, the worker its deliveries and mails', async () => {
      const [apiFigures, workerFigures] = await Promise.all([
        Scrape.of(ports.apiOps),
        Scrape.of(ports.workerOps),
      ]);
      const everyProcess = [
        'process_cpu_seconds_total',
        'nodejs_eventloop_lag_seconds',
        'checkin_db_pool_connections',
        'checkin_db_pool_idle_connections',
        'checkin_db_pool_waiting_requests',
        'checkin_db_pool_max_connections',
        'checkin_ready',
        'checkin_dependency_up',
        'checkin_enterprises_without_programme',
      ];
      const apiOnly = [
        'http_server_request_duration_seconds',
        'checkin_rate_limit_refusals_total',
        'checkin_group_metric_values_withheld_total',
      ];
      const workerOnly = [
        'checkin_webhook_delivery_attempts_total',
        'checkin_webhook_delivery_latency_seconds',
        'checkin_webhook_deliveries_pending',
        'checkin_webhook_delivery_oldest_due_age_seconds',
        'checkin_webhook_delivery_oldest_pending_age_seconds',
        'checkin_emails_sent_total',
        'checkin_emails_failed_total',
        'checkin_email_retries_total',
        'checkin_emails_pending',
        'checkin_email_oldest_pending_age_seconds',
        'checkin_metric_release_lag_seconds',
      ];
      for (const family of [...everyProcess, ...apiOnly]) {
        expect(apiFigures.families()).toContain(family);
      }
      for (const family of [...everyProcess, ...workerOnly]) {
        expect(workerFigures.families()).toContain(family);
      }
      for (const family of workerOnly) expect(apiFigures.families()).not.toContain(family);
      for (const family of apiOnly) expect(workerFigures.families()).not.toContain(family);
      for (const figures of [apiFigures, workerFigures]) {
        expect(figures.value('checkin_ready')).toBe(1);
        expect(figures.value('checkin_dependency_up', { dependency: 'postgresql' })).toBe(1);
        expect(figures.value('checkin_dependency_up', { dependency: 'redis' })).toBe(1);
        expect(figures.value('checkin_db_pool_max_connections')).toBe(10);
        expect(figures.value('checkin_db_pool_connections')).toBeGreaterThanOrEqual(1);
      }
    });
  });

  describe('the figures move as things happen', () => {
    let apiKey: string;
    let group: TestGroup;

    beforeAll(async () => {
      apiKey = (await createEnterpriseWithCli(env, 'Operations')).apiKey;
      group = (await call(apiKey, 'POST', '/groups', { groupName: 'Night shift' }))
        .body as TestGroup;
    });

    const member = async (email: string): Promise<SessionCreated> => {
      const created = await call(apiKey, 'POST', '/session/create', {
        groupID: group.groupID,
        groupKey: group.key,
        userIdentifier: email,
        returnURL: 'https://app.example.com/done',
      });
      expect(created.status).toBe(200);
      return created.body as SessionCreated;
    };

    it('requests by route template, method and status; no identifier anywhere in the figures', async () => {
      const session = await member('ana@example.com');
      expect((await call(apiKey, 'GET', `/sessions/${session.sessionID}`)).status).toBe(200);
      const unknown = `ses_${'0'.repeat(24)}`;
      // An unknown session is 400 (the specification's answer).
      expect((await call(apiKey, 'GET', `/sessions/${unknown}`)).status).toBe(400);
      expect((await get(ports.api, '/no/such/path')).status).toBe(404);
      const figures = await Scrape.of(ports.apiOps);
      const requests = (labels: Record<string, string>) =>
        figures.value('http_server_request_duration_seconds_count', labels);
      expect(
        requests({ route: '/sessions/:sessionID', method: 'GET', status_code: '200' }),
      ).toBeGreaterThanOrEqual(1);
      expect(
        requests({ route: '/sessions/:sessionID', method: 'GET', status_code: '400' }),
      ).toBeGreaterThanOrEqual(1);
      expect(
        requests({ route: 'unmatched', method: 'GET', status_code: '404' }),
      ).toBeGreaterThanOrEqual(1);
      expect(requests({ route: '/session/create', method: 'POST', status_code: '200' })).toBe(1);
      // Only templates: no session id, user identifier, group id or path typed by a client.
      const routes = new Set(
        figures.samples
          .filter((sample) => sample.name === 'http_server_request_duration_seconds_count')
          .map((sample) => sample.labels.route),
      );
      for (const route of routes) expect(route).toMatch(/^(unmatched|\/[a-zA-Z/:_-]*)$/);
      for (const secret of [session.sessionID, session.userIdentifier, unknown, '/no/such']) {
        expect(figures.text).not.toContain(secret);
      }
    });

    it('a receiver that fails on purpose: failed attempts, then retries exhausted; the backlog ages meanwhile; one warn line each', async () => {
      for (let i = 0; i < 10; i++) receiver.replies.push({ status: 503 });
      const endpoint = await call(apiKey, 'POST', `/webhooks/${group.groupID}`, {
        url: `${receiver.url}/failing`,
        description: 'fails',
      });
      expect(endpoint.status).toBe(200);
      const webhookId = (endpoint.body as { id: string }).id;
      const before = await Scrape.of(ports.workerOps);
      const retriesBefore =
        before.value('checkin_webhook_delivery_attempts_total', { outcome: 'retry' }) ?? 0;
      await member('failing@example.com');

      // A first failed attempt: counted, and the delivery waits for its retry in PostgreSQL.
      let ageSeen = 0;
      await eventually(async () => {
        const figures = await Scrape.of(ports.workerOps);
        expect(
          figures.value('checkin_webhook_delivery_attempts_total', { outcome: 'retry' }),
        ).toBeGreaterThan(retriesBefore);
        expect(
          (figures.value('checkin_webhook_deliveries_pending', { state: 'due' }) ?? 0) +
            (figures.value('checkin_webhook_deliveries_pending', { state: 'waiting' }) ?? 0),
        ).toBe(1);
        ageSeen = figures.value('checkin_webhook_delivery_oldest_pending_age_seconds') ?? 0;
        expect(ageSeen).toBeGreaterThan(0);
      }, 10_000);
      // While it keeps failing, the oldest pending delivery gets older.
      await eventually(async () => {
        const figures = await Scrape.of(ports.workerOps);
        expect(
          figures.value('checkin_webhook_delivery_oldest_pending_age_seconds'),
        ).toBeGreaterThan(ageSeen + 1);
      }, 10_000);
      // The fourth attempt fails for good: the backlog is empty again.
      await eventually(async () => {
        const figures = await Scrape.of(ports.workerOps);
        expect(
          figures.value('checkin_webhook_delivery_attempts_total', { outcome: 'failed' }),
        ).toBe(1);
        expect(figures.value('checkin_webhook_deliveries_pending', { state: 'due' })).toBe(0);
        expect(figures.value('checkin_webhook_deliveries_pending', { state: 'waiting' })).toBe(0);
        expect(figures.value('checkin_webhook_delivery_oldest_pending_age_seconds')).toBe(0);
        expect(figures.value('checkin_webhook_delivery_oldest_due_age_seconds')).toBe(0);
      }, 20_000);
      const after = await Scrape.of(ports.workerOps);
      expect(after.value('checkin_webhook_delivery_attempts_total', { outcome: 'retry' })).toBe(
        retriesBefore + 3,
      );

      const warnings = logLines(worker.output()).filter((line) => line.endpointId === webhookId);
      expect(warnings.map((line) => [line.level, line.outcome, line.attempt])).toEqual([
        [40, 'retry', 1],
        [40, 'retry', 2],
        [40, 'retry', 3],
        [40, 'failed', 4],
      ]);
      for (const line of warnings) {
        expect(line.deliveryId).toMatch(/^[0-9a-f-]{36}$/);
        expect(line.msg).toContain(`to endpoint ${webhookId}`);
        expect(line.msg).toContain('failed: HTTP 503');
        expect(line.msg).not.toContain('/failing');
      }
      for (const line of warnings.slice(0, 3)) {
        expect(Date.parse(line.nextAttemptAt as string)).toBeGreaterThan(line.time as number);
        expect(line.msg).toContain(`next attempt at ${line.nextAttemptAt as string}`);
      }
      expect(warnings[3]).toMatchObject({ nextAttemptAt: null });
      expect(warnings[3].msg).toContain('no retry left');
      await call(apiKey, 'DELETE', `/webhooks/${group.groupID}/${webhookId}`);
    }, 60_000);

    it('a delivered event: counted with its commit-to-receipt latency; a delivery in flight is due meanwhile', async () => {
      receiver.replies.length = 0;
      // The receiver holds the delivery for 3 s: it stays pending and due while it is sent.
      receiver.replies.push({ status: 200, delayMs: 3_000 });
      const endpoint = await call(apiKey, 'POST', `/webhooks/${group.groupID}`, {
        url: `${receiver.url}/ok`,
        description: 'answers',
      });
      const webhookId = (endpoint.body as { id: string }).id;
      const before = await Scrape.of(ports.workerOps);
      const delivered =
        before.value('checkin_webhook_delivery_attempts_total', { outcome: 'delivered' }) ?? 0;
      const latencies = before.value('checkin_webhook_delivery_latency_seconds_count') ?? 0;
      await member('answered@example.com');
      await eventually(async () => {
        const figures = await Scrape.of(ports.workerOps);
        expect(figures.value('checkin_webhook_deliveries_pending', { state: 'due' })).toBe(1);
        expect(figures.value('checkin_webhook_delivery_oldest_due_age_seconds')).toBeGreaterThan(1);
      }, 10_000);
      await eventually(async () => {
        const figures = await Scrape.of(ports.workerOps);
        expect(
          figures.value('checkin_webhook_delivery_attempts_total', { outcome: 'delivered' }),
        ).toBe(delivered + 1);
        expect(figures.value('checkin_webhook_delivery_latency_seconds_count')).toBe(latencies + 1);
        expect(figures.value('checkin_webhook_delivery_latency_seconds_sum')).toBeGreaterThan(3);
        expect(figures.value('checkin_webhook_delivery_latency_seconds_bucket', { le: '1' })).toBe(
          before.value('checkin_webhook_delivery_latency_seconds_bucket', { le: '1' }),
        );
        expect(figures.value('checkin_webhook_deliveries_pending', { state: 'due' })).toBe(0);
        expect(figures.value('checkin_webhook_delivery_oldest_due_age_seconds')).toBe(0);
      }, 15_000);
      await call(apiKey, 'DELETE', `/webhooks/${group.groupID}/${webhookId}`);
    }, 40_000);

    it('mails: sent, retried after a temporary failure, failed for good; one warn line per failure', async () => {
      const ana = await member('mail@example.com');
      const before = await Scrape.of(ports.workerOps);
      const count = (figures: Scrape, name: string) => figures.value(name) ?? 0;
      smtp.failures.push({ code: 451, message: 'try again later' });
      const asked = await call(
        apiKey,
        'POST',
        `/interact/participants/${ana.userIdentifier}/email`,
        {
          emailType: 'checkinReminder',
        },
      );
      expect(asked).toMatchObject({ status: 200, body: { message: 'success' } });
      await smtp.waitFor(1);
      await eventually(async () => {
        const figures = await Scrape.of(ports.workerOps);
        expect(count(figures, 'checkin_email_retries_total')).toBe(
          count(before, 'checkin_email_retries_total') + 1,
        );
        expect(count(figures, 'checkin_emails_sent_total')).toBe(
          count(before, 'checkin_emails_sent_total') + 1,
        );
        expect(figures.value('checkin_emails_pending')).toBe(0);
        expect(figures.value('checkin_email_oldest_pending_age_seconds')).toBe(0);
      }, 15_000);

      smtp.failures.push({ code: 550, message: 'no such mailbox' });
      await call(apiKey, 'POST', `/interact/participants/${ana.userIdentifier}/email`, {
        emailType: 'privacyRequest',
      });
      await eventually(async () => {
        const figures = await Scrape.of(ports.workerOps);
        expect(count(figures, 'checkin_emails_failed_total')).toBe(
          count(before, 'checkin_emails_failed_total') + 1,
        );
      }, 15_000);

      const warnings = logLines(worker.output()).filter(
        (line) => line.context === 'EmailProcessor',
      );
      expect(warnings.map((line) => [line.level, line.reason, line.outcome, line.attempt])).toEqual(
        [
          [40, 'smtp 451', 'retry', 1],
          [40, 'smtp 550', 'failed', 1],
        ],
      );
      expect(warnings[0].messageId).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(warnings[0].nextAttemptAt as string)).toBeGreaterThan(
        warnings[0].time as number,
      );
      expect(warnings[1]).toMatchObject({ nextAttemptAt: null });
      expect(worker.output()).not.toContain('mail@example.com');
    }, 40_000);

    it('a result for a past month: the release lag shows until a read releases it; the floor withholds the answer', async () => {
      const session = await member('late@example.com');
      // The first day of the month before last: its window (that month) ended at least 28 days
      // ago, and was due METRICS_RELEASE_GRACE_HOURS (48) later, at least 26 days ago.
      const now = new Date();
      const completedAt = new Date(
        Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1, 9),
      ).toISOString();
      const posted = await request(
        `http://127.0.0.1:${ports.api}`,
        'POST',
        `/internal/sessions/${session.sessionID}/result`,
        { body: engineResult({ completedAt }), headers: engineHeaders() },
      );
      expect(posted.status).toBe(200);
      // Its window, made as the result arrived, is due and not released: behind since it was due
      // (the workers' sweep runs every five minutes; a read releases what it needs).
      const lagging = await Scrape.of(ports.workerOps);
      expect(lagging.value('checkin_metric_release_lag_seconds')).toBeGreaterThan(20 * 86_400);
      // The first read releases the window, for both series; one participant is under the floors
      // (5 and 10), so both answers are withheld.
      const withheld = (figures: Scrape, metric: string) =>
        figures.value('checkin_group_metric_values_withheld_total', { metric }) ?? 0;
      const before = await Scrape.of(ports.apiOps);
      for (const metric of ['mhci', 'wordcloud']) {
        const answer = await call(apiKey, 'GET', `/metrics/groups/${group.groupID}/${metric}`);
        expect(answer).toMatchObject({ status: 200, body: { all: null } });
      }
      const after = await Scrape.of(ports.apiOps);
      for (const metric of ['mhci', 'wordcloud']) {
        expect(withheld(after, metric)).toBe(withheld(before, metric) + 1);
      }
      expect((await Scrape.of(ports.workerOps)).value('checkin_metric_release_lag_seconds')).toBe(
        0,
      );
    });

    it('rate-limit refusals, by limit', async () => {
      const busy = (await createEnterpriseWithCli(env, 'Busy')).apiKey;
      const before = await Scrape.of(ports.apiOps);
      const refusals = (figures: Scrape) =>
        figures.value('checkin_rate_limit_refusals_total', { limit: 'api_key' }) ?? 0;
      let refused = 0;
      for (let i = 0; i < 45; i++) {
        if ((await call(busy, 'GET', '/groups')).status === 429) refused += 1;
      }
      expect(refused).toBeGreaterThanOrEqual(5);
      expect(refusals(await Scrape.of(ports.apiOps))).toBe(refusals(before) + refused);
    });
  });

  describe('start-up and shutdown', () => {
    it('start-up names PostgreSQL and Redis by host, port and database, never with credentials', async () => {
      const redis = new URL(TEST_REDIS_URL);
      const redisDatabase = redis.pathname.slice(1) || '0';
      redis.password = 'redis-S3cret';
      for (const output of [api.output(), worker.output()]) {
        const using = logLines(output).find((line) => String(line.msg).startsWith('Using '));
        expect(using?.msg).toBe(
          `Using PostgreSQL at 127.0.0.1:5432, database ${databaseName}; Redis at 127.0.0.1:6379, database ${redisDatabase}`,
        );
      }
      expect(api.output()).toContain(`"msg":"Operations port on 127.0.0.1:${ports.apiOps}:`);
      expect(worker.output()).toContain(`"msg":"Operations port on 127.0.0.1:${ports.workerOps}:`);
      // Credentials in the URLs (trust authentication ignores the password; a Redis without one
      // ignores it too) never reach the log.
      const withCredentials = {
        ...env,
        DATABASE_URL: databaseUrl(databaseName).replace('postgres@', 'postgres:pg-S3cret@'),
        REDIS_URL: redis.toString(),
      };
      const port = await freePort();
      const started = await startService({ ...withCredentials, OPS_PORT: '0' }, port);
      try {
        expect(started.output()).toContain(
          `Using PostgreSQL at 127.0.0.1:5432, database ${databaseName}; Redis at 127.0.0.1:6379, database ${redisDatabase}`,
        );
        expect(started.output()).not.toMatch(/S3cret/);
      } finally {
        await started.stop();
      }
    });

    it('an operations port already in use stops either process with one line, exit 1', async () => {
      const taken: Server = createServer();
      const port = await freePort();
      await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
      try {
        for (const entry of ['main', 'worker'] as const) {
          const result = await runToExit(entry, [], { ...env, OPS_PORT: String(port) });
          expect(result.code).toBe(1);
          expect(result.stderr).toBe(
            `OPS_PORT ${port} is already in use on 127.0.0.1: another process listens there. ` +
              'Give each process its own OPS_PORT (OPS_PORT=0 turns the operations port off).\n',
          );
          expect(result.stdout).toBe('');
        }
      } finally {
        await new Promise((resolve) => taken.close(resolve));
      }
    });

    it('SIGTERM: the API drains (health and readiness 503, no error line), says "Stopped" and exits 0', async () => {
      const port = await freePort();
      const opsPort = await freePort();
      // A drain long enough that a machine loaded by the rest of the suite still sees it (the
      // first 503 comes within milliseconds of the signal).
      const draining = await startService(
        { ...env, OPS_PORT: String(opsPort), SHUTDOWN_DRAIN_MS: '3000' },
        port,
      );
      draining.child.kill('SIGTERM');
      await eventually(async () => {
        expect(await get(port, '/health')).toMatchObject({
          status: 503,
          body: { error: 'Service unavailable' },
        });
      }, 2_500);
      expect(await get(opsPort, '/readyz')).toMatchObject({
        status: 503,
        body: {
          status: 'not ready',
          checks: { postgresql: 'ok', redis: 'ok', shutdown: 'draining' },
        },
      });
      expect(await draining.stop()).toBe(true);
      expect(draining.child.exitCode).toBe(0);
      const lines = logLines(draining.output());
      expect(lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
      const answered = lines.filter(
        (line) => (line.res as { statusCode?: number } | undefined)?.statusCode === 503,
      );
      expect(answered.length).toBeGreaterThanOrEqual(1);
      for (const line of answered) {
        expect(line).toMatchObject({ level: 30, msg: 'request completed' });
        expect(line).not.toHaveProperty('err');
      }
      expect(lines.map((line) => line.msg).slice(-1)).toEqual(['Stopped']);
      expect(lines.map((line) => line.msg)).toContain(
        'SIGTERM: draining for 3000 ms, then closing',
      );
    }, 30_000);

    it('SIGTERM: the worker stops taking work, says "Stopped" and exits 0', async () => {
      const stopping = await startWorkerProcess({ ...env, OPS_PORT: String(await freePort()) });
      expect(await stopping.stop()).toBe(true);
      expect(stopping.child.exitCode).toBe(0);
      const messages = logLines(stopping.output()).map((line) => line.msg);
      expect(messages).toContain('SIGTERM: stopping; deliveries and mails in flight finish first');
      expect(messages.slice(-1)).toEqual(['Stopped']);
      expect(logLines(stopping.output()).filter((line) => (line.level as number) >= 50)).toEqual(
        [],
      );
    });
  });

  describe('/readyz follows the dependencies (through a proxy this test cuts)', () => {
    let postgres: TcpProxy;
    let redis: TcpProxy;
    let service: RunningProcess;
    let opsPort: number;

    beforeAll(async () => {
      postgres = await new TcpProxy('127.0.0.1', 5432).start();
      redis = await new TcpProxy('127.0.0.1', 6379).start();
      opsPort = await freePort();
      service = await startService(
        {
          ...env,
          RUN_WORKERS: 'true',
          OPS_PORT: String(opsPort),
          DATABASE_URL: databaseUrl(databaseName).replace(':5432/', `:${postgres.port}/`),
          REDIS_URL: `redis://127.0.0.1:${redis.port}`,
        },
        await freePort(),
      );
    }, 30_000);
    afterAll(async () => {
      await kill(service.child);
      await postgres.cut();
      await redis.cut();
    });

    const readiness = () => get(opsPort, '/readyz');

    it('Redis gone: 503 naming redis, and livez still 200; back: 200', async () => {
      // Ready once its connections through the proxies are up (/health answers before that).
      await eventually(async () => {
        expect(await readiness()).toMatchObject({ status: 200, body: READY });
      }, 10_000);
      await redis.cut();
      await eventually(async () => {
        expect(await readiness()).toMatchObject({
          status: 503,
          body: {
            status: 'not ready',
            checks: { postgresql: 'ok', redis: 'unavailable', shutdown: 'running' },
          },
        });
      }, 10_000);
      expect(await get(opsPort, '/livez')).toMatchObject({ status: 200 });
      const figures = await Scrape.of(opsPort);
      expect(figures.value('checkin_ready')).toBe(0);
      expect(figures.value('checkin_dependency_up', { dependency: 'redis' })).toBe(0);
      await redis.restore();
      await eventually(async () => {
        expect(await readiness()).toMatchObject({ status: 200, body: READY });
      }, 15_000);
    }, 40_000);

    it('PostgreSQL gone: 503 naming postgresql, and the scrape still answers; back: 200', async () => {
      await postgres.cut();
      await eventually(async () => {
        expect(await readiness()).toMatchObject({
          status: 503,
          body: {
            status: 'not ready',
            checks: { postgresql: 'unavailable', redis: 'ok', shutdown: 'running' },
          },
        });
      }, 10_000);
      const figures = await Scrape.of(opsPort);
      expect(figures.value('checkin_dependency_up', { dependency: 'postgresql' })).toBe(0);
      // Figures read from PostgreSQL have no value while it is away; the rest are there.
      expect(figures.value('checkin_emails_pending')).toBeNaN();
      expect(figures.value('checkin_db_pool_max_connections')).toBe(10);
      await postgres.restore();
      await eventually(async () => {
        expect(await readiness()).toMatchObject({ status: 200, body: READY });
      }, 15_000);
    }, 40_000);
  });
});
