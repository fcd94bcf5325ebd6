/**
 * The typed client's quickstart (clients/typescript/examples/quickstart.ts, compiled by
 * `npm run build`), run as a newcomer runs it — `npm run quickstart` is `node` on the compiled
 * file — against the real service: the whole first integration must work through the generated
 * client, and fail with one clear line when it cannot. Whichever way it ends (done, failed,
 * interrupted), it leaves no webhook endpoint behind, and names what it leaves and how to delete it.
 */
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Pool } from 'pg';
import { runCommand, type ChildProcessByStdio, type ProcessResult } from './support/processes';
import { startTestApp, TestApp, TestEnterprise } from './support/test-app';

const EXAMPLE = join(__dirname, '..', 'clients', 'typescript', 'dist', 'examples', 'quickstart.js');

/** A port on 127.0.0.1 nothing listens on (it was free a moment ago, and is closed again). */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs the quickstart to its exit; `onStdout` sees its output so far each time more comes. */
function runQuickstart(
  env: Record<string, string>,
  onStdout: (stdout: string, child: ChildProcessByStdio) => void = () => {},
): Promise<ProcessResult> {
  if (!existsSync(EXAMPLE)) throw new Error(`${EXAMPLE} is missing: run \`npm run build\` first`);
  return runCommand(
    process.execPath,
    [EXAMPLE],
    { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } },
    60_000,
    onStdout,
  );
}

/** What the enterprise holds, of what a quickstart run can make. */
async function holdings(db: Pool, enterprise: TestEnterprise) {
  const { rows } = await db.query<Record<string, number>>(
    `SELECT (SELECT count(*) FROM groups WHERE enterprise_id = $1)::int AS groups,
            (SELECT count(*) FROM participants WHERE enterprise_id = $1)::int AS participants,
            (SELECT count(*) FROM sessions WHERE enterprise_id = $1)::int AS sessions,
            (SELECT count(*) FROM events WHERE enterprise_id = $1)::int AS events,
            (SELECT count(*) FROM webhook_endpoints WHERE enterprise_id = $1)::int AS webhooks`,
    [enterprise.enterpriseId],
  );
  return rows[0];
}

/**
 * The lines that say what the run left (group `groupId`; participant and session when given),
 * and the deletion calls they print, in order.
 */
function whatIsLeft(
  baseUrl: string,
  groupId: number,
  groupName: string,
  checkin?: { participant: string; session: string },
): string[] {
  const curl = (path: string, what: string) =>
    `  curl -X DELETE -H "x-api-key: $CHECKIN_API_KEY" ${baseUrl}${path}    # ${what}`;
  const left = [`group ${groupId} "${groupName}"`];
  if (checkin) left.push(`participant ${checkin.participant} and their session ${checkin.session}`);
  return [
    `Left in your enterprise: ${left.join('; ')}. To delete (your key in CHECKIN_API_KEY):`,
    curl(`/groups/${groupId}`, 'the group, with its sessions, events and webhooks'),
    ...(checkin ? [curl(`/participants/${checkin.participant}`, 'the participant (erased)')] : []),
  ];
}

/** Makes the deletion calls a run printed, as printed (with the key); each must succeed. */
async function deleteAsPrinted(stdout: string, apiKey: string): Promise<void> {
  const urls = [
    ...stdout.matchAll(/^ {2}curl -X DELETE -H "x-api-key: \$CHECKIN_API_KEY" (\S+) /gm),
  ].map((match) => match[1]);
  expect(urls.length).toBeGreaterThan(0);
  for (const url of urls) {
    const response = await fetch(url, { method: 'DELETE', headers: { 'x-api-key': apiKey } });
    expect({ url, status: response.status, body: await response.json() }).toEqual({
      url,
      status: 200,
      body: { message: 'success' },
    });
  }
}

