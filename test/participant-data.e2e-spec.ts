/**
 * Participants own their data (docs/privacy.md), over real HTTP, PostgreSQL and SMTP: the consent
 * ledger written by every change on the pages and by unsubscribe links, read by the enterprise
 * at GET /participants/{externalID}/consents; the notice mail on every level increase; the
 * `user.privacy.updated` event; consent enforced at ingestion and withdrawable.
 */
import { IngestionErrors } from '../src/ingestion/ingestion.errors';
import { PageTexts, SAVED_MESSAGES } from '../src/pages/pages.messages';
import { levelInWordsIn } from '../src/common/i18n/catalogue';
import { ParticipantErrors } from '../src/participants/participants.errors';
import { ParticipantLinks } from '../src/participant-links/participant-links';
import { ENGINE_TOKEN, engineResult, postResult, subscores } from './support/engine';
import { match } from './support/matchers';
import { PageBrowser } from './support/page-browser';
import { SmtpSink } from './support/smtp-sink';
import {
  SessionCreated,
  startTestApp,
  TestApp,
  TestEnterprise,
  TestGroup,
} from './support/test-app';
import { eventually } from './support/webhook-receiver';

const RESULT = engineResult({ mhci: 61, subscores: subscores(1) });

describe('Participant data: ledger, notices, events, consent', () => {
  let t: TestApp;
  let smtp: SmtpSink;
  let acme: TestEnterprise;
  let globex: TestEnterprise;
  let n = 0;

  beforeAll(async () => {
    smtp = await new SmtpSink().start();
    t = await startTestApp({ ENGINE_TOKEN, SMTP_URL: smtp.url, EMAIL_DEDUP_WINDOW: '1h' });
    acme = await t.newEnterprise('Acme');
    globex = await t.newEnterprise('Globex');
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  /** A new participant's first session in `group`: its check-in page path and ids. */
  const checkIn = async (group: TestGroup, identifier = `p${++n}@example.com`) => {
    const created = (await t.createSession(acme, group, identifier)).body as SessionCreated;
    const path = new URL(created.redirectUrl).pathname;
    expect((await post(`${path}/start`)).status).toBe(303);
    return {
      email: identifier,
      externalId: created.userIdentifier,
      sessionId: created.sessionID,
      path,
    };
  };
  /** One browser for the whole file. */
  const browser = new PageBrowser();
  const post = (path: string, form: Record<string, string> = {}) =>
    browser.post(`${t.baseUrl}${path}`, form);
  const page = (path: string) => browser.get(`${t.baseUrl}${path}`);
  const consents = (externalId: string, apiKey = acme.apiKey) =>
    t.request('GET', `/participants/${externalId}/consents`, { apiKey });
  const settingsPath = async (externalId: string, groupId: number) => {
    const { rows } = await t.db.query<{ id: string }>(
      'SELECT id FROM participants WHERE external_id = $1',
      [externalId],
    );
    const url = new URL(
      t.app
        .get(ParticipantLinks)
        .settingsUrl({ participantId: rows[0].id, groupId, linkVersion: 0 }),
    );
    return `${url.pathname}${url.search}`;
  };
  const settingsAction = (path: string, form: string) =>
    path.replace('/participant/settings?', `/participant/settings/${form}?`);
  const eventsOf = async (type: string, groupId: number) =>
    (
      await t.db.query<{ payload: Record<string, unknown>; deliveries: number }>(
        `SELECT e.payload,
                (SELECT count(*) FROM webhook_deliveries d WHERE d.event_id = e.id)::int AS deliveries
           FROM events e WHERE e.type = $1 AND e.group_id = $2 ORDER BY e.created_at`,
        [type, groupId],
      )
    ).rows;

  describe('the ledger', () => {
    it('records consent, level and preference changes from both pages and unsubscribe links, oldest first', async () => {
      const group = await t.newGroup(acme, 'Ledger');
      await t.request('PUT', `/groups/${group.groupID}`, {
        apiKey: acme.apiKey,
        body: { consentRequired: 'true' },
      });
      const me = await checkIn(group);
      expect((await consents(me.externalId)).body).toEqual([]);

      expect((await post(`${me.path}/consent`)).status).toBe(303);
      expect((await post(`${me.path}/consent`)).status).toBe(303); // again: no change, no row
      expect((await post(`${me.path}/privacy`, { privacyLevel: '3' })).status).toBe(303);
      expect((await post(`${me.path}/privacy`, { privacyLevel: '3' })).status).toBe(303);
      expect((await post(`${me.path}/preferences`, { privacyRequest: 'on' })).status).toBe(303);
      const settings = await settingsPath(me.externalId, group.groupID);
      expect((await post(settingsAction(settings, 'privacy'), { privacyLevel: '1' })).status).toBe(
        303,
      );
      const unsubscribe = new URL(
        t.app.get(ParticipantLinks).unsubscribeUrl(
          {
            participantId: (
              await t.db.query<{ id: string }>(
                'SELECT id FROM participants WHERE external_id = $1',
                [me.externalId],
              )
            ).rows[0].id,
            groupId: group.groupID,
            linkVersion: 0,
          },
          'privacyRequest',
        ),
      );
      expect((await post(`${unsubscribe.pathname}${unsubscribe.search}`)).status).toBe(200);

      const at = match.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const g = group.groupID;
      const s = me.sessionId;
      const answer = await consents(me.externalId);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual([
        // Each row names the check-in whose page made the change; null elsewhere.
        { groupID: g, sessionID: s, change: 'consent', from: false, to: true, at, via: 'checkin' },
        { groupID: g, sessionID: s, change: 'privacyLevel', from: 0, to: 3, at, via: 'checkin' },
        {
          groupID: g,
          sessionID: s,
          change: 'checkinReminder',
          from: true,
          to: false,
          at,
          via: 'checkin',
        },
        {
          groupID: g,
          sessionID: null,
          change: 'privacyLevel',
          from: 3,
          to: 1,
          at,
          via: 'settings',
        },
        {
          groupID: null,
          sessionID: null,
          change: 'privacyRequest',
          from: true,
          to: false,
          at,
          via: 'unsubscribe',
        },
      ]);
      const times = (answer.body as { at: string }[]).map((row) => row.at);
      expect([...times].sort()).toEqual(times);

      // The participant sees the same history on their settings page.
      const html = (await page(settings)).html;
      expect(html).toContain(PageTexts.historyHeading);
      expect(html).toContain('Privacy level 0 → 3, on a check-in page');
      expect(html).toContain('Privacy level 3 → 1, on a settings page');
      expect(html).toContain('Privacy review requests on → off, with an unsubscribe link');
      expect(html).toContain('You gave your consent, on a check-in page');
    });

    it('is the enterprise’s own: another enterprise, unknown and malformed IDs get Participant not found', async () => {
      const group = await t.newGroup(acme, 'Ledger tenancy');
      const me = await checkIn(group);
      await post(`${me.path}/privacy`, { privacyLevel: '2' });
      expect(await consents(me.externalId, globex.apiKey)).toMatchObject({
        status: 400,
        body: { error: ParticipantErrors.NotFound },
      });
      for (const id of [`ok_${'0'.repeat(48)}`, 'nobody']) {
        expect(await consents(id)).toMatchObject({
          status: 400,
          body: { error: ParticipantErrors.NotFound },
        });
      }
      expect(
        await t.request('GET', '/participants//consents', { apiKey: acme.apiKey }),
      ).toMatchObject({ status: 400, body: { error: ParticipantErrors.ExternalIdMissing } });
      expect((await t.request('GET', `/participants/${me.externalId}/consents`)).status).toBe(401);
    });
  });

  describe('a level change', () => {
    it('writes user.privacy.updated, delivered only to endpoints that enable it', async () => {
      const group = await t.newGroup(acme, 'Events');
      // An endpoint created the spec's way takes the spec's two events only.
      const hook = await t.request('POST', `/webhooks/${group.groupID}`, {
        apiKey: acme.apiKey,
        body: { url: 'https://hooks.example.com/in', description: 'spec events' },
      });
      expect(hook.status).toBe(200);
      // One that enabled it (the API to choose comes with webhooks v2, docs/webhooks.md).
      const opted = await t.request('POST', `/webhooks/${group.groupID}`, {
        apiKey: acme.apiKey,
        body: { url: 'https://hooks.example.com/privacy', description: 'privacy events' },
      });
      await t.db.query(
        `UPDATE webhook_endpoints SET enabled_events = enabled_events || '{user.privacy.updated}'
          WHERE id = $1`,
        [(opted.body as { id: string }).id],
      );
      const me = await checkIn(group);
      await post(`${me.path}/privacy`, { privacyLevel: '4' });
      await post(`${me.path}/privacy`, { privacyLevel: '4' }); // no change: no event
      await post(`${me.path}/privacy`, { privacyLevel: '2' });
      const events = await eventsOf('user.privacy.updated', group.groupID);
      expect(events).toEqual([
        {
          payload: {
            groupID: group.groupID,
            userIdentifier: me.externalId,
            privacyLevel: 4,
            previousPrivacyLevel: 0,
            timestamp: match.any(String),
          },
          deliveries: 1,
        },
        {
          payload: {
            groupID: group.groupID,
            userIdentifier: me.externalId,
            privacyLevel: 2,
            previousPrivacyLevel: 4,
            timestamp: match.any(String),
          },
          deliveries: 1,
        },
      ]);
    });

    /** The notices of a raised level that reached `email`, in the order received. */
    const noticesTo = (email: string) =>
      smtp.mails
        .filter((mail) => mail.to.includes(email))
        .map((mail) => mail.parsed)
        .filter((mail) => mail.subject?.includes('was raised'));
    /** The participant's notices as stored, oldest first. */
    const noticeRows = async (externalId: string) =>
      (
        await t.db.query<{ status: string; details: unknown; waits: boolean | null }>(
          `SELECT e.status, e.details, e.send_after > now() AS waits FROM email_messages e
             JOIN participants p ON p.id = e.participant_id
            WHERE p.external_id = $1 AND e.type = 'privacyNotice' ORDER BY e.created_at`,
          [externalId],
        )
      ).rows;
    const raises = (...levels: [number, number][]) => ({
      from: levels[0][0],
      to: levels[levels.length - 1][1],
      raises: levels.map(([from, to]) => ({ from, to, at: match.any(String) })),
    });

    it('mails a notice when the level rises (whatever the preferences), not when it falls', async () => {
      const group = await t.newGroup(acme, 'Night shift');
      const me = await checkIn(group);
      // Preferences off: the notice is a security message and still goes.
      await post(`${me.path}/preferences`, {});
      await post(`${me.path}/privacy`, { privacyLevel: '3' });
      await eventually(async () => {
        expect(noticesTo(me.email)).toHaveLength(1);
        return Promise.resolve();
      });
      const [notice] = noticesTo(me.email);
      expect(notice.subject).toBe('Your privacy level with Night shift was raised');
      expect(notice.text).toContain('was raised from level 0 to level 3.');
      expect(notice.text).toContain(`Before: ${levelInWordsIn('en', 0)}`);
      expect(notice.text).toContain(`Now: ${levelInWordsIn('en', 3)}`);
      expect(notice.text).toMatch(/\nWhen: [^\n]+ 2\d{3} at \d\d:\d\d\s[AP]M UTC\n/);
      const link = /Lower it here: (\S+)/.exec(notice.text ?? '')![1];
      expect(new URL(link).pathname).toBe('/participant/settings');
      expect(notice.headerLines.some((line) => line.key === 'list-unsubscribe')).toBe(false);
      // The link works: lower the level there.
      const settings = new URL(link);
      expect(
        (
          await post(`/participant/settings/privacy${settings.search}`, {
            privacyLevel: '0',
          })
        ).status,
      ).toBe(303);
      // Lowering mails nothing; raising again within the hour is not silenced: its notice waits
      // for the end of the hour that began with the first mail.
      // (Were the first still being sent, the raise would not be in it and would end up there too.)
      await post(`${me.path}/privacy`, { privacyLevel: '5' });
      await eventually(async () => {
        expect(await noticeRows(me.externalId)).toEqual([
          { status: 'sent', details: raises([0, 3]), waits: null },
          { status: 'queued', details: raises([0, 5]), waits: true },
        ]);
      });
    });

    it('two raises within the hour in two browsers are both mailed, none silenced; raises while a notice is queued are in that one mail', async () => {
      const group = await t.newGroup(acme, 'Red team');
      const me = await checkIn(group);
      /** The enterprise opens a check-in link it minted for her in a browser of its own. */
      const enterpriseBrowser = async () => {
        const browser = new PageBrowser(t.baseUrl);
        const own = (await t.createSession(acme, group, me.externalId)).body as SessionCreated;
        const path = new URL(own.redirectUrl).pathname;
        expect((await browser.post(`${path}/start`)).status).toBe(303);
        return (level: number) => browser.post(`${path}/privacy`, { privacyLevel: String(level) });
      };
      const first = await enterpriseBrowser();
      const second = await enterpriseBrowser();

      // 0 → 1 in one browser: mailed at once.
      expect((await first(1)).status).toBe(303);
      await eventually(async () => {
        expect(noticesTo(me.email)).toHaveLength(1);
        return Promise.resolve();
      });
      expect(noticesTo(me.email)[0].text).toContain('was raised from level 0 to level 1.');
      // 1 → 5 in the other within the hour, then 5 → 2 → 4: one notice, still queued, holds both
      // raises, in order, until the hour's end.
      expect((await second(5)).status).toBe(303);
      expect((await second(2)).status).toBe(303);
      expect((await second(4)).status).toBe(303);
      await eventually(async () => {
        expect(await noticeRows(me.externalId)).toEqual([
          { status: 'sent', details: raises([0, 1]), waits: null },
          { status: 'queued', details: raises([1, 5], [2, 4]), waits: true },
        ]);
      });
      expect(noticesTo(me.email)).toHaveLength(1);

      // The hour passes (its end moved to now): the second mail lists both raises.
      await t.db.query(
        `UPDATE email_messages SET send_after = now()
          WHERE participant_id = (SELECT id FROM participants WHERE external_id = $1)
            AND status = 'queued'`,
        [me.externalId],
      );
      await eventually(async () => {
        expect(noticesTo(me.email)).toHaveLength(2);
        return Promise.resolve();
      }, 10_000);
      const later = noticesTo(me.email)[1];
      expect(later.subject).toBe('Your privacy level with Red team was raised');
      const text = later.text ?? '';
      expect(text).toContain('Your privacy level with Red team at Acme was raised 2 times:');
      const step1 = text.indexOf('1. From level 1 to level 5');
      const step2 = text.indexOf('2. From level 2 to level 4');
      expect(step1).toBeGreaterThan(0);
      expect(step2).toBeGreaterThan(step1);
      expect(text.slice(step1, step2)).toContain(`Before: ${levelInWordsIn('en', 1)}`);
      expect(text.slice(step1, step2)).toContain(`Now: ${levelInWordsIn('en', 5)}`);
      expect(text.slice(step1, step2)).toMatch(/When: [^\n]+ UTC/);
      expect(text.slice(step2)).toContain(`Now: ${levelInWordsIn('en', 4)}`);
      expect(text).toMatch(/Lower it here: \S+\/participant\/settings\?token=/);
      expect(later.html).toContain('2. From level 2 to level 4');
      await eventually(async () => {
        expect(await noticeRows(me.externalId)).toEqual([
          { status: 'sent', details: raises([0, 1]), waits: null },
          { status: 'sent', details: raises([1, 5], [2, 4]), waits: false },
        ]);
      });
    });
  });

  describe('consent', () => {
    let group: TestGroup;
    beforeAll(async () => {
      group = await t.newGroup(acme, 'Consent');
      await t.request('PUT', `/groups/${group.groupID}`, {
        apiKey: acme.apiKey,
        body: { consentRequired: 'true' },
      });
    });

    it('is enforced at ingestion: 409 and nothing stored without it', async () => {
      const me = await checkIn(group);
      const refused = await postResult(t, me.sessionId, RESULT);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ error: IngestionErrors.ConsentMissing });
      const { rows } = await t.db.query(
        `SELECT status, mhci, word_counts AS words FROM sessions s WHERE session_id = $1`,
        [me.sessionId],
      );
      expect(rows).toEqual([{ status: 'created', mhci: null, words: null }]);
      expect(await eventsOf('user.session.result', group.groupID)).toEqual([]);
      // With consent the same result is taken.
      await post(`${me.path}/consent`);
      expect((await postResult(t, me.sessionId, RESULT)).status).toBe(200);
    });

    it('is given per check-in, on its own page: consent given through another link lets no other check-in in', async () => {
      // The member's own check-in, started in their browser, not consented to yet.
      const me = await checkIn(group);
      // The enterprise mints a link of its own for the member and consents there, in its browser.
      const enterprise = new PageBrowser(t.baseUrl);
      const own = (await t.createSession(acme, group, me.externalId)).body as SessionCreated;
      const ownPath = new URL(own.redirectUrl).pathname;
      expect((await enterprise.post(`${ownPath}/start`)).status).toBe(303);
      expect((await enterprise.post(`${ownPath}/consent`)).status).toBe(303);
      // The membership shows consent, but the member's check-in still asks, and its result is
      // refused until they consent on its page.
      expect((await page(me.path)).html).toContain(PageTexts.consentButton);
      const refused = await postResult(t, me.sessionId, RESULT);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ error: IngestionErrors.ConsentMissing });
      // A check-in never opened in a browser is refused too.
      const unopened = (await t.createSession(acme, group, me.externalId)).body as SessionCreated;
      expect((await postResult(t, unopened.sessionID, RESULT)).status).toBe(409);
      // The member consents to their check-in: it is taken, and only it.
      expect((await post(`${me.path}/consent`)).status).toBe(303);
      expect((await postResult(t, me.sessionId, RESULT)).status).toBe(200);
      expect((await postResult(t, unopened.sessionID, RESULT)).status).toBe(409);
    });

    it('can be withdrawn on the settings page: level 0, ledger rows, asked again, results refused', async () => {
      const me = await checkIn(group);
      await post(`${me.path}/consent`);
      await post(`${me.path}/privacy`, { privacyLevel: '4' });
      const settings = await settingsPath(me.externalId, group.groupID);
      const before = await page(settings);
      expect(before.html).toContain(PageTexts.withdrawButton);

      const withdrawn = await post(settingsAction(settings, 'consent/withdraw'));
      expect(withdrawn.status).toBe(303);
      expect(withdrawn.location).toContain('saved=withdrawn');
      expect((await page(withdrawn.location!)).html).toContain(SAVED_MESSAGES.withdrawn);
      const { rows } = await t.db.query(
        `SELECT m.privacy_level, m.consented_at FROM memberships m
           JOIN participants p ON p.id = m.participant_id WHERE p.external_id = $1`,
        [me.externalId],
      );
      expect(rows).toEqual([{ privacy_level: 0, consented_at: null }]);
      const ledger = (await consents(me.externalId)).body as { change: string; via: string }[];
      expect(ledger.slice(-2)).toEqual([
        expect.objectContaining({ change: 'consent', from: true, to: false, via: 'settings' }),
        expect.objectContaining({ change: 'privacyLevel', from: 4, to: 0, via: 'settings' }),
      ]);
      expect((await eventsOf('user.privacy.updated', group.groupID)).at(-1)?.payload).toMatchObject(
        { privacyLevel: 0, previousPrivacyLevel: 4 },
      );
      // The link used is revoked (docs/security.md); this browser continues on the fresh one.
      expect((await page(settings)).status).toBe(404);
      const fresh = withdrawn.location!.replace('&saved=withdrawn', '');
      // No withdraw button once withdrawn; a second withdrawal changes nothing.
      expect((await page(fresh)).html).not.toContain(PageTexts.withdrawButton);
      expect((await post(settingsAction(fresh, 'consent/withdraw'))).status).toBe(303);
      expect(((await consents(me.externalId)).body as unknown[]).length).toBe(ledger.length);
      // The pending check-in asks for consent again, and its result is refused meanwhile.
      expect((await page(me.path)).html).toContain(PageTexts.consentButton);
      expect((await postResult(t, me.sessionId, RESULT)).status).toBe(409);
    });

    it('a consent the enterprise gives in its own browser after a withdrawal does not bring back the check-in the member withdrew from; the member’s own consent does', async () => {
      // The member consents on check-in s1 and is handed off to the engine.
      const me = await checkIn(group);
      expect((await post(`${me.path}/consent`)).status).toBe(303);
      const settings = await settingsPath(me.externalId, group.groupID);
      // She withdraws on the settings page: s1's result is refused.
      expect((await post(settingsAction(settings, 'consent/withdraw'))).status).toBe(303);
      expect((await postResult(t, me.sessionId, RESULT)).status).toBe(409);
      // The enterprise consents on a fresh link of hers, in its own browser.
      const enterprise = new PageBrowser(t.baseUrl);
      const own = (await t.createSession(acme, group, me.externalId)).body as SessionCreated;
      const ownPath = new URL(own.redirectUrl).pathname;
      expect((await enterprise.post(`${ownPath}/start`)).status).toBe(303);
      expect((await enterprise.post(`${ownPath}/consent`)).status).toBe(303);
      // s1's result is still refused, and nothing of it is stored or counted.
      const refused = await postResult(t, me.sessionId, RESULT);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ error: IngestionErrors.ConsentMissing });
      const { rows } = await t.db.query(
        `SELECT status, consented_at FROM sessions WHERE session_id = $1`,
        [me.sessionId],
      );
      expect(rows).toEqual([{ status: 'created', consented_at: null }]);
      // She consents again on s1's page, in her browser: its result is taken.
      expect((await page(me.path)).html).toContain(PageTexts.consentButton);
      expect((await post(`${me.path}/consent`)).status).toBe(303);
      expect((await postResult(t, me.sessionId, RESULT)).status).toBe(200);
    });
  });
});
