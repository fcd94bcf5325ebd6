/**
 * The participant pages over real HTTP: consent gating, the privacy review notice, the forms
 * (post/redirect/get), `/done`, the settings page from emails, bad links, security headers and
 * escaping. Browser behaviour (clicking, following redirects) is in checkin-browser.e2e-spec.ts.
 */
import { PAGE_ERRORS, PageTexts, SAVED_MESSAGES } from '../src/pages/pages.messages';
import { PRIVACY_LEVELS } from '../src/common/privacy-model';
import { LinkTokens } from '../src/participant-links/link-tokens';
import { ParticipantLinks } from '../src/participant-links/participant-links';
import { conversation, ENGINE_TOKEN, engineResult, postResult } from './support/engine';
import { PageAnswer, PageBrowser, PageRequest } from './support/page-browser';
import {
  SessionCreated,
  startTestApp,
  TestApp,
  TestEnterprise,
  TestGroup,
} from './support/test-app';

const ENGINE_URL = 'https://engine.example.com/start';
const RETURN_URL = 'https://app.example.com/done?visit=7';

interface Checkin {
  group: TestGroup;
  sessionId: string;
  externalId: string;
  token: string;
  /** `/checkin/<token>`, taken from redirectUrl. */
  path: string;
}

interface MemberRow {
  participant_id: string;
  group_id: string;
  privacy_level: number;
  consented_at: Date | null;
  pref_checkin_reminder: boolean;
  pref_privacy_request: boolean;
}

/**
 * This file's browser (the pages bind links to it, docs/privacy.md); the binding itself is tested in
 * checkin-browser.e2e-spec.ts.
 */
const browser = new PageBrowser();

/** A page as this file's browser fetches it, without following redirects. */
const fetchPage = (t: TestApp, path: string, init: PageRequest = {}): Promise<PageAnswer> =>
  browser.request(`${t.baseUrl}${path}`, init);

const post = (
  t: TestApp,
  path: string,
  form: Record<string, string> | string = {},
  contentType?: string,
) => fetchPage(t, path, { method: 'POST', form, contentType });

/** Every page (and redirect) carries these. */
function expectPageHeaders(page: PageAnswer, engineOrigin: string | null = null): void {
  expect(page.headers.get('cache-control')).toBe('no-store');
  expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  expect(page.headers.get('content-security-policy')).toBe(
    `default-src 'none'; style-src 'self' 'unsafe-inline'; ` +
      `form-action 'self'${engineOrigin ? ` ${engineOrigin}` : ''}; ` +
      `base-uri 'none'; frame-ancestors 'none'`,
  );
}

function expectHtmlPage(page: PageAnswer, status: number): void {
  expect({ status: page.status, type: page.headers.get('content-type') }).toEqual({
    status,
    type: 'text/html; charset=utf-8',
  });
  expect(page.html).toMatch(/^<!doctype html>\n<html lang="en" dir="ltr">/);
  expect(page.html).not.toMatch(/<script/i);
}

/** The error page of `kind`, and no trace of how it failed. */
function expectErrorPage(page: PageAnswer, status: number, kind: keyof typeof PAGE_ERRORS): void {
  expectHtmlPage(page, status);
  expect(page.html).toContain(`<h1>${PAGE_ERRORS[kind].title}</h1>`);
  expect(page.html).not.toMatch(/"error"|stack|\.ts:\d+|QueryFailedError|column/i);
}

/** The value attribute of the checked radio button. */
const checkedLevel = (html: string): string | undefined =>
  /<input type="radio" name="privacyLevel" id="privacy-level-\d" value="(\d)" checked>/.exec(
    html,
  )?.[1];

const isChecked = (html: string, name: string): boolean =>
  new RegExp(`<input type="checkbox" name="${name}"[^>]* checked>`).test(html);

