import { shareAt } from './support/levels';
import type { OpenAPIV3 } from 'openapi-types';
import { IngestionErrors } from '../src/ingestion/ingestion.errors';
import { SYNTHETIC_ENGINE_VERSION } from '../src/ingestion/synthetic-result';
import { DEMO_SEED_SANDBOX_NOTICE } from '../src/cli/demo.commands';
import { CommonErrors } from '../src/common/errors/common.errors';
import { SANDBOX_NOTE } from '../src/enterprises/enterprises.service';
import { SandboxErrors } from '../src/sandbox/sandbox.errors';
import { PageTexts } from '../src/pages/pages.messages';
import { SessionErrors } from '../src/sessions/sessions.errors';
import { PageBrowser } from './support/page-browser';
import { conversation, ENGINE_TOKEN, engineResult, postResult } from './support/engine';
import { finalDeliveries } from './support/deliveries';
import { match } from './support/matchers';
import { cli as runCli } from './support/cli';
import { SmtpSink } from './support/smtp-sink';
import {
  HttpResult,
  SessionCreated,
  startTestApp,
  TestApp,
  TestEnterprise,
  TestGroup,
} from './support/test-app';
import { eventually, sleep, WebhookReceiver } from './support/webhook-receiver';

interface CapturedMail {
  to: string;
  userIdentifier: string;
  emailType: string;
  subject: string;
  text: string;
  groupID: number;
  createdAt: string;
}

const NOT_FOUND = { error: CommonErrors.NotFound };
const ENGINE_URL = 'https://engine.example.com/start';
const SESSION_NOT_FOUND = { error: SessionErrors.NotFound };
const ALREADY_COMPLETED = { error: 'Session already completed' };
/** What `stored()` reads of a session nothing has completed. */
const PENDING = { status: 'created', synthetic: false, mhci: null, resultEvents: 0 };

/** A result as the analysis engine posts it, completed an hour ago. */
const explicitResult = (overrides: Record<string, unknown> = {}) => ({
  ...engineResult({
    version: 'v3.1.4',
    mhci: 64.5,
    subscores: { vision: 61, audio: 62, transcript: 63, assessment: 64 },
    transcript: conversation('How was your week?', 'Calm, the sandbox helped.'),
    features: { pace: 2.5, pitch: 0.25 },
  }),
  completedAt: new Date(Date.now() - 3_600_000).toISOString(),
  ...overrides,
});

/**
 * Sandbox enterprises (docs/integrating.md): sessions completed through the real ingestion path on
 * request, mails captured instead of sent, and none of it for other enterprises.
 */
