/**
 * The typed client's quickstart (clients/typescript/examples/quickstart.ts, compiled by
 * `npm run build`), run as a newcomer runs it — `npm run quickstart` is `node` on the compiled
 * file — against the real service: the whole first integration must work through the generated
 * client, and fail with one clear line when it cannot.
 */
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { spawnTracked } from './support/processes';
import { startTestApp, TestApp, TestEnterprise } from './support/test-app';
import { eventually } from './support/webhook-receiver';

const EXAMPLE = join(__dirname, '..', 'clients', 'typescript', 'dist', 'examples', 'quickstart.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A port on 127.0.0.1 nothing listens on (it was free a moment ago, and is closed again). */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function runQuickstart(env: Record<string, string>): Promise<Run> {
  if (!existsSync(EXAMPLE)) throw new Error(`${EXAMPLE} is missing: run \`npm run build\` first`);
  return new Promise((resolve, reject) => {
    const child = spawnTracked(process.execPath, [EXAMPLE], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the quickstart did not exit in 60 s: ${stdout}\n${stderr}`));
    }, 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('quickstart example (typed client)', () => {
  let t: TestApp;
  let sandbox: TestEnterprise;
  let normal: TestEnterprise;

  beforeAll(async () => {
    t = await startTestApp();
    sandbox = await t.newEnterprise('Quickstart Sandbox', { sandbox: true });
    normal = await t.newEnterprise('Quickstart Normal');
  });
  afterAll(() => t.close());

  it('runs the whole flow against the real service with a sandbox key', async () => {
    const run = await runQuickstart({
      CHECKIN_BASE_URL: t.baseUrl,
      CHECKIN_API_KEY: sandbox.apiKey,
    });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^1\. Group (\d+) "Quickstart .+" created\.$/);
    expect(run.stdout).toMatch(
      /^2\. Webhook we_\S+ → http:\/\/127\.0\.0\.1:\d+\/checkin-webhooks/m,
    );
    expect(run.stdout).toMatch(/^3\. Session (ses_\S+) for ok_\S+; the participant would open:$/m);
    expect(run.stdout).toContain('4. Session completed through the sandbox');
    // A new participant is at level 0: the enterprise sees no score (private by default).
    expect(run.stdout).toMatch(
      /^5\. GET \/sessions\/ses_\S+ shows what the participant's level allows: externalID, sessionID, timestamp, groupID, version$/m,
    );
    expect(run.stdout).toMatch(
      /^6\. Metrics: count \{"all":1\}, mhci \{"all":null\} \(no sealed cohort cell yet/m,
    );
    expect(run.stdout).toMatch(/^7\. Webhook user\.created evt_\S+ verified: /m);
    expect(run.stdout).toMatch(/^7\. Webhook user\.session\.result evt_\S+ verified: /m);
    expect(lines.at(-1)).toBe(
      `Done: the whole flow works. Next: the Swagger UI at ${t.baseUrl}/docs`,
    );

    // What the example printed is what the service holds.
    const groupId = Number(/^1\. Group (\d+)/.exec(lines[0])![1]);
    const sessionId = /^3\. Session (ses_\S+)/m.exec(run.stdout)![1];
    const { rows } = await t.db.query<{ status: string; group_id: string }>(
      'SELECT status, group_id FROM sessions WHERE session_id = $1',
      [sessionId],
    );
    expect(rows).toEqual([{ status: 'completed', group_id: String(groupId) }]);
    // Outcomes are recorded in batches, moments after the receiver answered.
    await eventually(async () => {
      const delivered = await t.db.query<{ type: string }>(
        `SELECT e.type FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
          WHERE e.group_id = $1 AND d.status = 'delivered' ORDER BY e.type`,
        [groupId],
      );
      expect(delivered.rows.map((row) => row.type)).toEqual([
        'user.created',
        'user.session.result',
      ]);
    });
  });

  it('stops at the sandbox step, with one clear line, for an enterprise that is not a sandbox', async () => {
    const run = await runQuickstart({
      CHECKIN_BASE_URL: t.baseUrl,
      CHECKIN_API_KEY: normal.apiKey,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('3. Session ');
    expect(run.stderr.trim()).toBe(
      'Quickstart failed: complete the session (sandbox): HTTP 404 {"error":"Not found"}',
    );
  });

  it('names the address it tried and CHECKIN_BASE_URL when nothing answers there', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const run = await runQuickstart({ CHECKIN_BASE_URL: baseUrl, CHECKIN_API_KEY: sandbox.apiKey });
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 1, stdout: '' });
    expect(run.stderr.trim()).toBe(
      `Quickstart failed: create a group: could not reach the service at ${baseUrl} ` +
        `(CHECKIN_BASE_URL): connect ECONNREFUSED ${baseUrl.slice('http://'.length)}. Is it ` +
        'running there? Start it with `npm start`, or set CHECKIN_BASE_URL to where it runs.',
    );

    const malformed = await runQuickstart({
      CHECKIN_BASE_URL: 'localhost:3000',
      CHECKIN_API_KEY: sandbox.apiKey,
    });
    expect({ code: malformed.code, stderr: malformed.stderr.trim() }).toEqual({
      code: 1,
      stderr:
        "Quickstart failed: CHECKIN_BASE_URL must be the service's http:// or https:// address, " +
        'such as http://localhost:3000 (it is "localhost:3000").',
    });
  });

  it('says what to set when no API key is given, and what a wrong key answers', async () => {
    const none = await runQuickstart({ CHECKIN_BASE_URL: t.baseUrl });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(
      /^Quickstart failed: Set CHECKIN_API_KEY to a sandbox enterprise's/,
    );
    const wrong = await runQuickstart({ CHECKIN_BASE_URL: t.baseUrl, CHECKIN_API_KEY: 'ck_wrong' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim()).toBe(
      'Quickstart failed: create a group: HTTP 401 {"error":"Unauthorized"}',
    );
  });
});
