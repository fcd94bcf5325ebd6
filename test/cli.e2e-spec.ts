import { SIMULATE_REFUSED_IN_PRODUCTION } from '../src/cli/demo.commands';
import { CommonErrors } from '../src/common/errors/common.errors';
import { match } from './support/matchers';
import { cli as runCli } from './support/cli';
import { runToExit } from './support/processes';
import { startTestApp, TestApp, TestEnterprise } from './support/test-app';

interface IssuedKey {
  enterpriseId: string;
  prefix: string;
  apiKey: string;
}

/** What `--json` printed, read as the shape the command prints. */
const parsed = <T>(stdout: string): T => JSON.parse(stdout) as T;

/**
 * The operator CLI against a test database: run in this process (test/support/cli.ts), and as the
 * built process (`node dist/cli.js …`) where the process is what is tested.
 */
describe('Operator CLI', () => {
  let t: TestApp;
  const cli = (...args: string[]) => runCli(args, { DATABASE_URL: t.config.database.url });

  beforeAll(async () => {
    t = await startTestApp({ API_KEY_CACHE_TTL_MS: '0' });
  });
  afterAll(() => t.close());

  it('enterprises:create --json prints exactly one JSON line with a working key (the built process)', async () => {
    const result = await runToExit('cli', ['enterprises:create', '--name', 'Acme Corp', '--json'], {
      DATABASE_URL: t.config.database.url,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const created = parsed<TestEnterprise>(lines[0]);
    expect(Object.keys(created)).toEqual(['enterpriseId', 'name', 'apiKey', 'sandbox']);
    expect(created).toEqual({
      enterpriseId: match.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Acme Corp',
      apiKey: match.stringMatching(/^ck_[0-9A-Za-z]{40}$/),
      sandbox: false,
    });
    const response = await t.request('GET', '/groups', { apiKey: created.apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it('api-keys:create, api-keys:list and api-keys:revoke manage the keys', async () => {
    const created = parsed<TestEnterprise>(
      (await cli('enterprises:create', '--name', 'Keys Inc', '--json')).stdout,
    );
    const second = await cli('api-keys:create', '--enterprise', created.enterpriseId, '--json');
    expect(second.code).toBe(0);
    const issued = parsed<IssuedKey>(second.stdout);
    expect(issued).toEqual({
      enterpriseId: created.enterpriseId,
      prefix: issued.apiKey.slice(0, 11),
      apiKey: match.stringMatching(/^ck_[0-9A-Za-z]{40}$/),
    });

    const listed = parsed<{ apiKeys: { prefix: string }[] }>(
      (await cli('api-keys:list', '--enterprise', created.enterpriseId, '--json')).stdout,
    );
    expect(listed.apiKeys.map((key) => key.prefix)).toEqual([
      created.apiKey.slice(0, 11),
      issued.prefix,
    ]);
    expect(JSON.stringify(listed)).not.toContain(issued.apiKey);

    const revoked = await cli('api-keys:revoke', issued.prefix, '--json');
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({
      prefix: issued.prefix,
      revokedAt: match.any(String),
    });
    const refused = await t.request('GET', '/groups', { apiKey: issued.apiKey });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: CommonErrors.Unauthorized });
    expect((await t.request('GET', '/groups', { apiKey: created.apiKey })).status).toBe(200);
  });

  it('fails with one line on stderr and exit code 1 for operator mistakes', async () => {
    for (const args of [
      ['enterprises:create', '--name', '   '],
      ['api-keys:list', '--enterprise', 'not-a-uuid'],
      ['api-keys:create', '--enterprise', '00000000-0000-0000-0000-000000000000'],
      ['api-keys:revoke', 'ck_nothere'],
    ]) {
      const result = await cli(...args);
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({
        args,
        code: 1,
        stdout: '',
      });
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('prints readable text without --json', async () => {
    const result = await cli('enterprises:create', '--name', 'Plain');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Enterprise: Plain \([0-9a-f-]{36}\)\nAPI key \(shown once, store it now\): ck_[0-9A-Za-z]{40}\n$/,
    );
  });

  it('sessions:simulate-result completes a session through ingestion, flagged synthetic', async () => {
    const enterprise = await t.newEnterprise('Simulated');
    const group = await t.newGroup(enterprise, 'Sim');
    const session = (await t.createSession(enterprise, group, 'sim@example.com')).body as {
      sessionID: string;
    };
    const result = await cli('sessions:simulate-result', session.sessionID, '--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      sessionID: session.sessionID,
      outcome: 'completed',
      synthetic: true,
    });
    const stored = await t.db.query(
      'SELECT status, synthetic, version FROM sessions WHERE session_id = $1',
      [session.sessionID],
    );
    expect(stored.rows).toEqual([{ status: 'completed', synthetic: true, version: 'v0.1.0' }]);
    const read = await t.request('GET', `/sessions/${session.sessionID}`, {
      apiKey: enterprise.apiKey,
    });
    expect(read.body).toMatchObject({ version: 'v0.1.0' });
    const again = await cli('sessions:simulate-result', session.sessionID);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe('A different result was already recorded for this session');
    const unknown = await cli('sessions:simulate-result', 'ses_AAAAAAAAAAAAAAAAAAAAAAAA');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe('Session not found');
  });

  it('sessions:simulate-result is refused in production: one line on stderr, exit code 1, nothing changed', async () => {
    const enterprise = await t.newEnterprise('Production');
    const group = await t.newGroup(enterprise, 'Real results only');
    const session = (await t.createSession(enterprise, group, 'prod@example.com')).body as {
      sessionID: string;
    };
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: t.config.database.url,
      DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      CHECKIN_TOKEN_SECRET: 's'.repeat(40),
      ENGINE_TOKEN: 'e'.repeat(40),
      PUBLIC_BASE_URL: 'https://checkin.example.com',
      SMTP_URL: 'smtp://127.0.0.1:1025',
      TRUST_PROXY: 'none',
      OPERATOR_NAME: 'Wellbeing Services Ltd',
      PRIVACY_NOTICE_URL: 'https://wellbeing.example.com/privacy',
      EMAIL_FROM: 'Wellbeing <no-reply@wellbeing.example.com>',
    };
    const stored = () =>
      t.db.query('SELECT status, synthetic, mhci FROM sessions WHERE session_id = $1', [
        session.sessionID,
      ]);
    const before = (await stored()).rows;
    expect(before).toEqual([{ status: 'created', synthetic: false, mhci: null }]);
    for (const args of [[session.sessionID], [session.sessionID, '--json']]) {
      const refused = await runCli(['sessions:simulate-result', ...args], production);
      expect(refused).toEqual({
        code: 1,
        stdout: '',
        stderr: `${SIMULATE_REFUSED_IN_PRODUCTION}\n`,
      });
    }
    expect(SIMULATE_REFUSED_IN_PRODUCTION).toBe(
      'sessions:simulate-result is refused in production: only the analysis engine records results',
    );
    expect((await stored()).rows).toEqual(before);
    const events = await t.db.query(
      `SELECT count(*)::int AS n FROM events WHERE type = 'user.session.result'
          AND payload->>'sessionID' = $1`,
      [session.sessionID],
    );
    expect(events.rows).toEqual([{ n: 0 }]);
    // The same production settings run other commands: the refusal is this command's.
    const listed = await runCli(
      ['api-keys:list', '--enterprise', enterprise.enterpriseId, '--json'],
      production,
    );
    expect(listed.code).toBe(0);
  });

  it('demo:seed creates a sandbox enterprise with groups, participants and completed sessions', async () => {
    const result = await cli('demo:seed', '--json');
    expect(result.code).toBe(0);
    const seeded = parsed<{ apiKey: string; sandbox: boolean; groups: unknown[] }>(result.stdout);
    expect(seeded.sandbox).toBe(true);
    expect(seeded.groups).toHaveLength(2);
    const groups = (await t.request('GET', '/groups', { apiKey: seeded.apiKey })).body as {
      groupID: number;
      credits: number;
    }[];
    expect(groups.map((group) => group.credits)).toEqual([-40, -40]);
    const participants = (
      await t.request('GET', `/groups/${groups[0].groupID}/participants`, {
        apiKey: seeded.apiKey,
      })
    ).body as string[];
    expect(participants).toHaveLength(10);
    const sessions = (
      await t.request('GET', `/participants/${participants[0]}/sessions`, {
        apiKey: seeded.apiKey,
      })
    ).body as string[];
    expect(sessions).toHaveLength(4);
    // Ten people per group, their check-ins in the last twelve days: group metrics answer, and
    // say why they are null (the month of today is not released yet; a released month of ten
    // has a 95 % margin of about 40 points, above the default maxMargin of 10, and too few
    // speakers for a word).
    const reasons: Record<string, string[]> = {
      mhci: ['not-released-yet', 'margin-above-bound'],
      wordcloud: ['not-released-yet', 'too-small-for-words'],
    };
    for (const metric of ['mhci', 'wordcloud']) {
      const answer = await t.request(
        'GET',
        `/metrics/groups/${groups[0].groupID}/${metric}?accuracy=true`,
        { apiKey: seeded.apiKey },
      );
      expect(answer.status).toBe(200);
      const { all } = answer.body as { all: { value: unknown; accuracy: { reason: string } } };
      expect(all.value).toBeNull();
      expect(reasons[metric]).toContain(all.accuracy.reason);
    }
  });
});
