/**
 * WCAG 2.2 AA of the participant pages, shown in a real headless Chromium (docs/accessibility.md):
 * every page and page state in English, German and Arabic (right to left), at 1280×800 and 390×844,
 * checked by axe-core for every rule tagged WCAG 2.0/2.1/2.2 A or AA, and for sideways scrolling
 * (there and at 320 px); and the whole check-in done with the keyboard alone, every focused control
 * showing a focus outline that stands out from what is around it. The pages are tested as served: their
 * Content-Security-Policy stays in force (test/support/accessibility.ts says how axe gets in).
 * The browser is npm's Chromium, or CHROMIUM_PATH (test/support/chromium.ts).
 */
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Locale } from '../src/common/i18n/locales';
import { pageHeaders } from '../src/pages/page-renderer';
import { pageErrors, pageTextsIn, savedMessages } from '../src/pages/pages.messages';
import { ParticipantLinks } from '../src/participant-links/participant-links';
import {
  axeViolations,
  fitsWidth,
  focused,
  Focused,
  focusIndicatorProblem,
  VIEWPORTS,
} from './support/accessibility';
import { launchChromium } from './support/chromium';
import { ENGINE_TOKEN, engineResult, handoffOf, postResult } from './support/engine';
import { PageBrowser } from './support/page-browser';
import { SessionCreated, startTestApp, TestApp, TestEnterprise } from './support/test-app';

const RETURN_URL = 'https://app.example.com/back';
const REFLOW_VIEWPORT = { width: 320, height: 640 };
const LANGUAGES = ['en', 'de', 'ar'] as const satisfies readonly Locale[];
type Language = (typeof LANGUAGES)[number];

jest.setTimeout(90_000);

