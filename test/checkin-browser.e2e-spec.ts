/**
 * The check-in pages in a real headless Chromium (test/support/chromium.ts, driven by playwright-core):
 * real clicks, real form posts, real redirects. The analysis engine is a local HTTP server that
 * records what reaches it; the return URL lives on a host this machine cannot reach, so the
 * browser's requests to it are intercepted and answered here. (Playwright's interception does not
 * reliably catch the target of a redirect, which is how the hand-off reaches the engine.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PAGE_ERRORS, PageTexts, SAVED_MESSAGES } from '../src/pages/pages.messages';
import { ParticipantLinks } from '../src/participant-links/participant-links';
import { SessionErrors } from '../src/sessions/sessions.errors';
import { ENGINE_TOKEN, engineResult, handoffOf, postResult, userSays } from './support/engine';
import { PageBrowser } from './support/page-browser';
import { SessionCreated, startTestApp, TestApp, TestEnterprise } from './support/test-app';
import { launchChromium } from './support/chromium';
import { runDirectory } from './support/run-environment';

const RETURN_URL = 'https://app.example.com/back?from=checkin';
/** In the run's temporary folder, removed at its end (test/support/run-environment.ts). */
const screenshotPath = () => join(runDirectory(), 'checkin-page.png');

jest.setTimeout(60_000);

