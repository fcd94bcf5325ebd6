/**
 * The backup-and-restore drill of docs/operations.md ("Backup and restore"), end to end: a
 * database filled through the API (sessions at level 5 with transcripts and features, webhook
 * deliveries and mails still pending: the API runs without workers), dumped with `pg_dump -Fc`
 * while it serves, dropped with its Redis queues, created again and restored with `pg_restore`.
 * Started with the same keys, the service answers every read byte for byte as before and a
 * worker then sends the pending deliveries (each webhook-id once, none missing, verified with
 * `standardwebhooks`) and mails. Started with another DATA_ENCRYPTION_KEY, it serves, names in
 * its log each column and key id it cannot open with their counts, and reads what it cannot open
 * as removed instead of failing (docs/data-at-rest.md, "Data the keys cannot open").
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Pool } from 'pg';
import { SEALED_COLUMNS } from '../src/data-at-rest/reencryption.repository';
import { databaseUrl, dropDatabase, withAdmin } from './support/databases';
import { finalDeliveries } from './support/deliveries';
import { conversation, ENGINE_TOKEN, engineHeaders, engineResult } from './support/engine';
import { request } from './support/http';
import { shareAt } from './support/levels';
import {
  freePort,
  runCommand,
  RunningProcess,
  serviceEnv,
  startService,
  startWorkerProcess,
} from './support/processes';
import { deleteRedisKeys, runDirectory, TEST_REDIS_URL } from './support/run-environment';
import {
  SessionCreated,
  startTestApp,
  TestApp,
  TestEnterprise,
  TestGroup,
} from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

const KEYS = {
  DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  CHECKIN_TOKEN_SECRET: randomBytes(32).toString('base64url'),
};
const OTHER_DATA_KEY = randomBytes(32).toString('base64');

/** Words no other text of the test holds: found in a log, a plaintext leaked. */
const SAID = ['wombatsecret', 'otterworry', 'lynxrelief'];
const EMAILS = ['ana@example.com', 'ben@example.com', 'cleo@example.com'];