describe('Participant pages meet WCAG 2.2 AA', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let browser: Browser;
  let engine: Server;
  let ENGINE_URL: string;
  let engineRequests: string[];
  let participants = 0;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    engine = createServer((request, response) => {
      engineRequests.push(request.url ?? '');
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
  beforeEach(() => {
    engineRequests = [];
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });

  /**
   * A browser of its own in `language`: its Accept-Language asks for it, so the answers to forms
   * (which carry no `?lang=`) are in it too. The return URL is answered here.
   */
  async function newBrowser(language: Language, on: Browser = browser): Promise<Page> {
    const context = await on.newContext({ locale: language, viewport: VIEWPORTS[0] });
    contexts.push(context);
    await context.route('https://app.example.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Back</h1>' }),
    );
    return context.newPage();
  }

  async function newCheckin(
    groupName: string,
    { requested = [] as string[], consentRequired = false } = {},
  ) {
    const group = await t.newGroup(acme, groupName);
    if (requested.length > 0) {
      const privacy = await t.request('POST', `/configure/groups/${group.groupID}/privacy`, {
        apiKey: acme.apiKey,
        body: { requestedPrivacyLevel: requested },
      });
      expect(privacy.status).toBe(200);
    }
    if (consentRequired) {
      const update = await t.request('PUT', `/groups/${group.groupID}`, {
        apiKey: acme.apiKey,
        body: { consentRequired: 'true' },
      });
      expect(update.status).toBe(200);
    }
    participants += 1;
    return linkFor(group, `a11y${participants}@example.com`);
  }

  type Checkin = Awaited<ReturnType<typeof linkFor>>;

  /** A check-in link for `identifier` in `group`. */
  async function linkFor(group: Parameters<TestApp['createSession']>[1], identifier: string) {
    const created = await t.createSession(acme, group, identifier, { returnURL: RETURN_URL });
    expect(created.status).toBe(200);
    const body = created.body as SessionCreated;
    return {
      group,
      externalId: body.userIdentifier,
      sessionId: body.sessionID,
      path: new URL(body.redirectUrl).pathname,
    };
  }

  const anotherCheckin = (checkin: Checkin) => linkFor(checkin.group, checkin.externalId);

  /** `path` on the app under test with `?lang=` (or `&lang=`) set. */
  const address = (path: string, language: Language) =>
    `${t.baseUrl}${path}${path.includes('?') ? '&' : '?'}lang=${language}`;

  /** Opens the check-in link in `language` and presses "Start". */
  async function start(page: Page, checkin: Checkin, language: Language): Promise<void> {
    await page.goto(address(checkin.path, language));
    await page.getByRole('button', { name: pageTextsIn(language).startButton }).click();
    await page.waitForURL(`${t.baseUrl}${checkin.path}`);
  }

  async function saveLevel(page: Page, language: Language, level: number): Promise<void> {
    await page.locator(`#privacy-level-${level}`).check();
    await page.getByRole('button', { name: pageTextsIn(language).saveChoicesButton }).click();
    await page.waitForURL(/saved=choices$/);
  }

  /** The settings link an email about `sessionId`'s membership carries, on this test's host. */
  async function membershipOf(sessionId: string) {
    const { rows } = await t.db.query<{ participant_id: string; group_id: string }>(
      'SELECT participant_id, group_id FROM sessions WHERE session_id = $1',
      [sessionId],
    );
    return { participantId: rows[0].participant_id, groupId: Number(rows[0].group_id) };
  }
  async function settingsPath(sessionId: string): Promise<string> {
    const link = new URL(
      t.app
        .get(ParticipantLinks)
        .settingsUrl({ ...(await membershipOf(sessionId)), linkVersion: 0 }),
    );
    return `${link.pathname}${link.search}`;
  }
  async function unsubscribePath(sessionId: string): Promise<string> {
    const link = new URL(
      t.app
        .get(ParticipantLinks)
        .unsubscribeUrl({ ...(await membershipOf(sessionId)), linkVersion: 0 }, 'checkinReminder'),
    );
    return `${link.pathname}${link.search}`;
  }

  /**
   * The page shown is in `language` and, at each size, has no axe violation of a WCAG 2.x A/AA
   * rule and needs no sideways scrolling. Fails listing each finding: size, rule, element, message.
   */
  async function expectAccessible(page: Page, language: Language, heading: string) {
    expect([await page.getAttribute('html', 'lang'), await page.locator('h1').innerText()]).toEqual(
      [language, heading],
    );
    const findings: string[] = [];
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      for (const finding of await axeViolations(page)) {
        findings.push(`${viewport.name}: ${finding.rule} at ${finding.target}: ${finding.message}`);
      }
      if (!(await fitsWidth(page))) findings.push(`${viewport.name}: scrolls sideways`);
    }
    // Reflow is defined at 320 CSS pixels (a 1280 px window zoomed to 400 %).
    await page.setViewportSize(REFLOW_VIEWPORT);
    if (!(await fitsWidth(page))) findings.push('320 px wide: scrolls sideways');
    expect(findings).toEqual([]);
  }

  it('runs axe inside the pages with their Content-Security-Policy in force', async () => {
    const checkin = await newCheckin('Policy');
    const page = await newBrowser('en');
    const response = await page.goto(address(checkin.path, 'en'));
    expect(response?.headers()['content-security-policy']).toBe(
      pageHeaders(ENGINE_URL)['content-security-policy'],
    );
    // A script the test adds to the page is blocked by the page's policy …
    await page.addScriptTag({ content: 'document.title = "script ran"' }).catch(() => undefined);
    expect(await page.title()).toBe(pageTextsIn('en').checkinTitle('Policy'));
    // … and axe, evaluated over the DevTools protocol, runs (and finds what it looks for).
    await page.evaluate('document.querySelector("button").textContent = ""');
    expect((await axeViolations(page)).map((finding) => finding.rule)).toEqual(['button-name']);
  });

  describe.each(LANGUAGES)('in %s', (language) => {
    const texts = pageTextsIn(language);
    const errors = pageErrors(language);

    it('the start page', async () => {
      const checkin = await newCheckin('Start');
      const page = await newBrowser(language);
      await page.goto(address(checkin.path, language));
      await expectAccessible(page, language, texts.checkinTitle('Start'));

      // The first Tab stop skips the 12 language links (2.4.1): shown when focused, it moves to
      // the page's content. (Strings: this project's TypeScript has no DOM types.)
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate(
          '[document.activeElement.textContent, document.activeElement.getBoundingClientRect().top >= 0]',
        ),
      ).toEqual([texts.skipToContent, true]);
      await page.keyboard.press('Enter');
      expect(await page.evaluate('document.activeElement.id')).toBe('content');
    });

    it('the consent page', async () => {
      const checkin = await newCheckin('Consent', { consentRequired: true });
      const page = await newBrowser(language);
      await start(page, checkin, language);
      expect(await page.getByRole('button', { name: texts.consentButton }).isVisible()).toBe(true);
      await expectAccessible(page, language, texts.checkinTitle('Consent'));
    });

    it('the check-in page: privacy review, email preferences, hand-off', async () => {
      const checkin = await newCheckin('Review', { requested: ['mhci', 'transcript'] });
      const page = await newBrowser(language);
      await start(page, checkin, language);
      expect(
        await page.getByRole('heading', { name: texts.privacyNoticeHeading }).isVisible(),
      ).toBe(true);
      expect(await page.getByRole('button', { name: texts.handoffButton }).isVisible()).toBe(true);
      await expectAccessible(page, language, texts.checkinTitle('Review'));
    });

    it('the check-in page with a saved level (a status message)', async () => {
      const checkin = await newCheckin('Saved', { requested: ['mhci'] });
      const page = await newBrowser(language);
      await start(page, checkin, language);
      await saveLevel(page, language, 3);
      expect(await page.getByRole('status').innerText()).toBe(savedMessages(language).choices);
      await expectAccessible(page, language, texts.checkinTitle('Saved'));
    });

    it('the check-in page asking about a raise made elsewhere, and "also share earlier"', async () => {
      const first = await newCheckin('Elsewhere', { requested: ['features'] });
      const page = await newBrowser(language);
      await start(page, first, language);
      expect((await postResult(t, first.sessionId, engineResult())).status).toBe(200);
      const their = await newBrowser(language);
      await start(their, await anotherCheckin(first), language);
      await saveLevel(their, language, 5);
      await start(page, await anotherCheckin(first), language);
      expect(await page.getByText(texts.handoffRaisedElsewhere(5)).isVisible()).toBe(true);
      expect(await page.locator('#share-earlier').count()).toBe(1);
      await expectAccessible(page, language, texts.checkinTitle('Elsewhere'));
    });

    it('the "still analysing" page', async () => {
      const checkin = await newCheckin('Pending');
      const page = await newBrowser(language);
      await page.goto(address(`${checkin.path}/done`, language));
      await expectAccessible(page, language, texts.pendingTitle);
    });

    it('the completed page, and the check-in page of a completed check-in', async () => {
      const checkin = await newCheckin('Completed');
      const page = await newBrowser(language);
      await start(page, checkin, language);
      expect((await postResult(t, checkin.sessionId, engineResult())).status).toBe(200);
      await page.goto(address(checkin.path, language));
      expect(await page.getByText(texts.handoffCompleted).isVisible()).toBe(true);
      await expectAccessible(page, language, texts.checkinTitle('Completed'));
      // A return URL the service no longer accepts: a "complete" page instead of the redirect.
      await t.db.query(`UPDATE sessions SET return_url = '' WHERE session_id = $1`, [
        checkin.sessionId,
      ]);
      await page.goto(address(`${checkin.path}/done`, language));
      await expectAccessible(page, language, texts.completedTitle);
    });

    it('the settings page (withdraw consent, history, export, delete, sign out)', async () => {
      const checkin = await newCheckin('Settings', { consentRequired: true });
      const page = await newBrowser(language);
      await start(page, checkin, language);
      await page.getByRole('button', { name: texts.consentButton }).click();
      await page.waitForURL(/saved=consent$/);
      await saveLevel(page, language, 2);
      await page.goto(address(await settingsPath(checkin.sessionId), language));
      expect(await page.getByRole('link', { name: texts.withdrawLink }).isVisible()).toBe(true);
      expect(await page.locator('.history li').count()).toBeGreaterThan(0);
      await expectAccessible(page, language, texts.settingsTitle('Settings'));
      const settings = page.url();

      // Withdrawing consent and signing out links confirm first (then cancelled here).
      await page.getByRole('link', { name: texts.withdrawLink }).click();
      await expectAccessible(page, language, texts.withdrawConfirmTitle);
      await page.getByRole('link', { name: texts.withdrawCancel }).click();
      await page.getByRole('link', { name: texts.signOutLink }).click();
      await expectAccessible(page, language, texts.signOutConfirmTitle);
      await page.goto(settings);

      // "Delete my data": the confirmation, then the notice.
      await page.getByRole('link', { name: texts.deleteLink }).click();
      await expectAccessible(page, language, texts.deleteTitle);
      await page.getByRole('button', { name: texts.deleteConfirmButton }).click();
      await page.waitForLoadState();
      await expectAccessible(page, language, texts.deletedTitle);
    });

    it('the unsubscribe page and its answer', async () => {
      const checkin = await newCheckin('Unsubscribe');
      const page = await newBrowser(language);
      await page.goto(address(await unsubscribePath(checkin.sessionId), language));
      await expectAccessible(page, language, texts.unsubscribeTitle);
      await page.getByRole('button', { name: texts.unsubscribeButton }).click();
      await page.waitForLoadState();
      await expectAccessible(page, language, texts.unsubscribedTitle);
    });

    it('error pages: not found (404), opened in another browser (403)', async () => {
      const page = await newBrowser(language);
      expect((await page.goto(address('/checkin/not-a-real-token', language)))?.status()).toBe(404);
      await expectAccessible(page, language, errors['not-found'].title);

      const checkin = await newCheckin('Bound');
      await start(page, checkin, language);
      const other = await newBrowser(language);
      expect((await other.goto(address(checkin.path, language)))?.status()).toBe(403);
      await expectAccessible(other, language, errors['opened-elsewhere'].title);
    });

    it('error pages of the engine’s confirm step: handed off in another browser, a token no longer valid (403)', async () => {
      // Handed off in a browser of the enterprise's (plain HTTP); confirmed in this one.
      const checkin = await newCheckin('Handed off');
      const enterprise = new PageBrowser(t.baseUrl);
      expect((await enterprise.post(`${checkin.path}/start`)).status).toBe(303);
      const engineAddress = (await enterprise.post(`${checkin.path}/handoff`)).location;
      const page = await newBrowser(language);
      const confirm = `/checkin/confirm?handoff=${handoffOf(engineAddress)}`;
      expect((await page.goto(address(confirm, language)))?.status()).toBe(403);
      await expectAccessible(page, language, errors['handoff-elsewhere'].title);
      const unknown = `/checkin/confirm?handoff=${'A'.repeat(43)}`;
      expect((await page.goto(address(unknown, language)))?.status()).toBe(403);
      await expectAccessible(page, language, errors['handoff-unknown'].title);
    });

    it('error pages answering a form: sent from another site (403), not readable (400, with a link back)', async () => {
      const checkin = await newCheckin('Forms');
      const page = await newBrowser(language);
      await start(page, checkin, language);

      // Another site's page posting to the check-in's privacy form as soon as it loads.
      await page.route('http://127.0.0.1:1/**', (route) =>
        route.fulfill({
          status: 200,
          contentType: 'text/html',
          body: `<form method="post" action="${t.baseUrl}${checkin.path}/privacy">
                   <input type="hidden" name="privacyLevel" value="5"></form>
                 <script>document.forms[0].submit()</script>`,
        }),
      );
      const refused = page.waitForResponse((answer) => answer.url().endsWith('/privacy'));
      await page.goto('http://127.0.0.1:1/offer');
      expect((await refused).status()).toBe(403);
      await page.waitForLoadState();
      await expectAccessible(page, language, errors['foreign-form'].title);

      // The page's own form, its level changed on the way (as a broken client might send it).
      await page.goto(address(checkin.path, language));
      await page.route(`${t.baseUrl}${checkin.path}/choices`, (route) =>
        route.continue({ postData: 'privacyLevel=nine' }),
      );
      await page.getByRole('button', { name: texts.saveChoicesButton }).click();
      await page.waitForLoadState();
      await expectAccessible(page, language, errors['invalid-privacy-level'].title);
      expect(await page.getByRole('link', { name: texts.backToPage }).isVisible()).toBe(true);
    });
  });

  describe('with the keyboard alone', () => {
    const membership = async (sessionId: string) =>
      (
        await t.db.query<{ privacy_level: number; pref_checkin_reminder: boolean }>(
          `SELECT m.privacy_level, p.pref_checkin_reminder
             FROM sessions s
             JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
             JOIN participants p ON p.id = s.participant_id
            WHERE s.session_id = $1`,
          [sessionId],
        )
      ).rows[0];

    it.each(['en', 'ar'] as const)(
      'in %s: start, consent, a privacy level, email preferences and the hand-off, every focused control outlined',
      async (language) => {
        const texts = pageTextsIn(language);
        const checkin = await newCheckin(`Keyboard ${language}`, {
          requested: ['mhci'],
          consentRequired: true,
        });
        const page = await newBrowser(language);
        /** Every control the focus reached, and what was wrong with its focus indicator. */
        const visited: Focused[] = [];
        const problems: string[] = [];

        /** Presses `key` until the focus is on a control `wanted` accepts (30 presses at most). */
        async function pressUntil(key: string, wanted: (control: Focused) => boolean) {
          for (let presses = 0; presses < 30; presses++) {
            await page.keyboard.press(key);
            const control = await focused(page);
            if (control === null) continue;
            visited.push(control);
            const problem = focusIndicatorProblem(control);
            if (problem) problems.push(`${control.tag} "${control.name}": ${problem}`);
            if (wanted(control)) return control;
          }
          throw new Error(
            `${key} did not reach the control (focus: ${JSON.stringify(visited.at(-1))})`,
          );
        }
        const button = (name: string) => (control: Focused) =>
          control.tag === 'button' && control.name === name;

        // Open the link; Tab past the language switcher to "Start", Enter.
        await page.goto(address(checkin.path, language));
        await pressUntil('Tab', button(texts.startButton));
        await page.keyboard.press('Enter');
        await page.waitForURL(`${t.baseUrl}${checkin.path}`);

        // Consent, with Space.
        await pressUntil('Tab', button(texts.consentButton));
        await page.keyboard.press('Space');
        await page.waitForURL(/\?saved=consent$/);

        // The privacy levels are one tab stop, at the checked level; the arrow keys choose.
        const radio = await pressUntil('Tab', (control) => control.type === 'radio');
        expect([radio.value, radio.checked]).toEqual(['0', true]);
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('ArrowDown');
        expect(await focused(page)).toMatchObject({ type: 'radio', value: '2', checked: true });
        // Email preferences, in the same form: Space unticks a box; Shift+Tab goes back to it;
        // Enter on the one "Save my choices" saves the level and the preferences together.
        const reminder = (control: Focused) => control.name === texts.preferencesCheckinReminder;
        expect(await pressUntil('Tab', reminder)).toMatchObject({
          type: 'checkbox',
          checked: true,
        });
        await page.keyboard.press('Space');
        await pressUntil('Tab', (control) => control.name === texts.preferencesPrivacyRequest);
        expect(await pressUntil('Shift+Tab', reminder)).toMatchObject({ checked: false });
        await pressUntil('Tab', button(texts.saveChoicesButton));
        await page.keyboard.press('Enter');
        await page.waitForURL(/\?saved=choices$/);
        expect(await membership(checkin.sessionId)).toMatchObject({
          privacy_level: 2,
          pref_checkin_reminder: false,
        });

        // The hand-off: Enter on "Start my check-in" reaches the engine.
        await pressUntil('Tab', button(texts.handoffButton));
        await page.keyboard.press('Enter');
        await page.waitForURL((url) =>
          url.href.startsWith(`${ENGINE_URL}?sessionID=${checkin.sessionId}&handoff=`),
        );
        expect(engineRequests.filter((url) => url.startsWith('/start'))).toEqual([
          expect.stringMatching(
            new RegExp(`^/start\\?sessionID=${checkin.sessionId}&handoff=[A-Za-z0-9_-]{43}$`),
          ),
        ]);

        // Links, radios, checkboxes and buttons were all reached, each with a visible outline.
        expect(new Set(visited.map((control) => control.type || control.tag))).toEqual(
          new Set(['a', 'submit', 'radio', 'checkbox']),
        );
        expect(problems).toEqual([]);
      },
    );
  });

  describe('too many requests (429)', () => {
    let limited: TestApp;
    beforeAll(async () => {
      limited = await startTestApp({ PUBLIC_RATE_LIMIT_REQUESTS: '1' });
    });
    afterAll(() => limited?.close());

    it.each(LANGUAGES)('in %s', async (language) => {
      const page = await newBrowser(language);
      const url = `${limited.baseUrl}/checkin/not-a-real-token?lang=${language}`;
      // The first request of the minute may still be answered (404); the next is refused.
      await page.goto(url);
      expect((await page.goto(url))?.status()).toBe(429);
      await expectAccessible(page, language, pageErrors(language)['too-many-requests'].title);
    });
  });
});