describe('Check-in in a real browser', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let engine: Server;
  let ENGINE_URL: string;
  /** What reached the engine: each request's path and query, and its headers. */
  let engineRequests: { url: string; headers: IncomingHttpHeaders }[];
  let participants = 0;

  beforeAll(async () => {
    browser = await launchChromium();
    // The engine plays its side of the hand-off (docs/checkin-flow.md, "Hand-off"): a browser
    // handed off without `confirmed=1` is sent through the confirm step first.
    engine = createServer((request, response) => {
      engineRequests.push({ url: request.url ?? '', headers: request.headers });
      const query = new URL(request.url ?? '/', 'http://engine').searchParams;
      const handoff = query.get('handoff');
      if (handoff !== null && query.get('confirmed') !== '1') {
        response
          .writeHead(302, {
            location: `${t.baseUrl}/checkin/confirm?handoff=${encodeURIComponent(handoff)}`,
          })
          .end();
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Engine</h1>');
    });
    await new Promise<void>((resolve) => engine.listen(0, '127.0.0.1', resolve));
    ENGINE_URL = `http://127.0.0.1:${(engine.address() as AddressInfo).port}/start`;
    t = await startTestApp({ ENGINE_URL, ENGINE_TOKEN });
    acme = await t.newEnterprise('Acme');
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (engine) await new Promise((resolve) => engine.close(resolve));
  });

  beforeEach(async () => {
    engineRequests = [];
    context = await newBrowserContext();
    page = await context.newPage();
  });
  afterEach(() => context.close());

  /**
   * A browser profile of its own (its own cookies): the participant's, or the enterprise's. The
   * return URL is answered here, for every page of the profile.
   */
  async function newBrowserContext(): Promise<BrowserContext> {
    const created = await browser.newContext({ viewport: { width: 900, height: 900 } });
    await created.route('https://app.example.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Back at the app</h1>' }),
    );
    return created;
  }

  async function newCheckin(groupName: string, requested: string[], consentRequired = false) {
    const group = await t.newGroup(acme, groupName);
    const privacy = await t.request('POST', `/configure/groups/${group.groupID}/privacy`, {
      apiKey: acme.apiKey,
      body: { requestedPrivacyLevel: requested },
    });
    expect(privacy.status).toBe(200);
    if (consentRequired) {
      const update = await t.request('PUT', `/groups/${group.groupID}`, {
        apiKey: acme.apiKey,
        body: { consentRequired: 'true' },
      });
      expect(update.status).toBe(200);
    }
    participants += 1;
    const created = await t.createSession(acme, group, `browser${participants}@example.com`, {
      returnURL: RETURN_URL,
    });
    expect(created.status).toBe(200);
    const body = created.body as SessionCreated;
    return {
      group,
      externalId: body.userIdentifier,
      sessionId: body.sessionID,
      url: `${t.baseUrl}${new URL(body.redirectUrl).pathname}`,
    };
  }

  type Checkin = Awaited<ReturnType<typeof newCheckin>>;

  /** Another check-in link for the member of `checkin` (same group, same participant). */
  async function anotherCheckin(checkin: Checkin): Promise<Checkin> {
    const created = await t.createSession(acme, checkin.group, checkin.externalId, {
      returnURL: RETURN_URL,
    });
    expect(created.status).toBe(200);
    const body = created.body as SessionCreated;
    return {
      ...checkin,
      sessionId: body.sessionID,
      url: `${t.baseUrl}${new URL(body.redirectUrl).pathname}`,
    };
  }

  /** The settings link an email about `sessionId`'s membership carries, on this test's host. */
  async function settingsUrlOf(sessionId: string): Promise<string> {
    const { rows } = await t.db.query<{ participant_id: string; group_id: string }>(
      'SELECT participant_id, group_id FROM sessions WHERE session_id = $1',
      [sessionId],
    );
    // PUBLIC_BASE_URL is not the test port: the link's path and query on this host.
    const link = new URL(
      t.app.get(ParticipantLinks).settingsUrl({
        participantId: rows[0].participant_id,
        groupId: Number(rows[0].group_id),
        linkVersion: 0,
      }),
    );
    return `${t.baseUrl}${link.pathname}${link.search}`;
  }

  const membership = async (sessionId: string) =>
    (
      await t.db.query<{
        privacy_level: number;
        consented_at: Date | null;
        pref_checkin_reminder: boolean;
        pref_privacy_request: boolean;
      }>(
        `SELECT m.privacy_level, m.consented_at, p.pref_checkin_reminder, p.pref_privacy_request
           FROM sessions s
           JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
           JOIN participants p ON p.id = s.participant_id
          WHERE s.session_id = $1`,
        [sessionId],
      )
    ).rows[0];

  /** The engine address of a hand-off of `sessionId` (with its one-time token, any). */
  const engineAddressOf = (sessionId: string) => (url: URL) =>
    url.href.startsWith(`${ENGINE_URL}?sessionID=${sessionId}&handoff=`) &&
    url.href.endsWith('&confirmed=1');

  const text = async (selector: string, on: Page = page) =>
    (await on.locator(selector).innerText()).trim();

  /** Opens the check-in link and presses "Start", which binds it to this browser. */
  async function start(url: string, groupName: string, on: Page = page): Promise<void> {
    await on.goto(url);
    expect(await text('h1', on)).toBe(PageTexts.checkinTitle(groupName));
    expect(await on.getByRole('radio').count()).toBe(0);
    await on.getByRole('button', { name: PageTexts.startButton, exact: true }).click();
    await on.waitForURL(url);
    expect(await on.getByRole('button', { name: PageTexts.startButton, exact: true }).count()).toBe(
      0,
    );
  }

  it('reviews the privacy level, hands off to the engine and returns to the app', async () => {
    const checkin = await newCheckin('Night shift', ['mhci', 'transcript']);

    await start(checkin.url, 'Night shift');
    expect(await text('h1')).toBe(PageTexts.checkinTitle('Night shift'));
    const notice = page.getByRole('heading', { name: PageTexts.privacyNoticeHeading });
    expect(await notice.isVisible()).toBe(true);
    expect(await text('.notice')).toContain(PageTexts.privacyNoticeRequest('Night shift', 4));
    expect(await page.getByRole('radio', { name: /^Level 0\b/ }).isChecked()).toBe(true);
    await page.screenshot({ path: screenshotPath(), fullPage: true });

    // Keyboard focus is visible: the radio group is one tab stop, the next is the first email
    // preference of the same form (one form for both choices), outlined.
    await page.getByRole('radio', { name: /^Level 0\b/ }).focus();
    await page.keyboard.press('Tab');
    // (A string: this project's TypeScript has no DOM types.)
    const focused = await page.evaluate(
      '[document.activeElement.name, getComputedStyle(document.activeElement).outlineStyle]',
    );
    expect(focused).toEqual(['checkinReminder', 'solid']);

    // Raise the level with a real form post.
    await page.getByRole('radio', { name: /^Level 4\b/ }).check();
    await page.getByRole('button', { name: PageTexts.saveChoicesButton }).click();
    await page.waitForURL(/\?saved=choices$/);
    expect(await page.getByRole('status').innerText()).toBe(SAVED_MESSAGES.choices);
    // After a save, the focus is on the status message (a screen reader reads it first).
    expect(await page.evaluate('document.activeElement.id')).toBe('status');
    expect(await page.getByRole('radio', { name: /^Level 4\b/ }).isChecked()).toBe(true);
    expect(await notice.count()).toBe(0);
    expect((await membership(checkin.sessionId)).privacy_level).toBe(4);

    // Email preferences: untick one box and save.
    await page.getByRole('checkbox', { name: PageTexts.preferencesCheckinReminder }).uncheck();
    await page.getByRole('button', { name: PageTexts.saveChoicesButton }).click();
    await page.waitForURL(/\?saved=choices$/);
    expect(await page.getByRole('status').innerText()).toBe(SAVED_MESSAGES.choices);
    expect(await membership(checkin.sessionId)).toMatchObject({
      pref_checkin_reminder: false,
      pref_privacy_request: true,
    });

    // The hand-off reaches the engine with the session id and without the token in a Referer.
    await page.getByRole('button', { name: PageTexts.handoffButton }).click();
    await page.waitForURL(engineAddressOf(checkin.sessionId));
    // The engine sent it through the confirm step, which sent it back confirmed.
    expect(engineRequests).toHaveLength(2);
    expect(engineRequests[0].url).toMatch(
      new RegExp(`^/start\\?sessionID=${checkin.sessionId}&handoff=[A-Za-z0-9_-]{43}$`),
    );
    expect(engineRequests[1].url).toBe(`${engineRequests[0].url}&confirmed=1`);
    expect(engineRequests[0].headers['referer']).toBeUndefined();
    await page.goBack();

    // Finished before the result is in: still analysing.
    await page.getByRole('link', { name: PageTexts.finishedLink }).click();
    await page.waitForURL(/\/done$/);
    expect(await text('h1')).toBe(PageTexts.pendingTitle);

    // The result arrives; trying again lands on the return URL, without a Referer.
    await t.db.query(
      `UPDATE sessions SET status = 'completed', completed_at = now(), version = 'v1.0.0',
              mhci = 50 WHERE session_id = $1`,
      [checkin.sessionId],
    );
    const returned = page.waitForRequest(RETURN_URL);
    await page.getByRole('link', { name: PageTexts.pendingTryAgain }).click();
    // The browser is sent on by a redirect of /done. (Whether the route above also answers a
    // redirect's target differs between Chromium builds, so the request is what is checked.)
    const back = await returned;
    expect(back.redirectedFrom()?.url()).toMatch(/\/checkin\/[^/]+\/done$/);
    expect(back.headers()['referer']).toBeUndefined();
  });

  it('asks for consent first, then shows the rest of the page', async () => {
    const checkin = await newCheckin('Consenting group', ['features'], true);

    await start(checkin.url, 'Consenting group');
    expect(await page.getByRole('heading', { name: PageTexts.consentHeading }).isVisible()).toBe(
      true,
    );
    expect(await page.getByRole('radio').count()).toBe(0);
    expect(await page.getByRole('button', { name: PageTexts.handoffButton }).count()).toBe(0);

    await page.getByRole('button', { name: PageTexts.consentButton }).click();
    await page.waitForURL(/\?saved=consent$/);
    expect(await page.getByRole('status').innerText()).toBe(SAVED_MESSAGES.consent);
    expect((await membership(checkin.sessionId)).consented_at).toBeInstanceOf(Date);
    expect(
      await page.getByRole('heading', { name: PageTexts.privacyNoticeHeading }).isVisible(),
    ).toBe(true);
    expect(await page.getByRole('button', { name: PageTexts.handoffButton }).isVisible()).toBe(
      true,
    );

    // Keeping the level is allowed: saving level 0 again changes nothing and says so.
    await page.getByRole('button', { name: PageTexts.saveChoicesButton }).click();
    await page.waitForURL(/\?saved=choices$/);
    expect((await membership(checkin.sessionId)).privacy_level).toBe(0);
  });

  it('shows a friendly page for a link that is not valid', async () => {
    const response = await page.goto(`${t.baseUrl}/checkin/not-a-real-token`);
    expect(response?.status()).toBe(404);
    expect(await text('h1')).toBe(PAGE_ERRORS['not-found'].title);
  });

  it('binds the link to the browser that pressed Start: another browser sees a clear page and changes nothing', async () => {
    const checkin = await newCheckin('Bound group', []);
    // A link preview (a GET) binds nothing: the participant can still start.
    expect((await fetch(checkin.url)).status).toBe(200);
    await start(checkin.url, 'Bound group');

    // The enterprise holds the same link: another browser.
    const other = await browser.newContext();
    try {
      const elsewhere = await other.newPage();
      const response = await elsewhere.goto(checkin.url);
      expect(response?.status()).toBe(403);
      expect(await text('h1', elsewhere)).toBe(PAGE_ERRORS['opened-elsewhere'].title);
      expect(await elsewhere.getByRole('radio').count()).toBe(0);
      // Posting the forms directly, with or without its own cookie, is refused too.
      for (const form of ['start', 'privacy', 'consent']) {
        const post = await other.request.post(`${checkin.url}/${form}`, {
          form: { privacyLevel: '5' },
          maxRedirects: 0,
        });
        expect(post.status()).toBe(403);
      }
    } finally {
      await other.close();
    }
    expect((await membership(checkin.sessionId)).privacy_level).toBe(0);

    // The participant's browser still works.
    await page.getByRole('radio', { name: /^Level 2\b/ }).check();
    await page.getByRole('button', { name: PageTexts.saveChoicesButton }).click();
    await page.waitForURL(/\?saved=choices$/);
    expect((await membership(checkin.sessionId)).privacy_level).toBe(2);
  });

  it('settings from an email: history, download, sign out my links, and delete after a confirmation', async () => {
    const checkin = await newCheckin('Settings group', ['mhci']);
    await start(checkin.url, 'Settings group');
    await page.getByRole('radio', { name: /^Level 3\b/ }).check();
    await page.getByRole('button', { name: PageTexts.saveChoicesButton }).click();
    await page.waitForURL(/\?saved=choices$/);

    const settingsUrl = await settingsUrlOf(checkin.sessionId);
    await page.goto(settingsUrl);
    expect(await text('h1')).toBe(PageTexts.settingsTitle('Settings group'));
    const history = page.getByRole('heading', { name: PageTexts.historyHeading });
    expect(await history.isVisible()).toBe(true);
    expect(await text('ul.history')).toContain('Privacy level 0 → 3, on a check-in page');

    // "Download my data" saves a JSON file with the participant's sessions and history.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: PageTexts.exportButton }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('my-checkin-data.json');
    const file = await download.path();
    const data = JSON.parse(readFileSync(file, 'utf8')) as {
      sessions: { sessionID: string }[];
      history: { change: string; to: unknown }[];
    };
    expect(data.sessions.map((session) => session.sessionID)).toEqual([checkin.sessionId]);
    expect(data.history).toEqual([expect.objectContaining({ change: 'privacyLevel', to: 3 })]);

    // "Sign out my links…" confirms first (cancelling changes nothing); then this page moves to
    // a fresh address and the emailed link stops working.
    await page.getByRole('link', { name: PageTexts.signOutLink }).click();
    expect(await text('h1')).toBe(PageTexts.signOutConfirmTitle);
    await page.getByRole('link', { name: PageTexts.signOutCancel }).click();
    expect(page.url()).toBe(settingsUrl);
    await page.getByRole('link', { name: PageTexts.signOutLink }).click();
    await page.getByRole('button', { name: PageTexts.signOutConfirmButton }).click();
    await page.waitForURL(/&saved=signed-out$/);
    expect(await page.content()).toContain(SAVED_MESSAGES['signed-out']);
    const freshUrl = page.url().replace('&saved=signed-out', '');
    expect(freshUrl).not.toBe(settingsUrl);
    const revoked = await page.goto(settingsUrl);
    expect(revoked?.status()).toBe(404);
    expect(await text('h1')).toBe(PAGE_ERRORS['not-found'].title);
    await page.goto(freshUrl);
    expect(await text('h1')).toBe(PageTexts.settingsTitle('Settings group'));

    // "Delete my data": a confirmation first (nothing changes), then the erasure.
    await page.getByRole('link', { name: PageTexts.deleteLink }).click();
    expect(await text('h1')).toBe(PageTexts.deleteTitle);
    expect((await membership(checkin.sessionId)).privacy_level).toBe(3);
    await page.getByRole('link', { name: PageTexts.deleteCancel }).click();
    expect(await text('h1')).toBe(PageTexts.settingsTitle('Settings group'));
    await page.getByRole('link', { name: PageTexts.deleteLink }).click();
    await page.getByRole('button', { name: PageTexts.deleteConfirmButton }).click();
    await page.waitForLoadState();
    expect(await text('h1')).toBe(PageTexts.deletedTitle);
    expect(await membership(checkin.sessionId)).toBeUndefined();

    // Afterwards the links show the invalid-link page.
    expect((await page.goto(freshUrl))?.status()).toBe(404);
    const gone = await page.goto(settingsUrl);
    expect(gone?.status()).toBe(404);
    expect(await text('h1')).toBe(PAGE_ERRORS['not-found'].title);
  });

  /**
   * An auto-submitting form on another page, as a site would plant one: served (intercepted) from
   * `origin`, posting `fields` to `action` as soon as it loads.
   */
  async function submitFrom(origin: string, action: string, fields: Record<string, string>) {
    const inputs = Object.entries(fields)
      .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
      .join('');
    await page.route(`${origin}/**`, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: `<form method="post" action="${action}">${inputs}</form>
               <script>document.forms[0].submit()</script>`,
      }),
    );
    const answer = page.waitForResponse((response) => response.url().startsWith(action));
    await page.goto(`${origin}/offer`);
    return answer;
  }

  it('a form posted from another site changes nothing: same-site (a sibling host) and cross-site are refused with a page', async () => {
    const checkin = await newCheckin('Forms', ['mhci']);
    await start(checkin.url, 'Forms');
    const formAction = `${checkin.url}/privacy`;

    // Same site, another origin (this host on another port): Chromium sends `Sec-Fetch-Site:
    // same-site` (and `cross-site` from localhost below; Playwright does not show these headers,
    // the service sees them) and the Lax cookie goes along, so without the check the level would
    // change.
    const sameSite = await submitFrom('http://127.0.0.1:1', formAction, { privacyLevel: '5' });
    expect(sameSite.status()).toBe(403);
    expect(await text('h1')).toBe(PAGE_ERRORS['foreign-form'].title);
    expect((await membership(checkin.sessionId)).privacy_level).toBe(0);

    // Cross site, on a settings link no browser holds yet: refused before it could bind.
    const settings = new URL(await settingsUrlOf(checkin.sessionId));
    const settingsAction = `${settings.origin}${settings.pathname}/privacy${settings.search}`;
    const crossSite = await submitFrom('http://localhost:1', settingsAction, { privacyLevel: '5' });
    expect(crossSite.status()).toBe(403);
    expect(await text('h1')).toBe(PAGE_ERRORS['foreign-form'].title);
    expect((await membership(checkin.sessionId)).privacy_level).toBe(0);
    const bound = await t.db.query('SELECT 1 FROM link_bindings WHERE link LIKE $1', [
      'settings:%',
    ]);
    expect(bound.rows).toEqual([]);

    // The participant's own page still saves.
    await page.goto(checkin.url);
    await page.getByRole('radio', { name: /^Level 2\b/ }).check();
    await page.getByRole('button', { name: PageTexts.saveChoicesButton }).click();
    await page.waitForURL(/\?saved=choices$/);
    expect((await membership(checkin.sessionId)).privacy_level).toBe(2);
  });
  /** What `GET /sessions/{id}` shows the enterprise. */
  const shown = async (sessionId: string) => {
    const answer = await t.request('GET', `/sessions/${sessionId}`, { apiKey: acme.apiKey });
    expect(answer.status).toBe(200);
    return answer.body as Record<string, unknown>;
  };
  /** The level `GET /sessions/{id}` shows a session at: how many of the cumulative fields. */
  const levelShown = async (sessionId: string) => {
    const keys = Object.keys(await shown(sessionId));
    const steps = ['mhci', 'groupPercentiles', 'userPercentiles', 'transcript', 'features'];
    return steps.filter((field) => keys.includes(field)).length;
  };
  const ownLevel = async (sessionId: string) =>
    (
      await t.db.query<{ shared_level: number | null }>(
        'SELECT shared_level FROM sessions WHERE session_id = $1',
        [sessionId],
      )
    ).rows[0].shared_level;

  /** Chooses `level` on the page shown (and "also share earlier" if asked), and saves it. */
  async function saveLevel(level: number, shareEarlier?: number): Promise<void> {
    await page.getByRole('radio', { name: new RegExp(`^Level ${level}\\b`) }).check();
    if (shareEarlier !== undefined) {
      await page.getByRole('checkbox', { name: PageTexts.shareEarlierLabel(shareEarlier) }).check();
    }
    await page.getByRole('button', { name: PageTexts.saveChoicesButton }).click();
    await page.waitForURL(/saved=choices$/);
  }

  /** "Start my check-in" on the page shown, to the engine; then the engine posts the result. */
  async function handOffAndComplete(sessionId: string, said: string): Promise<void> {
    await page.getByRole('button', { name: PageTexts.handoffButton }).click();
    await page.waitForURL(engineAddressOf(sessionId));
    const posted = await postResult(t, sessionId, engineResult({ transcript: userSays(said) }));
    expect(posted.status).toBe(200);
  }

  it("the participant's own flows: a raise reaches earlier check-ins only when asked, lowering hides them all at once, export and delete", async () => {
    const first = await newCheckin('Own flows', ['mhci', 'transcript']);
    await start(first.url, 'Own flows');
    expect(await page.getByText(PageTexts.handoffLevel(0)).isVisible()).toBe(true);
    await handOffAndComplete(first.sessionId, 'my divorce');
    expect(await levelShown(first.sessionId)).toBe(0);

    // The next check-in, in the same browser. A raise without "also share": this one only.
    const second = await anotherCheckin(first);
    await start(second.url, 'Own flows');
    const shareEarlier = page.getByRole('checkbox', { name: PageTexts.shareEarlierLabel(1) });
    expect(await shareEarlier.isChecked()).toBe(false);
    await saveLevel(2);
    expect(await page.getByText(PageTexts.handoffLevel(2)).isVisible()).toBe(true);
    await handOffAndComplete(second.sessionId, 'a good week');
    expect(await levelShown(second.sessionId)).toBe(2);
    expect(await levelShown(first.sessionId)).toBe(0);

    // Ticked: the earlier check-in done in this browser is shared at the new level too.
    await page.goto(second.url);
    await saveLevel(4, 1);
    expect(await levelShown(first.sessionId)).toBe(4);
    expect(JSON.stringify(await shown(first.sessionId))).toContain('my divorce');
    expect(await levelShown(second.sessionId)).toBe(4);

    // Lowering, here on the settings page an email brings: every check-in at once.
    await page.goto(await settingsUrlOf(first.sessionId));
    await saveLevel(1);
    expect(await levelShown(first.sessionId)).toBe(1);
    expect(await levelShown(second.sessionId)).toBe(1);
    expect(JSON.stringify(await shown(first.sessionId))).not.toContain('my divorce');

    // "Download my data" in this browser: both check-ins, done here, in full.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: PageTexts.exportButton }).click();
    const data = JSON.parse(readFileSync(await (await downloading).path(), 'utf8')) as {
      sessions: { sessionID: string; transcript?: unknown }[];
    };
    expect(data.sessions.map((session) => session.sessionID).sort()).toEqual(
      [first.sessionId, second.sessionId].sort(),
    );
    expect(JSON.stringify(data.sessions)).toContain('my divorce');
    expect(JSON.stringify(data.sessions)).toContain('a good week');

    // "Delete my data": both check-ins are gone from the API.
    await page.getByRole('link', { name: PageTexts.deleteLink }).click();
    await page.getByRole('button', { name: PageTexts.deleteConfirmButton }).click();
    await page.waitForLoadState();
    expect(await text('h1')).toBe(PageTexts.deletedTitle);
    for (const sessionId of [first.sessionId, second.sessionId]) {
      expect(
        await t.request('GET', `/sessions/${sessionId}`, { apiKey: acme.apiKey }),
      ).toMatchObject({ status: 400, body: { error: SessionErrors.NotFound } });
    }
  });

  it('a raise made in another browser is asked about before the next hand-off, with the keyboard alone; going back shares the check-in at the level before it', async () => {
    const first = await newCheckin('Asked first', ['features']);
    await start(first.url, 'Asked first');

    // The enterprise mints a link for the member, opens it in its own browser and raises there.
    const enterprise = await newBrowserContext();
    try {
      const theirs = await anotherCheckin(first);
      const their = await enterprise.newPage();
      await start(theirs.url, 'Asked first', their);
      await their.getByRole('radio', { name: /^Level 5\b/ }).check();
      await their.getByRole('button', { name: PageTexts.saveChoicesButton }).click();
      await their.waitForURL(/\?saved=choices$/);
    } finally {
      await enterprise.close();
    }
    expect((await membership(first.sessionId)).privacy_level).toBe(5);

    // The participant's next check-in asks before it starts, and says why.
    const next = await anotherCheckin(first);
    await start(next.url, 'Asked first');
    expect(await page.getByText(PageTexts.handoffRaisedElsewhere(5)).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: PageTexts.handoffButton }).count()).toBe(0);
    const keep = page.getByRole('button', { name: PageTexts.handoffKeep(5) });
    const goBack = page.getByRole('button', { name: PageTexts.handoffGoBack(0) });
    expect(await keep.isVisible()).toBe(true);

    // Keyboard only: Tab from "Keep" reaches "Go back"; Enter presses it.
    await keep.focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe(
      PageTexts.handoffGoBack(0),
    );
    await page.keyboard.press('Enter');
    await page.waitForURL(engineAddressOf(next.sessionId));
    expect(await goBack.count()).toBe(0);
    expect((await membership(first.sessionId)).privacy_level).toBe(0);
    expect(await ownLevel(next.sessionId)).toBe(0);
    const posted = await postResult(t, next.sessionId, engineResult());
    expect(posted.status).toBe(200);
    expect(await levelShown(next.sessionId)).toBe(0);
  });

  it('every Start gives the browser a new identity and her check-ins stay hers; "Keep" answered in the enterprise’s browser does not silence hers, and her own "Keep" works', async () => {
    const first = await newCheckin('Rotating', ['features']);
    await start(first.url, 'Rotating');
    const identity = async (on: BrowserContext) =>
      (await on.cookies()).find((cookie) => cookie.name === 'checkin_browser')?.value;
    const before = await identity(context);
    expect(before).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The enterprise raises to 5 in its browser E, then answers "Keep" in a third browser F.
    for (const step of ['raise', 'keep'] as const) {
      const other = await newBrowserContext();
      try {
        const link = await anotherCheckin(first);
        const their = await other.newPage();
        await start(link.url, 'Rotating', their);
        if (step === 'raise') {
          await their.getByRole('radio', { name: /^Level 5\b/ }).check();
          await their.getByRole('button', { name: PageTexts.saveChoicesButton }).click();
          await their.waitForURL(/\?saved=choices$/);
        } else {
          await their.getByRole('button', { name: PageTexts.handoffKeep(5) }).click();
          await their.waitForURL(engineAddressOf(link.sessionId));
        }
      } finally {
        await other.close();
      }
    }

    // Her next check-in, in her browser: a new identity, and still the question.
    const next = await anotherCheckin(first);
    await start(next.url, 'Rotating');
    const after = await identity(context);
    expect(after).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(after).not.toBe(before);
    expect(await page.getByText(PageTexts.handoffRaisedElsewhere(5)).isVisible()).toBe(true);
    await page.getByRole('button', { name: PageTexts.handoffKeep(5) }).click();
    await page.waitForURL(engineAddressOf(next.sessionId));
    expect(await ownLevel(next.sessionId)).toBe(5);
    // Her first check-in is still hers in this browser (its binding moved with the identity).
    await page.goto(first.url);
    expect(await text('h1')).toBe(PageTexts.checkinTitle('Rotating'));
    expect(await page.getByRole('button', { name: PageTexts.saveChoicesButton }).count()).toBe(1);
    // A copy of the replaced cookie, in another browser, holds nothing.
    const copy = await newBrowserContext();
    try {
      await copy.addCookies([{ name: 'checkin_browser', value: before!, url: t.baseUrl }]);
      const copied = await copy.newPage();
      const answer = await copied.goto(first.url);
      expect(answer?.status()).toBe(403);
    } finally {
      await copy.close();
    }
  });

  it('the engine address copied from the enterprise’s browser stops at the confirm step in hers: a page says why and how to start properly, and her result would count at 0', async () => {
    const erin = await newCheckin('Copied address', ['mhci', 'transcript', 'features']);
    // The enterprise opens her link in its own browser (plain HTTP here), raises her to 5 and
    // hands off, then sends her the engine address instead of following it.
    const enterprise = new PageBrowser(t.baseUrl);
    const path = new URL(erin.url).pathname;
    expect((await enterprise.post(`${path}/start`)).status).toBe(303);
    expect((await enterprise.post(`${path}/privacy`, { privacyLevel: '5' })).status).toBe(303);
    const address = (await enterprise.post(`${path}/handoff`)).location!;
    expect(address.startsWith(`${ENGINE_URL}?sessionID=${erin.sessionId}&handoff=`)).toBe(true);
    // She follows it in her browser: the engine sends her to the confirm step, which refuses.
    const answer = await page.goto(address);
    expect(answer?.status()).toBe(403);
    expect(page.url().startsWith(`${t.baseUrl}/checkin/confirm?handoff=`)).toBe(true);
    expect(await text('h1')).toBe(PAGE_ERRORS['handoff-elsewhere'].title);
    expect(await page.getByText(PAGE_ERRORS['handoff-elsewhere'].text).isVisible()).toBe(true);
    expect(engineRequests.some((request) => request.url.endsWith('&confirmed=1'))).toBe(false);
    // The engine posts a result anyway: recorded at level 0.
    const posted = await postResult(t, erin.sessionId, {
      ...engineResult({ transcript: userSays('my divorce') }),
      handoff: handoffOf(address),
    });
    expect(posted.status).toBe(200);
    expect(await levelShown(erin.sessionId)).toBe(0);
  });

  it('raises the enterprise made in two browsers of its own, and its identity cookie planted in hers: she is asked, "Go back" offers her own level 0, and her check-in is shared at 0', async () => {
    const erin = await newCheckin('Laundered', ['features']);
    await start(erin.url, 'Laundered');
    // The enterprise raises her 0→1 in browser E, then 1→5 in browser E2 (links it minted).
    const browsers = [new PageBrowser(t.baseUrl), new PageBrowser(t.baseUrl)];
    for (const [index, level] of [1, 5].entries()) {
      const path = new URL((await anotherCheckin(erin)).url).pathname;
      expect((await browsers[index].post(`${path}/start`)).status).toBe(303);
      const saved = await browsers[index].post(`${path}/privacy`, { privacyLevel: String(level) });
      expect(saved.status).toBe(303);
    }
    expect((await membership(erin.sessionId)).privacy_level).toBe(5);
    // It plants E2's identity cookie (a value the server minted for E2) in her browser.
    await context.addCookies([
      { name: 'checkin_browser', value: browsers[1].cookie('checkin_browser')!, url: t.baseUrl },
    ]);
    // Her next check-in asks, and "Go back" returns to the level her browser chose: none, 0.
    const next = await anotherCheckin(erin);
    await start(next.url, 'Laundered');
    expect(await page.getByText(PageTexts.handoffRaisedElsewhere(5)).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: PageTexts.handoffGoBack(1) }).count()).toBe(0);
    await page.getByRole('button', { name: PageTexts.handoffGoBack(0) }).click();
    await page.waitForURL(engineAddressOf(next.sessionId));
    expect((await membership(next.sessionId)).privacy_level).toBe(0);
    expect(await ownLevel(next.sessionId)).toBe(0);
    const posted = await postResult(t, next.sessionId, engineResult({ transcript: userSays('x') }));
    expect(posted.status).toBe(200);
    expect(await levelShown(next.sessionId)).toBe(0);
  });
});
