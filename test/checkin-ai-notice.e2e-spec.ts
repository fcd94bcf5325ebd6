/**
 * The AI notice before Start (EU AI Act art. 50(3), docs/accessibility.md), in a real headless
 * Chromium (test/support/chromium.ts, driven by playwright-core), in all 12 languages, for an
 * enterprise that declared an EU wellbeing programme (through the operator's CLI,
 * `enterprises:set-programme`) and for one that declared none:
 *
 * - on the start page, the consent page and the check-in page, the notice (its heading, what the AI
 *   infers her wellbeing from, the declared purpose) comes before every button that starts the
 *   check-in — in the document and in the accessibility tree a screen reader is given;
 * - under the EU wellbeing declaration the pages say words and answers only, and never that her
 *   voice or face are analysed; without a declaration they say voice, face and words, and that no
 *   programme was declared;
 * - the notice links to `#programme`, the full declaration (on the settings page too), whose
 *   operator-typed basis is shown as text;
 * - axe-core finds no WCAG 2.x A/AA violation on those pages and the settings page at a phone's
 *   and a laptop's width, and nothing scrolls sideways.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { LOCALES, type Locale } from '../src/common/i18n/locales';
import { declaredOn } from '../src/pages/page-models';
import { pageTextsIn } from '../src/pages/pages.messages';
import { ParticipantLinks } from '../src/participant-links/participant-links';
import { axeViolations, fitsWidth } from './support/accessibility';
import { launchChromium } from './support/chromium';
import { cli } from './support/cli';
import { ENGINE_TOKEN } from './support/engine';
import {
  SessionCreated,
  startTestApp,
  TestApp,
  TestEnterprise,
  TestGroup,
} from './support/test-app';

/** Nothing is handed off here: the engine only has to be configured for the hand-off's button. */
const ENGINE_URL = 'http://127.0.0.1:9/start';
/** Typed by the operator: markup and quotes in it are text on the page, never markup. */
const BASIS = 'GDPR art. 9(2)(a), explicit consent <b>not markup</b> & "quoted"';
const CONTACT = 'dpo@example.com';
/** A phone held upright and a laptop. */
const SIZES = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

jest.setTimeout(120_000);

