/**
 * Data at rest (docs/data-at-rest.md), end to end with the built service as real processes on one
 * database: transcripts never stored in clear, data keys and link secrets rotated by restarting
 * with a longer list (old data and links still work, new ones use the newest key), a removed key
 * retiring its links (the invalid-link page, never a 5xx) and its data (read as removed, never a
 * 5xx), and `data:reencrypt` moving everything to the newest key so that an older one can go.
 */
import { handedOff, shareAt } from './support/levels';
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { createTestDatabase, databaseUrl, dropDatabase } from './support/databases';
import { conversation, engineHeaders, ENGINE_TOKEN, engineResult } from './support/engine';
import { HttpResult, request, RequestOptions } from './support/http';
import {
  createEnterpriseWithCli,
  freePort,
  RunningProcess,
  runToExit,
  startService,
} from './support/processes';
import type { SessionCreated, TestEnterprise, TestGroup } from './support/test-app';
import { eventually } from './support/webhook-receiver';

const key = (): string => randomBytes(32).toString('base64');
const secret = (): string => randomBytes(24).toString('base64url');
const K1 = key();
const K2 = key();
const S1 = secret();
const S2 = secret();

/** A word no other text of the test contains: found anywhere in a row, it leaked. */
const SECRET_WORD = 'quokkaconfession';

const result = (line: string) =>
  engineResult({
    mhci: 64,
    subscores: { vision: 60, audio: 61, transcript: 62, assessment: 63 },
    transcript: conversation('How was your week?', line),
    features: { pitch: 0.5 },
  });