describe('Sandbox enterprises', () => {
  let t: TestApp;
  let smtp: SmtpSink;
  let inbox: WebhookReceiver;
  /** Sandbox enterprises, and a normal one. */
  let sandbox: TestEnterprise;
  let otherSandbox: TestEnterprise;
  let acme: TestEnterprise;
  let n = 0;

  beforeAll(async () => {
    smtp = await new SmtpSink().start();
    inbox = await new WebhookReceiver().start();
    t = await startTestApp({
      SMTP_URL: smtp.url,
      ENGINE_TOKEN,
      ENGINE_URL,
      EMAIL_DEDUP_WINDOW: '1s',
    });
    sandbox = await t.newEnterprise('Sandbox Co', { sandbox: true });
    otherSandbox = await t.newEnterprise('Other Sandbox', { sandbox: true });
    acme = await t.newEnterprise('Acme');
  });
  afterAll(async () => {
    await t.close();
    await inbox.stop();
    await smtp.stop();
  });

  const newSession = async (enterprise: TestEnterprise, group: TestGroup, identifier?: string) => {
    const response = await t.createSession(enterprise, group, identifier ?? `s${++n}@example.com`);
    expect(response.status).toBe(200);
    return response.body as SessionCreated;
  };
  const complete = (enterprise: TestEnterprise, sessionId: string, body?: unknown) =>
    t.request('POST', `/sandbox/sessions/${sessionId}/complete`, {
      apiKey: enterprise.apiKey,
      body,
    });
  const read = (enterprise: TestEnterprise, sessionId: string) =>
    t.request('GET', `/sessions/${sessionId}`, { apiKey: enterprise.apiKey });
  const capturedMails = async (enterprise: TestEnterprise) => {
    const response = await t.request('GET', '/sandbox/emails', { apiKey: enterprise.apiKey });
    expect(response.status).toBe(200);
    return response.body as CapturedMail[];
  };
  /** What the database holds of a session, and how many result events it has. */
  const stored = async (sessionId: string) => {
    const session = await t.db.query<{ status: string; synthetic: boolean; mhci: number | null }>(
      'SELECT status, synthetic, mhci FROM sessions WHERE session_id = $1',
      [sessionId],
    );
    const events = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events
        WHERE type = 'user.session.result' AND payload->>'sessionID' = $1`,
      [sessionId],
    );
    return { ...session.rows[0], resultEvents: events.rows[0].n };
  };
  const credits = async (enterprise: TestEnterprise, group: TestGroup) => {
    const groups = (await t.request('GET', '/groups', { apiKey: enterprise.apiKey })).body as {
      groupID: number;
      credits: number;
    }[];
    return groups.find((candidate) => candidate.groupID === group.groupID)?.credits;
  };
  const count = async (enterprise: TestEnterprise, group: TestGroup) =>
    (
      await t.request('GET', `/metrics/groups/${group.groupID}/count`, {
        apiKey: enterprise.apiKey,
      })
    ).body;
  const setPrivacyLevel = (sessionId: string, level: number) => shareAt(t.db, { sessionId }, level);
  const statusAndBody = (response: HttpResult) => ({
    status: response.status,
    body: response.body,
  });

  describe('POST /sandbox/sessions/{sessionID}/complete', () => {
    it('completes a session through ingestion: GET /sessions answer, signed webhook, metrics, credit, synthetic', async () => {
      const group = await t.newGroup(sandbox, 'Completion');
      const created = await t.request('POST', `/webhooks/${group.groupID}`, {
        apiKey: sandbox.apiKey,
        body: { url: `${inbox.url}/completion`, description: 'Sandbox receiver' },
      });
      expect(created.status).toBe(200);
      const { id: endpointId, secret } = created.body as { id: string; secret: string };
      const session = await newSession(sandbox, group);
      expect(await count(sandbox, group)).toEqual({ all: 0 });
      expect(await credits(sandbox, group)).toBe(0);

      const response = await complete(sandbox, session.sessionID);

      expect(response.status).toBe(200);
      expect(response.body).toEqual((await read(sandbox, session.sessionID)).body);
      // Level 0 (the participant's default): the result is in, its fields stay hidden.
      expect(response.body).toEqual({
        externalID: session.userIdentifier,
        sessionID: session.sessionID,
        timestamp: match.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        groupID: group.groupID,
        version: SYNTHETIC_ENGINE_VERSION,
      });
      expect(await stored(session.sessionID)).toEqual({
        status: 'completed',
        synthetic: true,
        mhci: match.any(Number),
        resultEvents: 1,
      });
      expect(await count(sandbox, group)).toEqual({ all: 1 });
      expect(await credits(sandbox, group)).toBe(-1);

      const results = () =>
        inbox.received.filter(
          (received) =>
            received.path === '/completion' && received.body.includes('"user.session.result"'),
        );
      // Both of the endpoint's deliveries (user.created, then the result) final: nothing more comes.
      expect((await finalDeliveries(t.db, [endpointId])).map((row) => row.status)).toEqual([
        'delivered',
        'delivered',
      ]);
      expect(results()).toHaveLength(1);
      const delivery = WebhookReceiver.verify(results()[0], secret);
      expect(delivery).toEqual({
        id: match.stringMatching(/^evt_/),
        object: 'event',
        type: 'user.session.result',
        created: match.any(String),
        data: {
          object: {
            groupID: group.groupID,
            sessionID: session.sessionID,
            externalUserID: session.userIdentifier,
            timestamp: (response.body as { timestamp: string }).timestamp,
          },
        },
      });
    });

    it('an explicit result is stored as given and shown as GET shows it; the same again is 200, unchanged; another completion is 409', async () => {
      const group = await t.newGroup(sandbox, 'Explicit');
      const session = await newSession(sandbox, group);
      await setPrivacyLevel(session.sessionID, 5);
      const result = explicitResult();

      const first = await complete(sandbox, session.sessionID, result);

      expect(first.status).toBe(200);
      expect(first.body).toEqual((await read(sandbox, session.sessionID)).body);
      expect(first.body).toEqual({
        externalID: session.userIdentifier,
        sessionID: session.sessionID,
        timestamp: new Date(result.completedAt).toISOString(),
        groupID: group.groupID,
        version: 'v3.1.4',
        mhci: 64.5,
        subscores: { vision: 61, audio: 62, transcript: 63, assessment: 64 },
        // Nobody else in the group yet: no comparison with colleagues (docs/metrics.md).
        groupPercentiles: {},
        userPercentiles: {},
        transcript: result.transcript,
        features: { pace: 2.5, pitch: 0.25 },
      });
      const afterFirst = await stored(session.sessionID);
      expect(afterFirst).toEqual({
        status: 'completed',
        synthetic: true,
        mhci: 64.5,
        resultEvents: 1,
      });

      const again = await complete(sandbox, session.sessionID, result);
      expect(statusAndBody(again)).toEqual({ status: 200, body: first.body });
      expect(await stored(session.sessionID)).toEqual(afterFirst);
      expect(await credits(sandbox, group)).toBe(-1);

      for (const body of [explicitResult({ mhci: 10 }), undefined, {}]) {
        const refused = await complete(sandbox, session.sessionID, body);
        expect(statusAndBody(refused)).toEqual({ status: 409, body: ALREADY_COMPLETED });
      }
      expect(SandboxErrors.AlreadyCompleted).toBe(ALREADY_COMPLETED.error);
      expect(await stored(session.sessionID)).toEqual(afterFirst);
      expect((await read(sandbox, session.sessionID)).body).toEqual(first.body);
    });

    it('`{}` counts as no body: a synthetic result', async () => {
      const group = await t.newGroup(sandbox, 'Empty body');
      const session = await newSession(sandbox, group);
      await setPrivacyLevel(session.sessionID, 1);
      const response = await complete(sandbox, session.sessionID, {});
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        version: SYNTHETIC_ENGINE_VERSION,
        mhci: match.any(Number),
      });
      expect((await stored(session.sessionID)).synthetic).toBe(true);
    });

    it("refuses a body with a bad field with the ingestion endpoint's exact 400, and changes nothing", async () => {
      const group = await t.newGroup(sandbox, 'Bad bodies');
      const session = await newSession(sandbox, group);
      const { transcript: _transcript, ...withoutTranscript } = explicitResult();
      const badBodies: [unknown, string][] = [
        [{ mhci: 50 }, IngestionErrors.VersionMissing],
        [explicitResult({ version: 3 }), IngestionErrors.VersionNotString],
        [explicitResult({ version: '3.0' }), IngestionErrors.VersionFormat],
        [explicitResult({ mhci: 101 }), IngestionErrors.MhciInvalid],
        [explicitResult({ subscores: { vision: 1 } }), IngestionErrors.SubscoresInvalid],
        [withoutTranscript, IngestionErrors.TranscriptMissing],
        [
          explicitResult({ transcript: [{ role: 'system', content: 'x' }] }),
          IngestionErrors.TranscriptInvalid,
        ],
        [explicitResult({ features: { pace: 'fast' } }), IngestionErrors.FeaturesInvalid],
        [
          explicitResult({ completedAt: new Date(Date.now() + 86_400_000).toISOString() }),
          IngestionErrors.CompletedAtInvalid,
        ],
        // JSON that is not an object is no result at all.
        [null, CommonErrors.InvalidJsonBody],
        [[explicitResult()], CommonErrors.InvalidJsonBody],
      ];
      for (const [body, message] of badBodies) {
        const viaSandbox = await complete(sandbox, session.sessionID, body);
        const viaEngine = await postResult(t, session.sessionID, body);
        expect({ body, sandbox: statusAndBody(viaSandbox) }).toEqual({
          body,
          sandbox: { status: 400, body: { error: message } },
        });
        expect(statusAndBody(viaEngine)).toEqual(statusAndBody(viaSandbox));
      }
      const malformed = await t.request('POST', `/sandbox/sessions/${session.sessionID}/complete`, {
        apiKey: sandbox.apiKey,
        rawBody: '{"version":',
      });
      expect(statusAndBody(malformed)).toEqual({
        status: 400,
        body: { error: CommonErrors.InvalidJsonBody },
      });
      expect(await stored(session.sessionID)).toEqual(PENDING);
      expect(await credits(sandbox, group)).toBe(0);
    });

    it("answers another enterprise's, an unknown or a malformed session as GET /sessions does: Session not found, nothing changed", async () => {
      const theirSandboxSession = await newSession(
        otherSandbox,
        await t.newGroup(otherSandbox, 'Theirs'),
      );
      const acmeSession = await newSession(acme, await t.newGroup(acme, 'Acme group'));
      for (const sessionId of [
        theirSandboxSession.sessionID,
        acmeSession.sessionID,
        'ses_AAAAAAAAAAAAAAAAAAAAAAAA',
        'not-a-session',
      ]) {
        for (const body of [undefined, explicitResult()]) {
          const response = await complete(sandbox, sessionId, body);
          expect({ sessionId, answer: statusAndBody(response) }).toEqual({
            sessionId,
            answer: { status: 400, body: SESSION_NOT_FOUND },
          });
          expect(statusAndBody(await read(sandbox, sessionId))).toEqual(statusAndBody(response));
        }
      }
      for (const session of [theirSandboxSession, acmeSession]) {
        expect(await stored(session.sessionID)).toEqual(PENDING);
      }
    });

    it("keeps ingestion's 409 for a member who has not consented in a group that requires it", async () => {
      const group = await t.newGroup(sandbox, 'Consent required');
      await t.request('PUT', `/groups/${group.groupID}`, {
        apiKey: sandbox.apiKey,
        body: { consentRequired: 'true' },
      });
      const session = await newSession(sandbox, group);
      for (const body of [undefined, explicitResult()]) {
        const response = await complete(sandbox, session.sessionID, body);
        expect(statusAndBody(response)).toEqual({
          status: 409,
          body: { error: IngestionErrors.ConsentMissing },
        });
      }
      expect((await stored(session.sessionID)).status).toBe('created');
    });

    it('refuses a result naming a hand-off: no sandbox session is handed off to an engine', async () => {
      const group = await t.newGroup(sandbox, 'No hand-off');
      const session = await newSession(sandbox, group);
      const response = await complete(sandbox, session.sessionID, {
        ...explicitResult(),
        handoff: 'A'.repeat(43),
      });
      expect(statusAndBody(response)).toEqual({
        status: 409,
        body: { error: IngestionErrors.HandoffMismatch },
      });
      expect((await stored(session.sessionID)).status).toBe('created');
    });

    it('reports a missing sessionID as GET /sessions/ does', async () => {
      const response = await t.request('POST', '/sandbox/sessions//complete', {
        apiKey: sandbox.apiKey,
      });
      expect(statusAndBody(response)).toEqual({
        status: 400,
        body: { error: SessionErrors.SessionIdMissing },
      });
    });
  });

  describe("a sandbox's check-in page", () => {
    /** Opens the participant's check-in link in a fresh browser and presses Start. */
    const openCheckin = async (redirectUrl: string) => {
      const path = new URL(redirectUrl).pathname;
      const browser = new PageBrowser(t.baseUrl);
      const start = await browser.get(path);
      expect((await browser.post(`${path}/start`)).status).toBe(303);
      return { start: start.html, page: (await browser.get(path)).html };
    };

    it("refuses the engine's result for a sandbox session, and stores nothing", async () => {
      const group = await t.newGroup(sandbox, 'No engine results');
      const session = await newSession(sandbox, group);
      const viaEngine = await postResult(t, session.sessionID, explicitResult());
      expect(statusAndBody(viaEngine)).toEqual({
        status: 409,
        body: { error: IngestionErrors.SandboxSession },
      });
      expect(await stored(session.sessionID)).toEqual(PENDING);
      expect(await credits(sandbox, group)).toBe(0);
      // Its own route still completes it; then the engine is refused all the same.
      expect((await complete(sandbox, session.sessionID)).status).toBe(200);
      expect(statusAndBody(await postResult(t, session.sessionID, explicitResult()))).toEqual({
        status: 409,
        body: { error: IngestionErrors.SandboxSession },
      });
      // A normal enterprise's session still takes the engine's result.
      const real = await newSession(acme, await t.newGroup(acme, 'Engine results'));
      expect((await postResult(t, real.sessionID, explicitResult())).status).toBe(200);
    });

    it('never hands a sandbox check-in to the engine, and warns that it is a test', async () => {
      const session = await newSession(sandbox, await t.newGroup(sandbox, 'Sandbox pages'));
      const { start, page } = await openCheckin(session.redirectUrl);
      const notice = PageTexts.sandboxNotice;
      expect(start).toContain(notice);
      expect(page).toContain(notice);
      expect(page).toContain(`<code>POST /sandbox/sessions/${session.sessionID}/complete</code>`);
      expect(page).not.toContain(ENGINE_URL);
      expect(page).not.toContain('/handoff');

      // The same service hands a normal enterprise's check-in to the engine, without the notice.
      const real = await newSession(acme, await t.newGroup(acme, 'Real pages'));
      const normal = await openCheckin(real.redirectUrl);
      expect(normal.page).toContain(`action="${new URL(real.redirectUrl).pathname}/handoff"`);
      expect(normal.start + normal.page).not.toContain(notice);
    });
  });

  describe('an enterprise that is not a sandbox', () => {
    it('gets 404 {"error":"Not found"} on every /sandbox route, as an unknown route, and nothing changes', async () => {
      const group = await t.newGroup(acme, 'Not a sandbox');
      const session = await newSession(acme, group);
      const unknownRoute = await t.request('GET', '/sandbox/nothing-here', { apiKey: acme.apiKey });
      expect(statusAndBody(unknownRoute)).toEqual({ status: 404, body: NOT_FOUND });
      const attempts = [
        complete(acme, session.sessionID),
        complete(acme, session.sessionID, explicitResult()),
        complete(acme, session.sessionID, { mhci: 'bad' }),
        t.request('POST', `/sandbox/sessions/${session.sessionID}/complete`, {
          apiKey: acme.apiKey,
          rawBody: '{"version":',
        }),
        t.request('POST', '/sandbox/sessions//complete', { apiKey: acme.apiKey }),
        t.request('GET', '/sandbox/emails', { apiKey: acme.apiKey }),
      ];
      for (const response of await Promise.all(attempts)) {
        expect({ answer: statusAndBody(response), text: response.text }).toEqual({
          answer: { status: 404, body: NOT_FOUND },
          text: unknownRoute.text,
        });
      }
      expect(await stored(session.sessionID)).toEqual(PENDING);
      expect(await credits(acme, group)).toBe(0);
    });

    it('without a key, /sandbox routes answer 401 as every route does', async () => {
      for (const [method, path] of [
        ['POST', '/sandbox/sessions/ses_AAAAAAAAAAAAAAAAAAAAAAAA/complete'],
        ['GET', '/sandbox/emails'],
      ]) {
        const response = await t.request(method, path);
        expect(statusAndBody(response)).toEqual({
          status: 401,
          body: { error: CommonErrors.Unauthorized },
        });
      }
    });
  });

  describe('emails', () => {
    it("captures a sandbox's mails instead of sending them: GET /sandbox/emails lists them newest first, only the caller's; a normal enterprise's still goes to SMTP", async () => {
      const group = await t.newGroup(sandbox, 'Captured <mail>');
      const ana = `ana.${++n}@example.com`;
      const ben = `ben.${n}@example.com`;
      const anaId = (await newSession(sandbox, group, ana)).userIdentifier;
      const benId = (await newSession(sandbox, group, ben)).userIdentifier;
      const theirGroup = await t.newGroup(otherSandbox, 'Their mail');
      const theirs = `theirs.${n}@example.com`;
      await newSession(otherSandbox, theirGroup, theirs);
      expect(await capturedMails(sandbox)).toEqual([]);

      const reminder = await t.request('POST', `/interact/groups/${group.groupID}/email`, {
        apiKey: sandbox.apiKey,
        body: { emailType: 'checkinReminder' },
      });
      expect(reminder.body).toEqual({ message: 'success' });
      await eventually(async () => expect(await capturedMails(sandbox)).toHaveLength(2), 10_000);
      await sleep(50); // distinct capture times
      const privacy = await t.request('POST', `/interact/participants/${anaId}/email`, {
        apiKey: sandbox.apiKey,
        body: { emailType: 'privacyRequest' },
      });
      expect(privacy.body).toEqual({ message: 'success' });
      await t.request('POST', `/interact/groups/${theirGroup.groupID}/email`, {
        apiKey: otherSandbox.apiKey,
        body: { emailType: 'checkinReminder' },
      });
      await eventually(async () => expect(await capturedMails(sandbox)).toHaveLength(3), 10_000);
      await eventually(
        async () => expect(await capturedMails(otherSandbox)).toHaveLength(1),
        10_000,
      );

      const mails = await capturedMails(sandbox);
      for (const mail of mails) {
        expect(Object.keys(mail)).toEqual([
          'to',
          'userIdentifier',
          'emailType',
          'subject',
          'text',
          'groupID',
          'createdAt',
        ]);
      }
      expect(mails[0]).toEqual({
        to: ana,
        userIdentifier: anaId,
        emailType: 'privacyRequest',
        subject: 'Sandbox Co asks you to review your privacy settings',
        text: match.stringContaining('Review your settings here: http://127.0.0.1/participant/'),
        groupID: group.groupID,
        createdAt: match.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      });
      const reminders = mails.slice(1);
      expect(reminders.map((mail) => [mail.to, mail.userIdentifier]).sort()).toEqual(
        [
          [ana, anaId],
          [ben, benId],
        ].sort(),
      );
      for (const mail of reminders) {
        expect(mail).toMatchObject({
          emailType: 'checkinReminder',
          subject: 'Time for your check-in with Captured <mail>',
          groupID: group.groupID,
        });
        expect(mail.text).toContain(
          'It is time for your wellbeing check-in with Captured <mail> at Sandbox Co.',
        );
      }
      const times = mails.map((mail) => Date.parse(mail.createdAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(times[0]).toBeGreaterThan(times[1]);
      // Their links are the real ones: the settings page opens.
      const settings = /http:\/\/127\.0\.0\.1(\/participant\/settings\?token=\S+)/.exec(
        mails[0].text,
      )![1];
      const page = await t.request('GET', settings);
      expect(page.status).toBe(200);
      expect(page.text).toContain('Captured &lt;mail&gt;');
      // Only the caller's.
      expect((await capturedMails(otherSandbox)).map((mail) => mail.to)).toEqual([theirs]);

      // Sent, as far as the email log says; stored encrypted; nothing reached SMTP.
      const log = await t.db.query<{ status: string; n: number }>(
        `SELECT status, count(*)::int AS n FROM email_messages
          WHERE enterprise_id = $1 GROUP BY status`,
        [sandbox.enterpriseId],
      );
      expect(log.rows).toEqual([{ status: 'sent', n: 3 }]);
      const sealed = await t.db.query<{ text: string }>(
        'SELECT text_ciphertext AS text FROM sandbox_emails WHERE enterprise_id = $1',
        [sandbox.enterpriseId],
      );
      expect(sealed.rows).toHaveLength(3);
      for (const row of sealed.rows) {
        expect(row.text).toMatch(/^v2\./);
        expect(row.text).not.toContain('participant');
      }
      expect(smtp.dataAttempts).toBe(0);

      // A normal enterprise's mail still goes out over SMTP.
      const acmeGroup = await t.newGroup(acme, 'Real mail');
      const real = `real.${n}@example.com`;
      await newSession(acme, acmeGroup, real);
      await t.request('POST', `/interact/groups/${acmeGroup.groupID}/email`, {
        apiKey: acme.apiKey,
        body: { emailType: 'checkinReminder' },
      });
      const received = await smtp.waitFor(1);
      expect(received.map((mail) => mail.to)).toEqual([[real]]);
      // Every mail asked for is done (none still queued): nothing else will reach SMTP.
      await eventually(async () => {
        const queued = await t.db.query(`SELECT id FROM email_messages WHERE status = 'queued'`);
        expect(queued.rows).toEqual([]);
      });
      expect(smtp.mails.flatMap((mail) => mail.to)).toEqual([real]);
      expect(await capturedMails(sandbox)).toHaveLength(3);
    });

    it("a participant's captured mails go when they are erased", async () => {
      const group = await t.newGroup(sandbox, 'Erased mail');
      const gone = await newSession(sandbox, group, `gone.${++n}@example.com`);
      const before = (await capturedMails(sandbox)).length;
      await t.request('POST', `/interact/participants/${gone.userIdentifier}/email`, {
        apiKey: sandbox.apiKey,
        body: { emailType: 'checkinReminder' },
      });
      await eventually(
        async () => expect(await capturedMails(sandbox)).toHaveLength(before + 1),
        10_000,
      );
      const erased = await t.request('DELETE', `/participants/${gone.userIdentifier}`, {
        apiKey: sandbox.apiKey,
      });
      expect(erased.status).toBe(200);
      const mails = await capturedMails(sandbox);
      expect(mails).toHaveLength(before);
      expect(mails.map((mail) => mail.userIdentifier)).not.toContain(gone.userIdentifier);
    });
  });

  describe('operator CLI', () => {
    const cli = (args: string[], env: Record<string, string> = {}) =>
      runCli(args, { DATABASE_URL: t.config.database.url, ...env });

    it('enterprises:create --sandbox --json prints "sandbox": true, and its key reaches the sandbox routes', async () => {
      const created = await cli([
        'enterprises:create',
        '--name',
        'CLI Sandbox',
        '--sandbox',
        '--json',
      ]);
      expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: '' });
      const lines = created.stdout.split('\n').filter(Boolean);
      expect(lines).toHaveLength(1);
      const enterprise = JSON.parse(lines[0]) as TestEnterprise & { sandbox: boolean };
      expect(Object.keys(enterprise)).toEqual(['enterpriseId', 'name', 'apiKey', 'sandbox']);
      expect(enterprise).toEqual({
        enterpriseId: match.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'CLI Sandbox',
        apiKey: match.stringMatching(/^ck_[0-9A-Za-z]{40}$/),
        sandbox: true,
      });
      expect(await capturedMails(enterprise)).toEqual([]);

      const normal = await cli(['enterprises:create', '--name', 'CLI Normal', '--json']);
      const normalEnterprise = JSON.parse(normal.stdout) as TestEnterprise & { sandbox: boolean };
      expect(normalEnterprise.sandbox).toBe(false);
      const refused = await t.request('GET', '/sandbox/emails', {
        apiKey: normalEnterprise.apiKey,
      });
      expect(statusAndBody(refused)).toEqual({ status: 404, body: NOT_FOUND });

      const text = await cli(['enterprises:create', '--name', 'Text Sandbox', '--sandbox']);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(
        /^Enterprise: Text Sandbox \([0-9a-f-]{36}\)\nAPI key \(shown once, store it now\): ck_[0-9A-Za-z]{40}\n/,
      );
      expect(text.stdout.split('\n').filter(Boolean).at(-1)).toBe(SANDBOX_NOTE);
    });

    it('demo:seed creates a sandbox enterprise, and says so (allowed in production too)', async () => {
      const production = {
        NODE_ENV: 'production',
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
      const seeded = await cli(['demo:seed', '--name', 'Seeded Sandbox'], production);
      expect({ code: seeded.code, stderr: seeded.stderr }).toEqual({ code: 0, stderr: '' });
      expect(seeded.stdout).toContain(DEMO_SEED_SANDBOX_NOTICE);
      expect(seeded.stdout).toContain(SANDBOX_NOTE);
      const apiKey = /API key \(shown once\): (ck_[0-9A-Za-z]{40})/.exec(seeded.stdout)![1];
      const rows = await t.db.query<{ sandbox: boolean }>(
        'SELECT sandbox FROM enterprises WHERE name = $1',
        ['Seeded Sandbox'],
      );
      expect(rows.rows).toEqual([{ sandbox: true }]);
      const seededEnterprise = { enterpriseId: '', name: 'Seeded Sandbox', apiKey };
      expect(await capturedMails(seededEnterprise)).toEqual([]);
      // Its sessions were completed through ingestion: the sandbox can complete a new one too.
      const groups = (await t.request('GET', '/groups', { apiKey })).body as TestGroup[];
      expect(groups).toHaveLength(2);
      const session = await newSession(seededEnterprise, groups[0]);
      expect((await complete(seededEnterprise, session.sessionID)).status).toBe(200);
    });
  });

  it('documents both routes under the Sandbox tag, typed, with their errors', async () => {
    const document = (await t.request('GET', '/docs-json')).body as OpenAPIV3.Document;
    const completion = document.paths['/sandbox/sessions/{sessionID}/complete']!.post!;
    const emails = document.paths['/sandbox/emails']!.get!;
    const schemaOf = (operation: OpenAPIV3.OperationObject, status: string) =>
      (operation.responses[status] as OpenAPIV3.ResponseObject).content!['application/json']
        .schema as OpenAPIV3.SchemaObject & OpenAPIV3.ReferenceObject;
    const errorEnum = (operation: OpenAPIV3.OperationObject, status: string) =>
      (schemaOf(operation, status).properties!.error as OpenAPIV3.SchemaObject).enum;

    for (const operation of [completion, emails]) {
      expect(operation.tags).toEqual(['Sandbox']);
      expect(operation.security).toEqual([{ 'x-api-key': [] }]);
      expect(errorEnum(operation, '404')).toEqual([CommonErrors.NotFound]);
      expect(errorEnum(operation, '401')).toEqual([CommonErrors.Unauthorized]);
      expect(operation.responses['429']).toBeDefined();
    }
    expect(schemaOf(completion, '200').$ref).toBe('#/components/schemas/SessionDto');
    expect(errorEnum(completion, '409')).toEqual([
      SandboxErrors.AlreadyCompleted,
      IngestionErrors.ConsentMissing,
      IngestionErrors.HandoffMismatch,
    ]);
    expect(errorEnum(completion, '400')).toEqual(
      expect.arrayContaining([
        IngestionErrors.VersionMissing,
        IngestionErrors.MhciInvalid,
        SessionErrors.NotFound,
      ]),
    );
    const body = completion.requestBody as OpenAPIV3.RequestBodyObject;
    expect(body.required).toBe(false);
    expect((body.content['application/json'].schema as OpenAPIV3.ReferenceObject).$ref).toBe(
      '#/components/schemas/SessionResultDto',
    );
    const list = schemaOf(emails, '200');
    expect(list.type).toBe('array');
    expect((list as OpenAPIV3.ArraySchemaObject).items).toEqual({
      $ref: '#/components/schemas/SandboxEmailDto',
    });
    const dto = document.components!.schemas!.SandboxEmailDto as OpenAPIV3.SchemaObject;
    expect(Object.keys(dto.properties!)).toEqual([
      'to',
      'userIdentifier',
      'emailType',
      'subject',
      'text',
      'groupID',
      'createdAt',
    ]);
    expect(dto.required).toEqual(Object.keys(dto.properties!));
    expect(emails.description).toContain('at most the 100 newest');
  });
});
