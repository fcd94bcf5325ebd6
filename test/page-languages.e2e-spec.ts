/**
 * The participant pages' language (docs/i18n.md): `?lang=`, then `Accept-Language` by preference,
 * then English; `<html lang dir>` and `Content-Language` agree; every page that can be loaded
 * again has a switcher to the 12 languages that keeps its link; error pages speak the language
 * too; the texts are the catalogue's.
 */
import { translator } from '../src/common/i18n/catalogue';
import { LOCALE_NAMES, LOCALES } from '../src/common/i18n/locales';
import { pageErrors, pageTextsIn } from '../src/pages/pages.messages';
import { PageBrowser } from './support/page-browser';
import {
  SessionCreated,
  startTestApp,
  TestApp,
  TestEnterprise,
  TestGroup,
} from './support/test-app';

const htmlOpening = (html: string) => /<html lang="([^"]+)" dir="([^"]+)">/.exec(html)?.slice(1);
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
const decode = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The switcher's links: [lang, href, current]. */
function switcher(html: string): [string, string, boolean][] {
  const nav = /<nav class="languages"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
  return [
    ...nav.matchAll(/<a href="([^"]+)" lang="([^"]+)" hreflang="[^"]+"( aria-current="true")?>/g),
  ].map(([, href, lang, current]) => [lang, decode(href), Boolean(current)]);
}

describe('Participant pages in 12 languages', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let group: TestGroup;
  let checkinPath: string;
  let participantId: string;

  beforeAll(async () => {
    t = await startTestApp();
    acme = await t.newEnterprise('Acme');
    group = await t.newGroup(acme, 'Night shift');
    const created = (await t.createSession(acme, group, 'polyglot@example.com'))
      .body as SessionCreated;
    checkinPath = new URL(created.redirectUrl).pathname;
    participantId = created.userIdentifier;
  });
  afterAll(() => t.close());
  /** The participants forget their saved language: these tests are about what browsers ask. */
  const forgetSavedLanguages = () => t.db.query('UPDATE participants SET language = NULL');
  beforeEach(forgetSavedLanguages);
  const savedLanguage = async () =>
    (
      await t.db.query<{ language: string | null }>(
        'SELECT language FROM participants WHERE external_id = $1',
        [participantId],
      )
    ).rows[0].language;

  it('answers in the language ?lang= asks for, every one of the 12, with lang, dir and Content-Language', async () => {
    for (const locale of LOCALES) {
      const page = await new PageBrowser(t.baseUrl).get(`${checkinPath}?lang=${locale}`);
      expect(page.status).toBe(200);
      expect(htmlOpening(page.html)).toEqual([locale, locale === 'ar' ? 'rtl' : 'ltr']);
      expect(page.headers.get('content-language')).toBe(locale);
      expect(decode(titleOf(page.html) ?? '')).toBe(
        pageTextsIn(locale).checkinTitle('Night shift'),
      );
      expect(decode(page.html)).toContain(pageTextsIn(locale).startButton);
    }
    const german = translator('de')('checkinTitle', { groupName: 'Night shift' });
    expect(german).not.toBe(translator('en')('checkinTitle', { groupName: 'Night shift' }));
  });

  it('otherwise follows Accept-Language by preference, then English', async () => {
    const withHeader = (value: string) =>
      new PageBrowser(t.baseUrl).request(checkinPath, { headers: { 'accept-language': value } });
    for (const [header, expected] of [
      ['fr-CH, fr;q=0.9, en;q=0.8', 'fr'],
      ['tlh, ja;q=0.5, de;q=0.7', 'de'],
      ['zh-CN,zh;q=0.9', 'zh-Hans'],
      ['ar-EG', 'ar'],
      ['zh-TW', 'en'],
      ['*', 'en'],
    ] as const) {
      const page = await withHeader(header);
      expect([header, htmlOpening(page.html)?.[0], page.headers.get('content-language')]).toEqual([
        header,
        expected,
        expected,
      ]);
    }
    // ?lang= wins over the header; an unknown ?lang= is ignored.
    const chosen = await new PageBrowser(t.baseUrl).request(`${checkinPath}?lang=sv`, {
      headers: { 'accept-language': 'de' },
    });
    expect(htmlOpening(chosen.html)?.[0]).toBe('sv');
    await forgetSavedLanguages();
    const unknown = await new PageBrowser(t.baseUrl).request(`${checkinPath}?lang=xx`, {
      headers: { 'accept-language': 'pl' },
    });
    expect(htmlOpening(unknown.html)?.[0]).toBe('pl');
  });

  it('offers a switcher to every language that keeps the link (and its query), naming each in itself', async () => {
    const page = await new PageBrowser(t.baseUrl).get(`${checkinPath}?lang=ja`);
    const links = switcher(page.html);
    expect(links.map(([lang]) => lang)).toEqual([...LOCALES]);
    expect(links.filter(([, , current]) => current).map(([lang]) => lang)).toEqual(['ja']);
    for (const [lang, href] of links) expect(href).toBe(`${checkinPath}?lang=${lang}`);
    for (const locale of LOCALES)
      expect(decode(page.html)).toContain(`>${LOCALE_NAMES[locale]}</a>`);
    expect(page.html).toContain(
      `<nav class="languages" aria-label="${pageTextsIn('ja').languageSwitcherLabel}">`,
    );
    // A settings-style link keeps its token: the query is carried over, lang replaced.
    const error = await new PageBrowser(t.baseUrl).get('/participant/settings?token=abc&lang=de');
    expect(switcher(error.html)[0]).toEqual([
      'en',
      '/participant/settings?token=abc&lang=en',
      false,
    ]);
  });

  it('speaks the language on error pages, a form’s answer included (without a switcher there)', async () => {
    const notFound = await new PageBrowser(t.baseUrl).get('/checkin/not-a-link?lang=it');
    expect(notFound.status).toBe(404);
    expect(htmlOpening(notFound.html)).toEqual(['it', 'ltr']);
    expect(decode(notFound.html)).toContain(pageErrors('it')['not-found'].title);
    const posted = await new PageBrowser(t.baseUrl).request(`${checkinPath}/privacy`, {
      form: { privacyLevel: '2' },
      headers: { 'accept-language': 'ar' },
    });
    expect(posted.status).toBeGreaterThanOrEqual(400);
    expect(htmlOpening(posted.html)).toEqual(['ar', 'rtl']);
    expect(posted.headers.get('content-language')).toBe('ar');
    expect(switcher(posted.html)).toEqual([]);
  });

  it('remembers a language chosen with ?lang= in the browser, so forms and the pages after them keep it', async () => {
    const chosen = await fetch(`${t.baseUrl}${checkinPath}?lang=de`);
    expect(chosen.headers.getSetCookie()).toEqual([
      'checkin_lang=de; Max-Age=31536000; Path=/; HttpOnly; SameSite=Lax',
    ]);
    const withCookie = (cookie: string, headers: Record<string, string> = {}, path = checkinPath) =>
      new PageBrowser(t.baseUrl).request(path, { headers: { cookie, ...headers } });
    // The remembered language beats Accept-Language; ?lang= beats both.
    expect(
      htmlOpening((await withCookie('checkin_lang=de', { 'accept-language': 'fr' })).html),
    ).toEqual(['de', 'ltr']);
    const switched = await fetch(`${t.baseUrl}${checkinPath}?lang=ja`, {
      headers: { cookie: 'checkin_lang=de' },
    });
    expect(htmlOpening(await switched.text())?.[0]).toBe('ja');
    expect(switched.headers.getSetCookie()).toEqual([
      'checkin_lang=ja; Max-Age=31536000; Path=/; HttpOnly; SameSite=Lax',
    ]);
    // Choosing the remembered one again sets nothing; an unknown cookie value is ignored.
    const same = await fetch(`${t.baseUrl}${checkinPath}?lang=de`, {
      headers: { cookie: 'checkin_lang=de' },
    });
    expect(same.headers.getSetCookie()).toEqual([]);
    await forgetSavedLanguages();
    expect(
      htmlOpening((await withCookie('checkin_lang=xx', { 'accept-language': 'pl' })).html)?.[0],
    ).toBe('pl');
    // A form's answer (here an error page) follows the remembered language.
    await forgetSavedLanguages();
    const posted = await new PageBrowser(t.baseUrl).request(`${checkinPath}/privacy`, {
      form: { privacyLevel: '2' },
      headers: { cookie: 'checkin_lang=sv' },
    });
    expect(htmlOpening(posted.html)?.[0]).toBe('sv');
    // With the page's own cookie in the same answer (Start binds the browser), both are set.
    const created = (await t.createSession(acme, group, 'second@example.com'))
      .body as SessionCreated;
    const start = await fetch(
      `${t.baseUrl}${new URL(created.redirectUrl).pathname}/start?lang=ar`,
      {
        method: 'POST',
        redirect: 'manual',
      },
    );
    const cookies = start.headers.getSetCookie().map((cookie) => cookie.split('=')[0]);
    expect(cookies.sort()).toEqual(['checkin_browser', 'checkin_device', 'checkin_lang']);
  });

  it('keeps the participant’s choice with their data: after ?lang=, before the browser’s; the browser’s remembered choice is saved only when none is, Accept-Language never', async () => {
    const page = (headers: Record<string, string>, query = '') =>
      new PageBrowser(t.baseUrl).request(`${checkinPath}${query}`, { headers });
    const language = async (headers: Record<string, string>, query = '') =>
      htmlOpening((await page(headers, query)).html)?.[0];

    expect(await language({ 'accept-language': 'fr' })).toBe('fr');
    expect(await savedLanguage()).toBeNull();
    // Nothing saved yet: the browser's remembered choice becomes the participant's.
    expect(await language({ cookie: 'checkin_lang=sv' })).toBe('sv');
    expect(await savedLanguage()).toBe('sv');
    // Saved: it beats another browser's remembered choice and Accept-Language, unchanged.
    expect(await language({ cookie: 'checkin_lang=de', 'accept-language': 'fr' })).toBe('sv');
    expect(await savedLanguage()).toBe('sv');
    // ?lang= beats it and replaces it; an unknown ?lang= changes nothing.
    expect(await language({ cookie: 'checkin_lang=de' }, '?lang=ja')).toBe('ja');
    expect(await savedLanguage()).toBe('ja');
    expect(await language({}, '?lang=xx')).toBe('ja');
    expect(await savedLanguage()).toBe('ja');
    // A link that is not valid saves nothing anywhere.
    await new PageBrowser(t.baseUrl).get('/checkin/not-a-link?lang=it');
    expect(await savedLanguage()).toBe('ja');
  });
});