/** The printed group, participant and session of a run (from its steps 1 and 3). */
function madeBy(stdout: string) {
  const group = /^1\. Group (\d+) "(.+)" created\.$/m.exec(stdout)!;
  const session = /^3\. Session (ses_\S+) for (ok_\S+);/m.exec(stdout);
  return {
    groupId: Number(group[1]),
    groupName: group[2],
    checkin: session ? { session: session[1], participant: session[2] } : undefined,
  };
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

  it('runs the whole flow against the real service with a sandbox key, then deletes its webhook', async () => {
    const run = await runQuickstart({
      CHECKIN_BASE_URL: t.baseUrl,
      CHECKIN_API_KEY: sandbox.apiKey,
    });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^1\. Group (\d+) "Quickstart .+" created\.$/);
    const webhook = /^2\. Webhook (we_\S+) → http:\/\/127\.0\.0\.1:\d+\/checkin-webhooks /m.exec(
      run.stdout,
    );
    expect(webhook).not.toBeNull();
    const webhookId = webhook![1];
    expect(run.stdout).toMatch(/^3\. Session (ses_\S+) for ok_\S+; the participant would open:$/m);
    expect(run.stdout).toContain('4. Session completed through the sandbox');
    // A new participant is at level 0: the enterprise sees no score (private by default).
    expect(run.stdout).toMatch(
      /^5\. GET \/sessions\/ses_\S+ shows what the participant's level allows: externalID, sessionID, timestamp, groupID, version$/m,
    );
    expect(run.stdout).toMatch(
      /^6\. Metrics: count \{"all":1\}, mhci \{"all":null\} \(not released yet/m,
    );
    expect(run.stdout).toMatch(/^7\. Webhook user\.created evt_\S+ verified: /m);
    expect(run.stdout).toMatch(/^7\. Webhook user\.session\.result evt_\S+ verified: /m);

    // What the example printed is what the service holds.
    const { groupId, groupName, checkin } = madeBy(run.stdout);
    const { rows } = await t.db.query<{ status: string; group_id: string }>(
      'SELECT status, group_id FROM sessions WHERE session_id = $1',
      [checkin!.session],
    );
    expect(rows).toEqual([{ status: 'completed', group_id: String(groupId) }]);
    // The service recorded both deliveries as delivered (as the deliveries API answered), and
    // only then was the endpoint deleted; the run ends saying what it left and how to delete it.
    expect(lines.slice(-6)).toEqual([
      `8. GET /webhooks/${groupId}/${webhookId}/deliveries: user.created delivered, user.session.result delivered.`,
      `Webhook ${webhookId} deleted (DELETE /webhooks/${groupId}/${webhookId}): nothing is sent ` +
        'to this receiver after it exits.',
      `Done: the whole flow works. Next: the Swagger UI at ${t.baseUrl}/docs`,
      ...whatIsLeft(t.baseUrl, groupId, groupName, checkin),
    ]);
    // No endpoint is left to send the group's later events to a receiver that is gone.
    expect(await holdings(t.db, sandbox)).toEqual({
      groups: 1,
      participants: 1,
      sessions: 1,
      events: 2,
      webhooks: 0,
    });

    // The group it left shows the one check-in completed as one credit spent (README, Credits).
    const groups = await t.request('GET', '/groups', { apiKey: sandbox.apiKey });
    expect(groups.body).toEqual([expect.objectContaining({ groupID: groupId, credits: -1 })]);

    // What it named is all it left: its deletion calls, as printed, leave the enterprise empty.
    await deleteAsPrinted(run.stdout, sandbox.apiKey);
    expect(await holdings(t.db, sandbox)).toEqual({
      groups: 0,
      participants: 0,
      sessions: 0,
      events: 0,
      webhooks: 0,
    });
  });

  it('stops at the sandbox step, with one clear line, for an enterprise that is not a sandbox, and still deletes its webhook', async () => {
    const run = await runQuickstart({
      CHECKIN_BASE_URL: t.baseUrl,
      CHECKIN_API_KEY: normal.apiKey,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('3. Session ');
    expect(run.stderr.trim()).toBe(
      'Quickstart failed: complete the session (sandbox): HTTP 404 {"error":"Not found"}',
    );
    const { groupId, groupName, checkin } = madeBy(run.stdout);
    const webhookId = /^2\. Webhook (we_\S+) /m.exec(run.stdout)![1];
    expect(run.stdout.trim().split('\n').slice(-4)).toEqual([
      `Webhook ${webhookId} deleted (DELETE /webhooks/${groupId}/${webhookId}): nothing is sent ` +
        'to this receiver after it exits.',
      ...whatIsLeft(t.baseUrl, groupId, groupName, checkin),
    ]);
    expect(await holdings(t.db, normal)).toEqual({
      groups: 1,
      participants: 1,
      sessions: 1,
      events: 1, // user.created
      webhooks: 0,
    });
    await deleteAsPrinted(run.stdout, normal.apiKey);
    expect(await holdings(t.db, normal)).toEqual({
      groups: 0,
      participants: 0,
      sessions: 0,
      events: 0,
      webhooks: 0,
    });
  });

  it('deletes its webhook when interrupted (Ctrl-C, SIGTERM), and says what it left', async () => {
    // No delivery worker: the run waits at step 7 for webhooks that do not come, until the signal.
    const stalled = await startTestApp({ RUN_WORKERS: 'false' });
    try {
      const enterprise = await stalled.newEnterprise('Quickstart Interrupted', { sandbox: true });
      for (const [signal, code] of [
        ['SIGINT', 130],
        ['SIGTERM', 143],
      ] as const) {
        let sent = 0;
        const run = await runQuickstart(
          { CHECKIN_BASE_URL: stalled.baseUrl, CHECKIN_API_KEY: enterprise.apiKey },
          (stdout, child) => {
            if (sent === 0 && stdout.includes('\n6. Metrics: ')) {
              sent += Number(child.kill(signal));
            } else if (sent === 1 && stdout.includes(`${signal}: stopping`)) {
              // Again: under `npm run`, a Ctrl-C reaches the script from the terminal and from npm.
              sent += Number(child.kill(signal));
            }
          },
        );
        expect(sent).toBe(2);
        expect({ signal, code: run.code, stderr: run.stderr }).toEqual({
          signal,
          code,
          stderr: `Quickstart stopped: interrupted by ${signal}.\n`,
        });
        expect(run.stdout).not.toContain('7. Webhook');
        const { groupId, groupName, checkin } = madeBy(run.stdout);
        const webhookId = /^2\. Webhook (we_\S+) /m.exec(run.stdout)![1];
        expect(run.stdout.trim().split('\n').slice(-5)).toEqual([
          `${signal}: stopping after the call under way.`,
          `Webhook ${webhookId} deleted (DELETE /webhooks/${groupId}/${webhookId}): nothing is ` +
            'sent to this receiver after it exits.',
          ...whatIsLeft(stalled.baseUrl, groupId, groupName, checkin),
        ]);
        expect(await holdings(stalled.db, enterprise)).toMatchObject({ groups: 1, webhooks: 0 });
        await deleteAsPrinted(run.stdout, enterprise.apiKey);
      }
      expect(await holdings(stalled.db, enterprise)).toEqual({
        groups: 0,
        participants: 0,
        sessions: 0,
        events: 0,
        webhooks: 0,
      });
    } finally {
      await stalled.close();
    }
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