describe('Check-in pages', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let emails = 0;

  beforeAll(async () => {
    t = await startTestApp({
      ENGINE_URL,
      ENGINE_TOKEN,
      OPERATOR_NAME: 'Wellbeing Services Ltd',
      PRIVACY_NOTICE_URL: 'https://wellbeing.example.com/privacy',
      EMAIL_FROM: 'Wellbeing <no-reply@wellbeing.example.com>',
    });
    acme = await t.newEnterprise('Acme');
  });
  afterAll(() => t.close());

  async function newCheckin(
    groupName = 'Night shift',
    setup: { group?: TestGroup; identifier?: string; returnURL?: string } = {},
  ): Promise<Checkin> {
    const group = setup.group ?? (await t.newGroup(acme, groupName));
    emails += 1;
    const created = await t.createSession(
      acme,
      group,
      setup.identifier ?? `person${emails}@example.com`,
      { returnURL: setup.returnURL ?? RETURN_URL },
    );
    expect(created.status).toBe(200);
    const body = created.body as SessionCreated;
    const path = new URL(body.redirectUrl).pathname;
    expect(path).toMatch(/^\/checkin\/k0\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    // The participant starts their check-in in this file's browser.
    expect((await post(t, `${path}/start`)).status).toBe(303);
    return {
      group,
      sessionId: body.sessionID,
      externalId: body.userIdentifier,
      token: decodeURIComponent(path.slice('/checkin/'.length)),
      path,
    };
  }

  const member = async (checkin: Checkin): Promise<MemberRow> =>
    (
      await t.db.query<MemberRow>(
        `SELECT m.participant_id, m.group_id, m.privacy_level, m.consented_at,
                p.pref_checkin_reminder, p.pref_privacy_request
           FROM sessions s
           JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
           JOIN participants p ON p.id = s.participant_id
          WHERE s.session_id = $1`,
        [checkin.sessionId],
      )
    ).rows[0];

  const requestGroupPrivacy = async (group: TestGroup, names: string[]) => {
    const response = await t.request('POST', `/configure/groups/${group.groupID}/privacy`, {
      apiKey: acme.apiKey,
      body: { requestedPrivacyLevel: names },
    });
    expect(response.status).toBe(200);
  };

  const requireConsent = async (group: TestGroup) => {
    const response = await t.request('PUT', `/groups/${group.groupID}`, {
      apiKey: acme.apiKey,
      body: { consentRequired: 'true' },
    });
    expect(response.status).toBe(200);
  };

  describe('GET /checkin/{token}', () => {
    it('shows the privacy level, email preferences and the hand-off, as accessible HTML', async () => {
      const checkin = await newCheckin('Night shift');
      const page = await fetchPage(t, checkin.path);
      expectHtmlPage(page, 200);
      expectPageHeaders(page, 'https://engine.example.com');
      const { html } = page;
      expect(html).toContain(`<title>${PageTexts.checkinTitle('Night shift')}</title>`);
      expect(html.match(/<h1>/g)).toHaveLength(1);
      expect(html).toContain(`<h1>${PageTexts.checkinTitle('Night shift')}</h1>`);
      // Sections in the order docs/checkin-flow.md gives; no consent (not required), no review notice (nothing asked).
      const order = [
        PageTexts.privacyHeading,
        PageTexts.preferencesHeading,
        PageTexts.handoffHeading,
      ].map((heading) => html.indexOf(`>${heading}</h2>`));
      expect(order.every((index) => index > 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      expect(html).not.toContain(PageTexts.consentHeading);
      expect(html).not.toContain(PageTexts.privacyNoticeHeading);
      // Every level explained, the current one (0) chosen, inside a fieldset with a legend.
      expect(html).toContain(`<legend>${PageTexts.privacyLegend}</legend>`);
      for (const level of PRIVACY_LEVELS) expect(html).toContain(PageTexts.levelText(level));
      expect(checkedLevel(html)).toBe('0');
      // One form for the level and the preferences: no choice is lost (docs/accessibility.md).
      expect(html).toContain(`action="${checkin.path}/choices"`);
      expect(html.match(/<form /g)).toHaveLength(2); // the choices, and the hand-off
      // Every control has its label.
      const ids = [...html.matchAll(/<input [^>]*id="([^"]+)"/g)].map((match) => match[1]);
      expect(ids).toHaveLength(8);
      for (const id of ids) expect(html).toContain(`<label for="${id}">`);
      // Preferences default to on.
      expect(isChecked(html, 'checkinReminder')).toBe(true);
      expect(isChecked(html, 'privacyRequest')).toBe(true);
      // Hand-off to the engine (a form: it records the level the check-in is shared at), and
      // "I have finished".
      expect(html).toContain(
        `<form method="post" action="${checkin.path}/handoff"><button type="submit">${PageTexts.handoffButton}</button></form>`,
      );
      expect(html).toContain(`href="${checkin.path}/done">${PageTexts.finishedLink}</a>`);
    });

    it('hands off to the engine with the session id, sharing the check-in at the level chosen', async () => {
      const checkin = await newCheckin('Hand-off');
      const sharedLevel = async () =>
        (
          await t.db.query<{ shared_level: number | null }>(
            'SELECT shared_level FROM sessions WHERE session_id = $1',
            [checkin.sessionId],
          )
        ).rows[0].shared_level;
      expect(await sharedLevel()).toBeNull();
      expect((await post(t, `${checkin.path}/privacy`, { privacyLevel: '3' })).status).toBe(303);
      const handoff = await post(t, `${checkin.path}/handoff`);
      expect(handoff.status).toBe(303);
      expect(handoff.headers.get('location')).toMatch(
        new RegExp(
          `^${ENGINE_URL.replace(/[.?]/g, '\\$&')}\\?sessionID=${checkin.sessionId}&handoff=[A-Za-z0-9_-]{43}$`,
        ),
      );
      expect(await sharedLevel()).toBe(3);
      // Another browser cannot hand it off (nor set its level).
      const other = await fetch(`${t.baseUrl}${checkin.path}/handoff`, {
        method: 'POST',
        redirect: 'manual',
      });
      expect(other.status).toBe(403);
    });

    it('escapes the group name everywhere', async () => {
      const checkin = await newCheckin('<script>alert(1)</script> & "friends"');
      const page = await fetchPage(t, checkin.path);
      expectHtmlPage(page, 200);
      expect(page.html).toContain(
        '<h1>Your check-in with &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;friends&quot;</h1>',
      );
      expect(page.html).not.toContain('<script>alert(1)');
    });

    it('answers HEAD like GET, without a body', async () => {
      const checkin = await newCheckin();
      const page = await fetchPage(t, checkin.path, { method: 'HEAD' });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.html).toBe('');
    });
  });

  describe('consent', () => {
    it('says who asks and what happens before anything is recorded; "No, thanks" records nothing', async () => {
      const group = await t.newGroup(acme, 'Asking first');
      await requireConsent(group);
      const checkin = await newCheckin('', { group });
      const before = await fetchPage(t, checkin.path);
      // Who: the group and its enterprise on the page; the operator and its privacy notice.
      expect(before.html).toContain(
        `<p class="who">${PageTexts.whoLine('Asking first', 'Acme')}</p>`,
      );
      expect(before.html).toContain(PageTexts.aboutOperator('Wellbeing Services Ltd', 'Acme'));
      expect(before.html).toContain(
        `<a href="https://wellbeing.example.com/privacy">${PageTexts.privacyNoticeLink}</a>`,
      );
      // What: camera and microphone, what the employer sees at the level now (0), retention.
      expect(before.html).toContain(PageTexts.aboutConversation);
      expect(before.html).toContain(PageTexts.aboutEmployerSees(0, 'Acme'));
      expect(before.html).toContain(PageTexts.aboutRetention(0)); // TRANSCRIPT_RETENTION_DAYS=0 here
      expect(PageTexts.aboutRetention(30)).toBe(
        'The transcript of your conversation is deleted 30 days after your check-in.',
      );
      // A real "No, thanks": a page, and nothing recorded.
      expect(before.html).toContain(
        `<a class="button secondary" href="${checkin.path}/declined">${PageTexts.consentDeclineButton}</a>`,
      );
      const declined = await fetchPage(t, `${checkin.path}/declined`);
      expectHtmlPage(declined, 200);
      expect(declined.html).toContain(`<h1>${PageTexts.declinedTitle}</h1>`);
      expect(declined.html).toContain(PageTexts.declinedText);
      expect(await member(checkin)).toMatchObject({ consented_at: null, privacy_level: 0 });
      expect(
        await t.db.query('SELECT 1 FROM consent_ledger WHERE group_id = $1', [group.groupID]),
      ).toMatchObject({ rowCount: 0 });
      expect((await fetchPage(t, '/checkin/not-a-link/declined')).status).toBe(404);
    });

    it('offers only the consent form until consent is given', async () => {
      const group = await t.newGroup(acme, 'Consenting');
      await requireConsent(group);
      await requestGroupPrivacy(group, ['transcript']);
      const checkin = await newCheckin('', { group });

      const before = await fetchPage(t, checkin.path);
      expectHtmlPage(before, 200);
      expect(before.html).toContain(`>${PageTexts.consentHeading}</h2>`);
      // It names the enterprise that asks, not "the organisation behind this group".
      expect(before.html).toContain(PageTexts.consentText('Consenting', 'Acme'));
      expect(before.html).not.toContain('organisation behind');
      expect(before.html).toContain(`<form method="post" action="${checkin.path}/consent">`);
      // Nothing else: no privacy form, no preferences, no hand-off, no way to finish.
      expect(before.html).not.toContain('privacyLevel');
      expect(before.html).not.toContain('checkinReminder');
      expect(before.html).not.toContain(ENGINE_URL);
      expect(before.html).not.toContain('/done');
      expect(before.html).not.toContain(PageTexts.privacyNoticeHeading);

      // The other forms are refused before consent, and change nothing.
      const early = await post(t, `${checkin.path}/privacy`, { privacyLevel: '4' });
      expectErrorPage(early, 403, 'consent-first');
      expect(early.html).toContain(`href="${checkin.path}"`);
      const earlyPreferences = await post(t, `${checkin.path}/preferences`, {});
      expectErrorPage(earlyPreferences, 403, 'consent-first');
      expect(await member(checkin)).toMatchObject({
        privacy_level: 0,
        consented_at: null,
        pref_checkin_reminder: true,
        pref_privacy_request: true,
      });

      const consent = await post(t, `${checkin.path}/consent`);
      expect(consent.status).toBe(303);
      expect(consent.headers.get('location')).toBe(`${checkin.path}?saved=consent`);
      expectPageHeaders(consent, 'https://engine.example.com');
      const consentedAt = (await member(checkin)).consented_at;
      expect(consentedAt).toBeInstanceOf(Date);

      const after = await fetchPage(t, `${checkin.path}?saved=consent`);
      // The status message takes the focus (autofocus, focusable with tabindex -1).
      expect(after.html).toContain(
        `<p class="saved" role="status" id="status" tabindex="-1" autofocus>${SAVED_MESSAGES.consent}</p>`,
      );
      expect(after.html).not.toContain(`action="${checkin.path}/consent"`);
      expect(after.html).toContain(PageTexts.privacyNoticeHeading);
      expect(after.html).toContain(`action="${checkin.path}/handoff"`);

      // Consenting again keeps the first time.
      expect((await post(t, `${checkin.path}/consent`)).status).toBe(303);
      expect((await member(checkin)).consented_at).toEqual(consentedAt);
    });
  });

  describe('privacy level', () => {
    it('shows the review notice only while the requested level exceeds the participant’s', async () => {
      const checkin = await newCheckin('Reviewers');
      await requestGroupPrivacy(checkin.group, ['mhci', 'transcript']);

      const notice = await fetchPage(t, checkin.path);
      expect(notice.html).toContain(`>${PageTexts.privacyNoticeHeading}</h3>`);
      expect(notice.html).toContain(PageTexts.privacyNoticeRequest('Reviewers', 4));
      expect(notice.html).toContain(PageTexts.privacyNoticeCurrent(0));
      expect(notice.html).toContain(PageTexts.privacyNoticeKeep);
      // The notice comes before the choices; the requested level is marked, the current checked.
      expect(notice.html.indexOf(PageTexts.privacyNoticeHeading)).toBeLessThan(
        notice.html.indexOf('name="privacyLevel"'),
      );
      expect(notice.html).toMatch(
        /<label for="privacy-level-4"><strong>Level 4<\/strong> <span class="tag requested">requested<\/span>/,
      );
      expect(checkedLevel(notice.html)).toBe('0');

      // Raising the level through the form changes the membership.
      const saved = await post(t, `${checkin.path}/privacy`, { privacyLevel: '4' });
      expect(saved.status).toBe(303);
      expect(saved.headers.get('location')).toBe(`${checkin.path}?saved=privacy`);
      expect((await member(checkin)).privacy_level).toBe(4);

      const after = await fetchPage(t, saved.headers.get('location')!);
      expect(after.html).toContain(SAVED_MESSAGES.privacy);
      expect(after.html).not.toContain(PageTexts.privacyNoticeHeading);
      expect(checkedLevel(after.html)).toBe('4');

      // A level at or above the request: no notice; the participant may also lower it again.
      expect((await post(t, `${checkin.path}/privacy`, { privacyLevel: '5' })).status).toBe(303);
      expect((await fetchPage(t, checkin.path)).html).not.toContain(PageTexts.privacyNoticeHeading);
      expect((await post(t, `${checkin.path}/privacy`, { privacyLevel: '1' })).status).toBe(303);
      expect((await member(checkin)).privacy_level).toBe(1);
      expect((await fetchPage(t, checkin.path)).html).toContain(PageTexts.privacyNoticeHeading);
    });

    it('refuses anything but a whole number from 0 to 5 with a 400 page, changing nothing', async () => {
      const checkin = await newCheckin('Strict');
      expect((await post(t, `${checkin.path}/privacy`, { privacyLevel: '3' })).status).toBe(303);
      const forms: Record<string, string>[] = [
        { privacyLevel: '-1' },
        { privacyLevel: '6' },
        { privacyLevel: 'abc' },
        { privacyLevel: '' },
        { privacyLevel: '2.5' },
        { privacyLevel: ' 2' },
        {},
        { privacy: '2' },
      ];
      for (const form of forms) {
        const page = await post(t, `${checkin.path}/privacy`, form);
        expectErrorPage(page, 400, 'invalid-privacy-level');
        expectPageHeaders(page, 'https://engine.example.com');
        expect(page.html).toContain(PAGE_ERRORS['invalid-privacy-level'].text);
        expect(page.html).toContain(`href="${checkin.path}"`);
      }
      expect((await post(t, `${checkin.path}/privacy`, '')).status).toBe(400);
      expect((await member(checkin)).privacy_level).toBe(3);
    });

    it('refuses a form over 1 MiB with an HTML 413 page (raised before the route), changing nothing', async () => {
      const checkin = await newCheckin('Oversized');
      const page = await post(
        t,
        `${checkin.path}/privacy`,
        `privacyLevel=2&pad=${'x'.repeat(1_100_000)}`,
      );
      expectErrorPage(page, 413, 'unreadable-form');
      expect((await member(checkin)).privacy_level).toBe(0);
      const unknown = await t.request('GET', '/checkin/');
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('content-type')).toMatch(/^text\/html/);
    });

    it('refuses a body that is not a form with an HTML page', async () => {
      const checkin = await newCheckin('Media types');
      const page = await post(t, `${checkin.path}/privacy`, 'privacyLevel=2', 'text/plain');
      expectErrorPage(page, 415, 'unreadable-form');
      expect((await member(checkin)).privacy_level).toBe(0);
    });
  });

  describe('email preferences', () => {
    it('saves checked boxes as on and absent ones as off', async () => {
      const checkin = await newCheckin('Mail');
      const onlyReminders = await post(t, `${checkin.path}/preferences`, {
        checkinReminder: 'on',
      });
      expect(onlyReminders.status).toBe(303);
      expect(onlyReminders.headers.get('location')).toBe(`${checkin.path}?saved=preferences`);
      expect(await member(checkin)).toMatchObject({
        pref_checkin_reminder: true,
        pref_privacy_request: false,
      });
      let page = await fetchPage(t, `${checkin.path}?saved=preferences`);
      expect(page.html).toContain(SAVED_MESSAGES.preferences);
      expect(isChecked(page.html, 'checkinReminder')).toBe(true);
      expect(isChecked(page.html, 'privacyRequest')).toBe(false);

      expect((await post(t, `${checkin.path}/preferences`, {})).status).toBe(303);
      expect(await member(checkin)).toMatchObject({
        pref_checkin_reminder: false,
        pref_privacy_request: false,
      });
      page = await fetchPage(t, checkin.path);
      expect(isChecked(page.html, 'checkinReminder')).toBe(false);
      expect(isChecked(page.html, 'privacyRequest')).toBe(false);

      const both = { checkinReminder: 'on', privacyRequest: 'on' };
      expect((await post(t, `${checkin.path}/preferences`, both)).status).toBe(303);
      expect(await member(checkin)).toMatchObject({
        pref_checkin_reminder: true,
        pref_privacy_request: true,
      });
    });
  });

  describe('GET /checkin/{token}/done', () => {
    it('says "still analysing" until the result is in, then redirects to the returnURL', async () => {
      const checkin = await newCheckin('Finishers');
      const pending = await fetchPage(t, `${checkin.path}/done`);
      expectHtmlPage(pending, 200);
      expectPageHeaders(pending, 'https://engine.example.com');
      expect(pending.html).toContain(`<h1>${PageTexts.pendingTitle}</h1>`);
      // It never reloads itself (docs/accessibility.md): the participant tries again.
      expect(pending.html).not.toContain('http-equiv="refresh"');
      expect(pending.html).toContain(`href="${checkin.path}/done">${PageTexts.pendingTryAgain}`);

      await t.db.query(
        `UPDATE sessions SET status = 'completed', completed_at = now(), version = 'v1.0.0',
                mhci = 50 WHERE session_id = $1`,
        [checkin.sessionId],
      );
      const done = await fetchPage(t, `${checkin.path}/done`);
      expect(done.status).toBe(302);
      expect(done.headers.get('location')).toBe(RETURN_URL);
      expectPageHeaders(done, 'https://engine.example.com');

      // The check-in page now offers to continue instead of the hand-off.
      const page = await fetchPage(t, checkin.path);
      expect(page.html).toContain(PageTexts.handoffCompleted);
      expect(page.html).not.toContain(ENGINE_URL);
    });
  });

  describe('GET /checkin/{token}/done never answers 5xx (docs/security.md)', () => {
    const RESULT = engineResult({
      mhci: 64,
      subscores: { vision: 60, audio: 61, transcript: 62, assessment: 63 },
      transcript: conversation('How are you?', 'Fine, thanks.'),
      features: { pitch: 0.5 },
    });

    /** A check-in completed by the analysis engine (POST /internal/sessions/{id}/result). */
    const completedCheckin = async (returnURL: string): Promise<Checkin> => {
      const checkin = await newCheckin('Returners', { returnURL });
      const result = await postResult(t, checkin.sessionId, RESULT);
      expect(result.status).toBe(200);
      return checkin;
    };

    it('redirects to a returnURL beyond Latin-1, stored and sent normalised', async () => {
      const checkin = await completedCheckin('https://app.example.com/ü✓?q=€');
      const done = await fetchPage(t, `${checkin.path}/done`);
      expect(done.status).toBe(302);
      expect(done.headers.get('location')).toBe(
        'https://app.example.com/%C3%BC%E2%9C%93?q=%E2%82%AC',
      );
      expectPageHeaders(done, 'https://engine.example.com');
    });

    it.each([
      // Stored raw (written by hand): redirected to the normalised form.
      ['https://app.example.com/ü✓', 'https://app.example.com/%C3%BC%E2%9C%93'],
      ['https://app.example.com/€', 'https://app.example.com/%E2%82%AC'],
      ['https://app.example.com/é', 'https://app.example.com/%C3%A9'],
      // One the rules refuse: no redirect, a "your check-in is complete" page.
      ['https://app.example.com/a\nb', null],
      ['https://app.example.com/done\r\nSet-Cookie: taken=1', null],
      ['https://198.18.0.1/done', null],
      ['https://[::127.0.0.1]/done', null],
      ['https://192.168.0.1/done', null],
      ['http://app.example.com/done', null],
      ['not a url', null],
      ['', null],
    ])('handles a row stored with returnURL %j', async (stored, location) => {
      const checkin = await completedCheckin(RETURN_URL);
      await t.db.query('UPDATE sessions SET return_url = $2 WHERE session_id = $1', [
        checkin.sessionId,
        stored,
      ]);
      const done = await fetchPage(t, `${checkin.path}/done`);
      expectPageHeaders(done, 'https://engine.example.com');
      expect(done.headers.get('set-cookie')).toBeNull();
      if (location === null) {
        expectHtmlPage(done, 200);
        expect(done.headers.get('location')).toBeNull();
        expect(done.html).toContain(`<h1>${PageTexts.completedTitle}</h1>`);
        expect(done.html).toContain(PageTexts.completedText);
      } else {
        expect(done.status).toBe(302);
        expect(done.headers.get('location')).toBe(location);
      }
    });
  });

  describe('links that are not valid', () => {
    it('answers a friendly 404 page for bad, forged, expired and misdirected tokens', async () => {
      const checkin = await newCheckin('Links');
      const tokens = t.app.get(LinkTokens);
      const [keyId, payload, signature] = checkin.token.split('.');
      const dayAndAHour = (t.config.checkin.tokenTtlHours + 1) * 3600 * 1000;
      const bad = [
        'garbage',
        'a.b',
        `${keyId}.${payload}.${signature.slice(0, -2)}xx`,
        `${keyId}.${Buffer.from(JSON.stringify({ p: 'c', id: 'ses_other', exp: 9e9 })).toString('base64url')}.${signature}`,
        `k9.${payload}.${signature}`, // a key id that is not configured (retired)
        tokens.sign('checkin', checkin.sessionId, Date.now() - dayAndAHour),
        tokens.sign('settings', checkin.sessionId),
        tokens.sign('checkin', 'ses_000000000000000000000000'),
        tokens.sign('checkin', "ses_1' OR '1'='1"),
        'x'.repeat(1025),
      ];
      for (const token of bad) {
        const path = `/checkin/${encodeURIComponent(token)}`;
        for (const [method, suffix] of [
          ['GET', ''],
          ['GET', '/done'],
          ['POST', '/consent'],
          ['POST', '/privacy'],
          ['POST', '/preferences'],
        ]) {
          const page = await fetchPage(t, `${path}${suffix}`, {
            method,
            form: method === 'POST' ? { privacyLevel: '5', checkinReminder: 'on' } : undefined,
          });
          expectErrorPage(page, 404, 'not-found');
          expectPageHeaders(page, 'https://engine.example.com');
        }
      }
      expect(await member(checkin)).toMatchObject({ privacy_level: 0, consented_at: null });
      expectErrorPage(await fetchPage(t, '/checkin/'), 404, 'not-found');
      expectErrorPage(await fetchPage(t, '/checkin'), 404, 'not-found');
    });

    it('answers 404 once the group is deleted', async () => {
      const checkin = await newCheckin('Short-lived');
      expect((await fetchPage(t, checkin.path)).status).toBe(200);
      const deleted = await t.request('DELETE', `/groups/${checkin.group.groupID}`, {
        apiKey: acme.apiKey,
      });
      expect(deleted.status).toBe(200);
      expectErrorPage(await fetchPage(t, checkin.path), 404, 'not-found');
      expectErrorPage(await fetchPage(t, `${checkin.path}/done`), 404, 'not-found');
      expectErrorPage(
        await post(t, `${checkin.path}/privacy`, { privacyLevel: '1' }),
        404,
        'not-found',
      );
    });
  });

  describe('GET /participant/settings?token=…', () => {
    const settingsToken = async (checkin: Checkin) => {
      const { participant_id, group_id } = await member(checkin);
      return t.app.get(LinkTokens).sign('settings', `${participant_id}:${group_id}`, Date.now(), 0);
    };

    it('shows and saves the privacy level and email preferences of one membership', async () => {
      const checkin = await newCheckin('Settings <b>group</b>');
      await requireConsent(checkin.group);
      await requestGroupPrivacy(checkin.group, ['userPercentiles']);
      const token = await settingsToken(checkin);
      const query = `?token=${encodeURIComponent(token)}`;

      const page = await fetchPage(t, `/participant/settings${query}`);
      expectHtmlPage(page, 200);
      expectPageHeaders(page, 'https://engine.example.com');
      expect(page.html).toContain(
        `<h1>${PageTexts.settingsTitle('Settings &lt;b&gt;group&lt;/b&gt;')}</h1>`,
      );
      expect(page.html).toContain(PageTexts.privacyNoticeHeading);
      // One form for both choices (docs/accessibility.md: no choice is lost).
      expect(page.html).toContain(`action="/participant/settings/choices${query}"`);
      expect(page.html).not.toContain(`action="/participant/settings/preferences${query}"`);
      // No consent and no hand-off here.
      expect(page.html).not.toContain(PageTexts.consentHeading);
      expect(page.html).not.toContain(ENGINE_URL);
      expect(page.html).not.toContain('/done');

      const privacy = await post(t, `/participant/settings/privacy${query}`, { privacyLevel: '3' });
      expect(privacy.status).toBe(303);
      expect(privacy.headers.get('location')).toBe(`/participant/settings${query}&saved=privacy`);
      expect((await member(checkin)).privacy_level).toBe(3);

      const preferences = await post(t, `/participant/settings/preferences${query}`, {
        privacyRequest: 'on',
      });
      expect(preferences.status).toBe(303);
      expect(preferences.headers.get('location')).toBe(
        `/participant/settings${query}&saved=preferences`,
      );
      expect(await member(checkin)).toMatchObject({
        pref_checkin_reminder: false,
        pref_privacy_request: true,
      });

      const after = await fetchPage(t, `/participant/settings${query}&saved=privacy`);
      expect(after.html).toContain(SAVED_MESSAGES.privacy);
      expect(after.html).not.toContain(PageTexts.privacyNoticeHeading);
      expect(checkedLevel(after.html)).toBe('3');

      const invalid = await post(t, `/participant/settings/privacy${query}`, { privacyLevel: '9' });
      expectErrorPage(invalid, 400, 'invalid-privacy-level');
      expect(invalid.html).toContain(`href="/participant/settings${query}"`);
      expect((await member(checkin)).privacy_level).toBe(3);

      // The page's one form saves both choices at once: a chosen level is never dropped by
      // saving the preferences, nor the other way round.
      const both = await post(t, `/participant/settings/choices${query}`, {
        privacyLevel: '5',
        checkinReminder: 'on',
      });
      expect(both.status).toBe(303);
      expect(both.headers.get('location')).toBe(`/participant/settings${query}&saved=choices`);
      expect(await member(checkin)).toMatchObject({
        privacy_level: 5,
        pref_checkin_reminder: true,
        pref_privacy_request: false,
      });
      // An invalid level changes nothing, the preferences included.
      const refused = await post(t, `/participant/settings/choices${query}`, {
        privacyLevel: 'x',
        privacyRequest: 'on',
      });
      expectErrorPage(refused, 400, 'invalid-privacy-level');
      expect(await member(checkin)).toMatchObject({
        privacy_level: 5,
        pref_privacy_request: false,
      });
      const saved = await fetchPage(t, `/participant/settings${query}&saved=choices`);
      expect(saved.html).toContain(SAVED_MESSAGES.choices);
    });

    it('mints working links with ParticipantLinks.settingsUrl', async () => {
      const checkin = await newCheckin('Emails');
      const { participant_id, group_id } = await member(checkin);
      const url = t.app.get(ParticipantLinks).settingsUrl({
        participantId: participant_id,
        groupId: Number(group_id),
        linkVersion: 0,
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1\/participant\/settings\?token=[\w.-]+$/);
      const page = await fetchPage(t, url.slice('http://127.0.0.1'.length));
      expect(page.status).toBe(200);
      expect(page.html).toContain(PageTexts.settingsTitle('Emails'));
    });

    it('answers 404 for missing, bad, expired, check-in and misdirected tokens', async () => {
      const checkin = await newCheckin('Settings links');
      const other = await t.newGroup(acme, 'Another group');
      const tokens = t.app.get(LinkTokens);
      const { participant_id, group_id } = await member(checkin);
      // Settings links live as long as links in emails (EMAIL_LINK_TTL_DAYS).
      const dayAndAHour = (t.config.email.linkTtlHours + 1) * 3600 * 1000;
      const queries = [
        '',
        '?token=',
        '?token=garbage',
        `?token=${tokens.sign('settings', `${participant_id}:${group_id}`, Date.now() - dayAndAHour, 0)}`,
        `?token=${checkin.token}`,
        `?token=${tokens.sign('settings', `${participant_id}:${other.groupID}`, Date.now(), 0)}`,
        `?token=${tokens.sign('settings', 'not-a-uuid:1', Date.now(), 0)}`,
        `?token=${tokens.sign('settings', `${participant_id}`, Date.now(), 0)}`,
        `?token=${tokens.sign('settings', `${participant_id}:99999999999999999999`, Date.now(), 0)}`,
        `?token=${tokens.sign('settings', `${participant_id}:${group_id}`, Date.now(), 0)}&token=x`,
      ];
      for (const query of queries) {
        for (const [method, path] of [
          ['GET', '/participant/settings'],
          ['POST', '/participant/settings/privacy'],
          ['POST', '/participant/settings/preferences'],
        ]) {
          const page = await fetchPage(t, `${path}${query}`, {
            method,
            form: method === 'POST' ? { privacyLevel: '5' } : undefined,
          });
          expectErrorPage(page, 404, 'not-found');
        }
      }
      expect((await member(checkin)).privacy_level).toBe(0);
    });
  });
});

describe('Check-in pages without an analysis engine', () => {
  let t: TestApp;
  let acme: TestEnterprise;

  beforeAll(async () => {
    t = await startTestApp();
    acme = await t.newEnterprise('Acme');
  });
  afterAll(() => t.close());

  it('says the engine is not configured and shows developers how to simulate a result', async () => {
    const group = await t.newGroup(acme, 'Offline');
    const created = (await t.createSession(acme, group, 'solo@example.com')).body as SessionCreated;
    const path = new URL(created.redirectUrl).pathname;
    expect((await post(t, `${path}/start`)).status).toBe(303);
    const page = await fetchPage(t, path);
    expectHtmlPage(page, 200);
    expectPageHeaders(page);
    expect(page.html).toContain(PageTexts.handoffNotConfigured);
    expect(page.html).toContain(
      `<code>npm run cli:dev -- sessions:simulate-result ${created.sessionID}</code>`,
    );
    expect(page.html).not.toContain(PageTexts.handoffButton);
    expect(page.html).toContain(`href="${path}/done">${PageTexts.finishedLink}</a>`);
  });

  it('answers an unexpected failure with a 500 page and no details', async () => {
    const group = await t.newGroup(acme, 'Broken');
    const created = (await t.createSession(acme, group, 'broken@example.com'))
      .body as SessionCreated;
    const path = new URL(created.redirectUrl).pathname;
    await t.db.query('ALTER TABLE memberships RENAME COLUMN consented_at TO consented_gone');
    try {
      const page = await fetchPage(t, path);
      expectErrorPage(page, 500, 'unexpected');
      expectPageHeaders(page);
      expect(page.html).not.toContain('consented');
    } finally {
      await t.db.query('ALTER TABLE memberships RENAME COLUMN consented_gone TO consented_at');
    }
    expect((await fetchPage(t, path)).status).toBe(200);
  });
});