describe('Data at rest (real processes, one database)', () => {
  let databaseName: string;
  let db: Pool;
  let env: Record<string, string>;
  let enterprise: TestEnterprise;
  let service: RunningProcess | null = null;
  let baseUrl = '';

  const start = async (keys: Record<string, string>): Promise<void> => {
    await service?.stop();
    const port = await freePort();
    service = await startService({ ...env, ...keys }, port);
    baseUrl = `http://127.0.0.1:${port}`;
  };
  const call = (method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> =>
    request(baseUrl, method, path, { apiKey: enterprise.apiKey, ...options });
  const ingest = (sessionId: string, line: string) =>
    request(baseUrl, 'POST', `/internal/sessions/${sessionId}/result`, {
      body: result(line),
      headers: engineHeaders(),
    });
  const checkinPath = (session: SessionCreated): string => new URL(session.redirectUrl).pathname;
  const storedTranscript = async (sessionId: string): Promise<string> =>
    (
      await db.query<{ transcript: string }>(
        'SELECT transcript FROM sessions WHERE session_id = $1',
        [sessionId],
      )
    ).rows[0].transcript;

  beforeAll(async () => {
    databaseName = await createTestDatabase();
    db = new Pool({ connectionString: databaseUrl(databaseName), max: 2 });
    env = {
      DATABASE_URL: databaseUrl(databaseName),
      QUEUE_PREFIX: databaseName,
      ENGINE_TOKEN,
      DATA_ENCRYPTION_KEY: key(),
      CHECKIN_TOKEN_SECRET: secret() + secret(),
      PUBLIC_BASE_URL: 'http://127.0.0.1',
    };
    enterprise = await createEnterpriseWithCli(env, 'Rotation Co');
  });
  afterAll(async () => {
    await service?.stop();
    await db.end();
    await dropDatabase(databaseName);
  });

  let group: TestGroup;
  let first: SessionCreated;

  it('with key k1: the transcript is stored encrypted under k1, nowhere in clear, and read back at level 4', async () => {
    await start({ DATA_ENCRYPTION_KEYS: `k1:${K1}`, CHECKIN_TOKEN_SECRETS: `k1:${S1}` });
    group = (await call('POST', '/groups', { body: { groupName: 'Night shift' } }))
      .body as TestGroup;
    const created = await call('POST', '/session/create', {
      body: {
        groupID: group.groupID,
        groupKey: group.key,
        userIdentifier: 'ana@example.com',
        returnURL: 'https://app.example.com/done',
      },
    });
    first = created.body as SessionCreated;
    expect(checkinPath(first)).toMatch(/^\/checkin\/k1\./);
    expect((await ingest(first.sessionID, `I told nobody about the ${SECRET_WORD}`)).status).toBe(
      200,
    );

    const rows = await db.query<{ row: string }>('SELECT s::text AS row FROM sessions s');
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0].row).not.toContain(SECRET_WORD);
    expect(rows.rows[0].row).not.toContain('How was your week');
    expect(await storedTranscript(first.sessionID)).toMatch(/^v2\.k1\.[A-Za-z0-9_-]+$/);
    // Words are still counted at ingestion, from the plaintext, and stored encrypted like the
    // transcript, as are the features: no table holds the word in clear.
    const detail = await db.query<{ words: string; features: string; counted: number }>(
      'SELECT word_counts AS words, features, counted_words AS counted FROM sessions',
    );
    expect(detail.rows[0].words).toMatch(/^v2\.k1\./);
    expect(detail.rows[0].features).toMatch(/^v2\.k1\./);
    expect(detail.rows[0].counted).toBeGreaterThan(0);
    const tables = await db.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    for (const { name } of tables.rows) {
      const found = await db.query(`SELECT 1 FROM "${name}" x WHERE strpos(x::text, $1) > 0`, [
        SECRET_WORD,
      ]);
      expect({ table: name, rows: found.rowCount }).toEqual({ table: name, rows: 0 });
    }

    await shareAt(db, 'everyone', 4);
    const read = await call('GET', `/sessions/${first.sessionID}`);
    expect(read.status).toBe(200);
    expect((read.body as { transcript: unknown }).transcript).toEqual(
      result(`I told nobody about the ${SECRET_WORD}`).transcript,
    );
  });

  let second: SessionCreated;

  it('restarted with k2,k1: the k1 session and link still work; new ones use k2', async () => {
    await start({
      DATA_ENCRYPTION_KEYS: `k2:${K2},k1:${K1}`,
      CHECKIN_TOKEN_SECRETS: `k2:${S2},k1:${S1}`,
    });
    const old = await call('GET', `/sessions/${first.sessionID}`);
    expect(old.status).toBe(200);
    expect((old.body as { transcript: unknown }).transcript).toEqual(
      result(`I told nobody about the ${SECRET_WORD}`).transcript,
    );
    expect((await request(baseUrl, 'GET', checkinPath(first))).status).toBe(200);

    const created = await call('POST', '/session/create', {
      body: {
        groupID: group.groupID,
        groupKey: group.key,
        userIdentifier: first.userIdentifier,
        returnURL: 'https://app.example.com/done',
      },
    });
    second = created.body as SessionCreated;
    expect(checkinPath(second)).toMatch(/^\/checkin\/k2\./);
    await handedOff(db, second.sessionID);
    expect((await ingest(second.sessionID, 'A calmer week')).status).toBe(200);
    expect(await storedTranscript(second.sessionID)).toMatch(/^v2\.k2\./);
    expect(await storedTranscript(first.sessionID)).toMatch(/^v2\.k1\./);
    expect((await call('GET', `/sessions/${second.sessionID}`)).body).toMatchObject({
      transcript: result('A calmer week').transcript,
    });
  });

  it('link secret k1 removed: its links show the invalid-link page (404, never a 5xx); k2 links work', async () => {
    await start({ DATA_ENCRYPTION_KEYS: `k2:${K2},k1:${K1}`, CHECKIN_TOKEN_SECRETS: `k2:${S2}` });
    const retired = await request(baseUrl, 'GET', checkinPath(first));
    expect(retired.status).toBe(404);
    expect(retired.headers.get('content-type')).toMatch(/^text\/html/);
    const valid = await request(baseUrl, 'GET', checkinPath(second));
    expect(valid.status).toBe(200);
    // A retired link cannot change anything either.
    const post = await request(baseUrl, 'POST', `${checkinPath(first)}/privacy`, {
      rawBody: 'privacyLevel=5',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(post.status).toBe(404);
    expect((await db.query('SELECT privacy_level FROM memberships')).rows).toEqual([
      { privacy_level: 4 },
    ]);
  });

  it('data key k1 removed: its transcript reads as removed (`[]`, and a warn line names the column and key id); k2 data reads', async () => {
    await start({ DATA_ENCRYPTION_KEYS: `k2:${K2}`, CHECKIN_TOKEN_SECRETS: `k2:${S2}` });
    const retired = await call('GET', `/sessions/${first.sessionID}`);
    expect(retired.status).toBe(200);
    expect(retired.body).toMatchObject({ mhci: 64, transcript: [] });
    await eventually(() =>
      Promise.resolve(
        expect(service!.output()).toMatch(
          /sessions\.transcript: a value under data key k1 cannot be opened: the data key k1 is not configured/,
        ),
      ),
    );
    expect((await call('GET', `/sessions/${second.sessionID}`)).status).toBe(200);
    // Below level 4 the transcript is not opened, so the session still reads.
    await shareAt(db, 'everyone', 3);
    expect((await call('GET', `/sessions/${first.sessionID}`)).status).toBe(200);
    await shareAt(db, 'everyone', 4);
  });

  it('data:reencrypt moves everything to k2; then k1 can be removed and every session reads', async () => {
    await service?.stop();
    service = null;
    const keys = { DATA_ENCRYPTION_KEYS: `k2:${K2},k1:${K1}`, CHECKIN_TOKEN_SECRETS: `k2:${S2}` };
    const run = await runToExit('cli', ['data:reencrypt', '--json'], { ...env, ...keys });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { keyId: string; keyIds: Record<string, object> };
    expect(report.keyId).toBe('k2');
    expect(report.keyIds['sessions.transcript']).toEqual({ k2: 2 });
    expect(report.keyIds['participants.email_ciphertext']).toEqual({ k2: 1 });
    expect(await storedTranscript(first.sessionID)).toMatch(/^v2\.k2\./);

    await start({ DATA_ENCRYPTION_KEYS: `k2:${K2}`, CHECKIN_TOKEN_SECRETS: `k2:${S2}` });
    const read = await call('GET', `/sessions/${first.sessionID}`);
    expect(read.status).toBe(200);
    expect((read.body as { transcript: unknown }).transcript).toEqual(
      result(`I told nobody about the ${SECRET_WORD}`).transcript,
    );
  });
});