describe('The AI notice before Start, in a real browser (EU AI Act art. 50(3))', () => {
  let t: TestApp;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let participants = 0;
  const worlds = {} as Record<
    'declared' | 'undeclared',
    { enterprise: TestEnterprise; group: TestGroup; declaredAt: Date | null }
  >;

  beforeAll(async () => {
    browser = await launchChromium();
    t = await startTestApp({ ENGINE_URL, ENGINE_TOKEN });
    for (const [key, name] of [
      ['declared', 'Declared Co'],
      ['undeclared', 'Quiet Co'],
    ] as const) {
      const enterprise = await t.newEnterprise(name);
      const group = await t.newGroup(enterprise, 'Night shift');
      const update = await t.request('PUT', `/groups/${group.groupID}`, {
        apiKey: enterprise.apiKey,
        body: { consentRequired: 'true' },
      });
      expect(update.status).toBe(200);
      worlds[key] = { enterprise, group, declaredAt: null };
    }
    // Declared as an operator does it: the CLI, on the app's database.
    const declared = await cli(
      [
        'enterprises:set-programme',
        worlds.declared.enterprise.enterpriseId,
        '--jurisdiction',
        'eu',
        '--purpose',
        'wellbeing',
        '--basis',
        BASIS,
        '--contact',
        CONTACT,
      ],
      { DATABASE_URL: t.config.database.url },
    );
    expect(declared).toMatchObject({ code: 0 });
    const { rows } = await t.db.query<{ at: Date }>(
      'SELECT programme_declared_at AS at FROM enterprises WHERE id = $1',
      [worlds.declared.enterprise.enterpriseId],
    );
    worlds.declared.declaredAt = rows[0].at;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });

  /** A new participant's check-in link in the world's group (consent required). */
  async function newCheckin(world: 'declared' | 'undeclared') {
    participants += 1;
    const { enterprise, group } = worlds[world];
    const created = await t.createSession(enterprise, group, `notice${participants}@example.com`);
    expect(created.status).toBe(200);
    const body = created.body as SessionCreated;
    return { sessionId: body.sessionID, path: new URL(body.redirectUrl).pathname };
  }

  /** The settings link an email about `sessionId`'s membership carries, on this test's host. */
  async function settingsPath(sessionId: string): Promise<string> {
    const { rows } = await t.db.query<{ participant_id: string; group_id: string }>(
      'SELECT participant_id, group_id FROM sessions WHERE session_id = $1',
      [sessionId],
    );
    const link = new URL(
      t.app.get(ParticipantLinks).settingsUrl({
        participantId: rows[0].participant_id,
        groupId: Number(rows[0].group_id),
        linkVersion: 0,
      }),
    );
    return `${link.pathname}${link.search}`;
  }

  /** A browser of its own in `language` (its Accept-Language, so form answers are in it too). */
  async function newPage(language: Locale): Promise<Page> {
    const context = await browser.newContext({ locale: language, viewport: SIZES[1] });
    contexts.push(context);
    return context.newPage();
  }

  /** `path` on the app under test with `lang` set. */
  const address = (path: string, language: Locale) =>
    `${t.baseUrl}${path}${path.includes('?') ? '&' : '?'}lang=${language}`;

  /** Whether every button and form of the page comes after the notice in the document. */
  const noticeFirst = (page: Page) =>
    page.evaluate<{ notices: number; controls: number; before: number }>(`(() => {
      const notices = document.querySelectorAll('#ai-notice');
      const controls = [...document.querySelectorAll('button, form, input')];
      const before = controls.filter(
        (control) =>
          notices.length === 1 &&
          !(notices[0].compareDocumentPosition(control) & Node.DOCUMENT_POSITION_FOLLOWING),
      ).length;
      return { notices: notices.length, controls: controls.length, before };
    })()`);

  /** axe's WCAG 2.x A/AA findings, and sideways scrolling, at a phone's and a laptop's width. */
  async function accessibilityFindings(page: Page, where: string): Promise<string[]> {
    const findings: string[] = [];
    for (const size of SIZES) {
      await page.setViewportSize(size);
      for (const finding of await axeViolations(page)) {
        findings.push(
          `${where}, ${size.name}: ${finding.rule} at ${finding.target}: ${finding.message}`,
        );
      }
      if (!(await fitsWidth(page))) findings.push(`${where}, ${size.name}: scrolls sideways`);
    }
    await page.setViewportSize(SIZES[1]);
    return findings;
  }

  describe.each([
    ['an EU wellbeing programme', 'declared', 'Declared Co'],
    ['no programme', 'undeclared', 'Quiet Co'],
  ] as const)('for an enterprise that declared %s', (_, world, enterpriseName) => {
    const declared = world === 'declared';

    it.each([...LOCALES])(
      'in %s: the notice precedes Start on every page, says what is analysed and why, and links the declaration',
      async (language) => {
        const texts = pageTextsIn(language);
        const inference = declared ? 'off' : 'on';
        const purpose = texts.aiNoticePurpose(declared ? 'wellbeing' : null, enterpriseName);
        const checkin = await newCheckin(world);
        const page = await newPage(language);
        const findings: string[] = [];

        /**
         * The notice is there once, before every control, and a screen reader reads its heading,
         * what is inferred from what and the purpose before the button named `button`.
         */
        async function expectNoticeBefore(button: string, where: string) {
          expect([where, await noticeFirst(page)]).toEqual([
            where,
            expect.objectContaining({ notices: 1, before: 0 }),
          ]);
          const tree = await page.locator('main').ariaSnapshot();
          const order = [
            `heading "${texts.aiNoticeHeading}" [level=2]`,
            texts.aiNoticeInfers(inference),
            purpose,
            `button "${button}"`,
          ].map((needle) => tree.indexOf(needle));
          expect({ where, order, tree }).toEqual({
            where,
            order: [...order].sort((a, b) => a - b),
            tree,
          });
          expect({ where, missing: order.includes(-1) }).toEqual({ where, missing: false });

          // What it says is analysed: her words and answers only under the EU wellbeing
          // declaration, never her voice or face; else voice, face and words.
          const shown = await page.locator('main').innerText();
          const said = (text: string) => shown.includes(text) || tree.includes(text);
          expect(said(texts.aiNoticeInfers(inference))).toBe(true);
          for (const biometric of [
            texts.aiNoticeInfers('on'),
            texts.programmeAnalysed('on'),
            texts.programmeNone(enterpriseName),
            texts.levelText(5),
          ]) {
            if (declared)
              expect({ where, biometric, said: said(biometric) }).toMatchObject({ said: false });
          }
          if (!declared) expect(said(texts.aiNoticeInfers('off'))).toBe(false);
        }

        /** The full declaration (`#programme`), or that none was declared. */
        async function expectDeclaration() {
          const section = page.locator('section#programme');
          expect(
            await section.getByRole('heading', { name: texts.programmeHeading, level: 2 }).count(),
          ).toBe(1);
          if (!declared) {
            expect(await section.innerText()).toContain(texts.programmeNone(enterpriseName));
            expect(await section.locator('dd').count()).toBe(0);
            return;
          }
          expect(await section.innerText()).toContain(texts.programmeDeclared(enterpriseName));
          expect(await section.locator('dt').allInnerTexts()).toEqual([
            texts.programmeJurisdictionLabel,
            texts.programmePurposeLabel,
            texts.programmeAnalysedLabel,
            texts.programmeBasisLabel,
            texts.programmeContactLabel,
            texts.programmeDeclaredAtLabel,
          ]);
          expect(await section.locator('dd').allInnerTexts()).toEqual([
            texts.programmeJurisdiction('eu'),
            texts.programmePurpose('wellbeing'),
            texts.programmeAnalysed('off'),
            BASIS,
            CONTACT,
            declaredOn(worlds.declared.declaredAt!, language),
          ]);
          expect(await section.locator('b').count()).toBe(0);
          expect(await section.getByRole('link', { name: CONTACT }).getAttribute('href')).toBe(
            `mailto:${CONTACT}`,
          );
        }

        // The start page: the notice, then Start.
        await page.goto(address(checkin.path, language));
        expect(await page.getAttribute('html', 'lang')).toBe(language);
        await expectNoticeBefore(texts.startButton, 'start page');
        await expectDeclaration();
        findings.push(...(await accessibilityFindings(page, 'start page')));
        const link = page.getByRole('link', {
          name: declared ? texts.aiNoticeDeclarationLink : texts.aiNoticeNoDeclarationLink,
        });
        expect(await link.getAttribute('href')).toBe('#programme');
        await link.click();
        expect(new URL(page.url()).hash).toBe('#programme');

        // Consent: the notice before "I agree".
        await page.getByRole('button', { name: texts.startButton, exact: true }).click();
        await page.waitForURL(`${t.baseUrl}${checkin.path}`);
        await expectNoticeBefore(texts.consentButton, 'consent page');
        await expectDeclaration();
        findings.push(...(await accessibilityFindings(page, 'consent page')));

        // The check-in page: the notice before "Start my check-in".
        await page.getByRole('button', { name: texts.consentButton }).click();
        await page.waitForURL(/saved=consent$/);
        await expectNoticeBefore(texts.handoffButton, 'check-in page');
        await expectDeclaration();
        findings.push(...(await accessibilityFindings(page, 'check-in page')));

        // Her settings page (her privacy page) shows the declaration too.
        await page.goto(address(await settingsPath(checkin.sessionId), language));
        expect(await page.locator('h1').innerText()).toBe(texts.settingsTitle('Night shift'));
        await expectDeclaration();
        const settings = await page.locator('main').innerText();
        expect(settings.includes(texts.levelText(5))).toBe(!declared);
        expect(settings.includes(texts.levelText(5, false))).toBe(declared);
        findings.push(...(await accessibilityFindings(page, 'settings page')));

        expect(findings).toEqual([]);
      },
    );
  });
});