/** Commands spawned through the test's process helpers: pg_dump and pg_restore. */
const pgTool = async (tool: 'pg_dump' | 'pg_restore', args: string[]): Promise<void> => {
  const run = await runCommand(tool, args, {
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  if (run.code !== 0) throw new Error(`${tool} exited ${run.code}: ${run.stderr}`);
};

describe('Backup and restore drill', () => {
  let t: TestApp | null = null;
  let receiver: WebhookReceiver;
  let enterprise: TestEnterprise;
  let group: TestGroup;
  let secret: string;
  let webhookId: string;
  let completed: SessionCreated[];
  let pending: SessionCreated;
  let dumpFile: string;
  let databaseName: string;
  const restoredNames: string[] = [];
  const queuePrefixes: string[] = [];
  const mailDir = join(runDirectory(), `backup-restore-mail-${process.pid}`);
  let service: RunningProcess | null = null;
  let worker: RunningProcess | null = null;

  /** Every read the drill compares, as the enterprise makes them. */
  let reads: string[];
  let before: Map<string, { status: number; text: string }>;

  const restore = async (name: string): Promise<Pool> => {
    await withAdmin((client) => client.query(`CREATE DATABASE "${name}"`));
    restoredNames.push(name);
    await pgTool('pg_restore', [
      '--no-owner',
      '--exit-on-error',
      '--single-transaction',
      '-d',
      databaseUrl(name),
      dumpFile,
    ]);
    return new Pool({ connectionString: databaseUrl(name), max: 2 });
  };
  /** The service on `name`, with queues of a prefix no process used: an empty Redis. */
  const envFor = (name: string, keys: Record<string, string>): Record<string, string> => {
    const prefix = `${name}_q${queuePrefixes.length}`;
    queuePrefixes.push(prefix);
    return serviceEnv(name, {
      QUEUE_PREFIX: prefix,
      ENGINE_TOKEN,
      PUBLIC_BASE_URL: 'http://127.0.0.1',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_SWEEP_INTERVAL_MS: '200',
      MAIL_DIR: mailDir,
      LOG_LEVEL: 'info',
      ...keys,
    });
  };
  const startApi = async (env: Record<string, string>): Promise<string> => {
    const port = await freePort();
    service = await startService({ ...env, RUN_WORKERS: 'false' }, port);
    return `http://127.0.0.1:${port}`;
  };
  const stopAll = async (): Promise<void> => {
    await service?.stop();
    await worker?.stop();
    service = null;
    worker = null;
  };
  const get = (baseUrl: string, path: string) =>
    request(baseUrl, 'GET', path, { apiKey: enterprise.apiKey });

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await stopAll();
    await t?.close();
    await receiver.stop();
    for (const name of restoredNames) await dropDatabase(name);
    for (const prefix of queuePrefixes) await deleteRedisKeys(TEST_REDIS_URL, `${prefix}:*`);
  });

  it('fills a database through the API, with deliveries and mails still pending, and dumps it while it serves', async () => {
    t = await startTestApp({ ENGINE_TOKEN, RUN_WORKERS: 'false', ...KEYS });
    databaseName = t.databaseName;
    enterprise = await t.newEnterprise('Drill Co');
    group = await t.newGroup(enterprise, 'Night shift');
    const endpoint = await t.request('POST', `/webhooks/${group.groupID}`, {
      apiKey: enterprise.apiKey,
      body: { url: `${receiver.url}/drill`, description: 'Drill receiver' },
    });
    expect(endpoint.status).toBe(200);
    ({ id: webhookId, secret } = endpoint.body as { id: string; secret: string });

    completed = [];
    for (const [index, email] of EMAILS.entries()) {
      completed.push(
        await t.completedSession(enterprise, group, {
          identifier: email,
          result: engineResult({
            mhci: 61 + index,
            transcript: conversation('How was your week?', `Mostly the ${SAID[index]} again`),
            features: { pitch: 0.25 * (index + 1), pace: 1.5 + index },
          }),
        }),
      );
    }
    await shareAt(t.db, 'everyone', 5);
    // Ana's next check-in, not done yet: its link is in her hands.
    const next = await t.createSession(enterprise, group, completed[0].userIdentifier);
    expect(next.status).toBe(200);
    pending = next.body as SessionCreated;
    const mails = await t.request('POST', `/interact/groups/${group.groupID}/email`, {
      apiKey: enterprise.apiKey,
      body: { emailType: 'checkinReminder' },
    });
    expect(mails.status).toBe(200);

    const people = completed.map((session) => session.userIdentifier);
    reads = [
      '/groups',
      `/groups/${group.groupID}/participants`,
      ...[...completed, pending].map((session) => `/sessions/${session.sessionID}`),
      ...people.flatMap((id) => [
        `/participants/${id}`,
        `/participants/${id}/sessions`,
        `/participants/${id}/consents`,
        `/metrics/participants/${id}/mhci`,
        `/metrics/participants/${id}/wordcloud`,
      ]),
      `/webhooks/${group.groupID}`,
      `/webhooks/${group.groupID}/${webhookId}/deliveries`,
    ];
    before = new Map();
    for (const path of reads) {
      const answer = await t.request('GET', path, { apiKey: enterprise.apiKey });
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      before.set(path, { status: answer.status, text: answer.text });
    }
    const session = JSON.parse(before.get(`/sessions/${completed[0].sessionID}`)!.text) as {
      transcript: unknown;
      features: unknown;
    };
    expect(session.transcript).toEqual(
      conversation('How was your week?', `Mostly the ${SAID[0]} again`),
    );
    expect(session.features).toEqual({ pace: 1.5, pitch: 0.25 });
    const deliveries = JSON.parse(before.get(reads[reads.length - 1])!.text) as {
      status: string;
    }[];
    // One user.created per participant and one user.session.result per completed session.
    expect(deliveries.map((delivery) => delivery.status)).toEqual(Array(6).fill('pending'));
    expect(receiver.received).toEqual([]);

    dumpFile = join(runDirectory(), `${databaseName}.dump`);
    await pgTool('pg_dump', ['-Fc', '--no-owner', '-d', databaseUrl(databaseName), '-f', dumpFile]);
    // The database and its queues go (t.close drops both): only the dump is left.
    await t.close();
    t = null;
  }, 60_000);

  it('restored with the same keys, into an empty Redis: every read answers byte for byte as before', async () => {
    const db = await restore(databaseName);
    try {
      const baseUrl = await startApi(envFor(databaseName, KEYS));
      for (const path of reads) {
        const answer = await get(baseUrl, path);
        expect({ path, status: answer.status, text: answer.text }).toEqual({
          path,
          ...before.get(path),
        });
      }
      // Links handed out before the dump still open their check-in.
      expect((await request(baseUrl, 'GET', new URL(pending.redirectUrl).pathname)).status).toBe(
        200,
      );
      // The keys open everything: the start-up check says so and names nothing.
      await eventually(
        () => Promise.resolve(expect(service!.output()).toContain('Data keys checked: ')),
        15_000,
      );
      expect(service!.output()).toMatch(/Data keys checked: \d+ sealed values; every key id/);
      expect(service!.output()).not.toContain('cannot open');
      expect(receiver.received).toEqual([]);
      const queued = await db.query(`SELECT 1 FROM email_messages WHERE status = 'queued'`);
      expect(queued.rowCount).toBe(EMAILS.length);
    } finally {
      await db.end();
    }
  }, 60_000);

  it('then a worker sends each pending delivery exactly once, signed, and the pending mails', async () => {
    await stopAll();
    const env = envFor(databaseName, KEYS);
    worker = await startWorkerProcess(env);
    const db = new Pool({ connectionString: databaseUrl(databaseName), max: 1 });
    try {
      const final = await finalDeliveries(db, [webhookId], 20_000);
      expect(final.map((row) => row.status)).toEqual(Array(6).fill('delivered'));
      // Every delivery is final, so nothing more will come: what arrived is all that will.
      const ids = receiver.received.map((received) => String(received.headers['webhook-id']));
      expect(ids.sort()).toEqual(final.map((row) => row.eventId).sort());
      const types = receiver.received.map(
        (received) => (WebhookReceiver.verify(received, secret) as { type: string }).type,
      );
      expect(types.sort()).toEqual([
        ...Array<string>(3).fill('user.created'),
        ...Array<string>(3).fill('user.session.result'),
      ]);
      const created = receiver.received
        .map((received) => JSON.parse(received.body) as { type: string; data: { object: object } })
        .filter((event) => event.type === 'user.created')
        .map((event) => (event.data.object as { email: string }).email);
      expect(created.sort()).toEqual(EMAILS);

      await eventually(async () => {
        const { rows } = await db.query<{ id: string; status: string }>(
          'SELECT id, status FROM email_messages ORDER BY id',
        );
        expect(rows.map((row) => row.status)).toEqual(Array(EMAILS.length).fill('sent'));
      }, 20_000);
      const { rows } = await db.query<{ id: string }>('SELECT id FROM email_messages');
      const recipients = await Promise.all(
        rows.map(async ({ id }) => {
          const eml = await readFile(join(mailDir, `${id}.eml`), 'utf8');
          return /^To: (.+)$/m.exec(eml)?.[1].trim();
        }),
      );
      expect(recipients.sort()).toEqual(EMAILS);
    } finally {
      await db.end();
    }
  }, 60_000);

  it('restored with another DATA_ENCRYPTION_KEY: it serves, names what it cannot open, and reads it as removed', async () => {
    await stopAll();
    const name = `${databaseName}_k`;
    const db = await restore(name);
    try {
      const baseUrl = await startApi(
        envFor(name, { ...KEYS, DATA_ENCRYPTION_KEY: OTHER_DATA_KEY }),
      );
      // Every sealed column holding values is named, with its key id and count.
      const expected: string[] = [];
      for (const { table, column } of SEALED_COLUMNS) {
        const { rows } = await db.query<{ count: number }>(
          `SELECT count(*)::int AS count FROM ${table} WHERE ${column} IS NOT NULL`,
        );
        if (rows[0].count > 0) {
          expected.push(
            `${table}.${column}, ${rows[0].count} ${rows[0].count === 1 ? 'value' : 'values'} under data key k0`,
          );
        }
      }
      expect(expected).toEqual(
        expect.arrayContaining([
          'sessions.transcript, 3 values under data key k0',
          'sessions.features, 3 values under data key k0',
          'participants.email_ciphertext, 3 values under data key k0',
          'webhook_endpoints.secret_ciphertext, 1 value under data key k0',
        ]),
      );
      await eventually(
        () => Promise.resolve(expect(service!.output()).toContain('Data keys checked: ')),
        15_000,
      );
      const output = service!.output();
      const named = [...output.matchAll(/Sealed data these keys cannot open: ([^(]+) \(/g)].map(
        (found) => found[1],
      );
      expect(named.sort()).toEqual(expected.sort());
      expect(output).toMatch(/the configured data key k0 does not open it/);
      for (const text of [...SAID, ...EMAILS, KEYS.DATA_ENCRYPTION_KEY, OTHER_DATA_KEY, secret]) {
        expect({ text, logged: output.includes(text) }).toEqual({ text, logged: false });
      }

      // Reads do not fail: the transcript and features read as removed, the scores stay.
      const restored = await get(baseUrl, `/sessions/${completed[0].sessionID}`);
      expect(restored.status).toBe(200);
      const original = JSON.parse(before.get(`/sessions/${completed[0].sessionID}`)!.text) as {
        transcript: unknown;
      };
      expect(restored.body).toEqual({ ...original, transcript: [], features: {} });
      for (const path of reads) {
        expect({ path, status: (await get(baseUrl, path)).status }).toEqual({ path, status: 200 });
      }
      await eventually(() =>
        Promise.resolve(
          expect(service!.output()).toMatch(
            /sessions\.transcript: a value under data key k0 cannot be opened/,
          ),
        ),
      );
      // The engine's result for Ana's pending session is still taken (her own percentiles
      // compare with what can be opened), and its link, signed by the unchanged link secret, opens.
      expect((await request(baseUrl, 'GET', new URL(pending.redirectUrl).pathname)).status).toBe(
        200,
      );
      const ingested = await request(
        baseUrl,
        'POST',
        `/internal/sessions/${pending.sessionID}/result`,
        {
          body: engineResult({ transcript: conversation('And now?', 'Better') }),
          headers: engineHeaders(),
        },
      );
      expect(ingested.status).toBe(200);
      // The look-up hash is keyed by DATA_ENCRYPTION_KEY too: a known email is not found, and a
      // session for it makes a new participant.
      const again = await request(baseUrl, 'POST', '/session/create', {
        apiKey: enterprise.apiKey,
        body: {
          groupID: group.groupID,
          groupKey: group.key,
          userIdentifier: EMAILS[1],
          returnURL: 'https://app.example.com/done',
        },
      });
      expect(again.status).toBe(200);
      expect((again.body as SessionCreated).userIdentifier).not.toBe(completed[1].userIdentifier);
    } finally {
      await db.end();
    }
  }, 60_000);
});
