/**
 * docs/security.md: every HTML answer — the check-in pages, the settings pages, unsubscribe, redirects
 * and every error page under `/checkin` and `/participant` (404s, wrong methods, unreadable and
 * oversized forms, unroutable URLs, another browser, an unexpected failure) — carries the same
 * security headers, rendered by the one template engine.
 */
import { PAGE_ERRORS, PageTexts } from '../src/pages/pages.messages';
import { ParticipantLinks } from '../src/participant-links/participant-links';
import { ENGINE_TOKEN, engineResult, postResult, subscores, userSays } from './support/engine';
import { PageAnswer, PageBrowser } from './support/page-browser';
import { SessionCreated, startTestApp, TestApp } from './support/test-app';

const ENGINE_URL = 'https://engine.example.com/start';

/** The one set of headers, exactly. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'none'; style-src 'self' 'unsafe-inline'; " +
    "form-action 'self' https://engine.example.com; base-uri 'none'; frame-ancestors 'none'",
};

type HeaderName = keyof typeof PAGE_HEADERS;

interface Case {
  name: string;
  method: string;
  path: string;
  /** A form (urlencoded) or a raw body with its content type. */
  body?: Record<string, string> | { raw: string; type: string };
  status: number;
  /** The h1 of the page, when it is one (redirects have none). */
  h1?: string;
  browser?: PageBrowser;
}

describe('Security headers of every HTML answer (docs/security.md)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ ENGINE_URL, ENGINE_TOKEN });
  });
  afterAll(() => t.close());

  const send = (test: Case, browser: PageBrowser): Promise<PageAnswer> =>
    browser.request(`${t.baseUrl}${test.path}`, {
      method: test.method,
      ...(test.body !== undefined && 'raw' in test.body
        ? { form: test.body.raw, contentType: test.body.type }
        : { form: test.body }),
    });

  const securityHeaders = (headers: Headers): Record<string, string | null> =>
    Object.fromEntries(
      (Object.keys(PAGE_HEADERS) as HeaderName[]).map((name) => [name, headers.get(name)]),
    );

  it('is the same on every page, form answer, redirect and error page', async () => {
    const acme = await t.newEnterprise('Acme');
    const group = await t.newGroup(acme, 'Headers');
    await t.request('PUT', `/groups/${group.groupID}`, {
      apiKey: acme.apiKey,
      body: { consentRequired: 'true' },
    });
    const created = (await t.createSession(acme, group, 'headers@example.com'))
      .body as SessionCreated;
    const checkin = new URL(created.redirectUrl).pathname;
    const { rows } = await t.db.query<{ id: string }>(
      'SELECT id FROM participants WHERE external_id = $1',
      [created.userIdentifier],
    );
    const participantId = rows[0].id;
    const links = t.app.get(ParticipantLinks);
    const local = (url: string) => {
      const parsed = new URL(url);
      return `${parsed.pathname}${parsed.search}`;
    };
    const settings = local(
      links.settingsUrl({ participantId, groupId: group.groupID, linkVersion: 0 }),
    );
    const settingsForm = (form: string) => settings.replace('?', `/${form}?`);
    const unsubscribe = local(
      links.unsubscribeUrl(
        { participantId, groupId: group.groupID, linkVersion: 0 },
        'checkinReminder',
      ),
    );
    const participantBrowser = new PageBrowser();
    const otherBrowser = new PageBrowser();
    const notFound = PAGE_ERRORS['not-found'].title;

    const cases: (Case | (() => Promise<void>))[] = [
      // The check-in, from its start page to /done.
      { name: 'start page', method: 'GET', path: checkin, status: 200 },
      { name: 'start', method: 'POST', path: `${checkin}/start`, status: 303 },
      { name: 'consent page', method: 'GET', path: checkin, status: 200 },
      {
        name: 'privacy before consent',
        method: 'POST',
        path: `${checkin}/privacy`,
        body: { privacyLevel: '2' },
        status: 403,
        h1: PAGE_ERRORS['consent-first'].title,
      },
      { name: 'consent', method: 'POST', path: `${checkin}/consent`, status: 303 },
      {
        name: 'check-in page',
        method: 'GET',
        path: `${checkin}?saved=consent`,
        status: 200,
        h1: PageTexts.checkinTitle('Headers'),
      },
      {
        name: 'privacy',
        method: 'POST',
        path: `${checkin}/privacy`,
        body: { privacyLevel: '2' },
        status: 303,
      },
      {
        name: 'privacy out of range',
        method: 'POST',
        path: `${checkin}/privacy`,
        body: { privacyLevel: '9' },
        status: 400,
        h1: PAGE_ERRORS['invalid-privacy-level'].title,
      },
      {
        name: 'preferences',
        method: 'POST',
        path: `${checkin}/preferences`,
        body: { checkinReminder: 'on' },
        status: 303,
      },
      {
        name: 'done, pending',
        method: 'GET',
        path: `${checkin}/done`,
        status: 200,
        h1: PageTexts.pendingTitle,
      },
      async () => {
        const result = await postResult(
          t,
          created.sessionID,
          engineResult({
            mhci: 50,
            subscores: subscores(50),
            transcript: userSays('Fine.'),
            features: { pitch: 0.5 },
          }),
        );
        expect(result.status).toBe(200);
      },
      { name: 'done, completed', method: 'GET', path: `${checkin}/done`, status: 302 },
      {
        name: 'check-in in another browser',
        method: 'GET',
        path: checkin,
        status: 403,
        h1: PAGE_ERRORS['opened-elsewhere'].title,
        browser: otherBrowser,
      },
      // The settings pages.
      {
        name: 'settings page',
        method: 'GET',
        path: settings,
        status: 200,
        h1: PageTexts.settingsTitle('Headers'),
      },
      {
        name: 'settings privacy',
        method: 'POST',
        path: settingsForm('privacy'),
        body: { privacyLevel: '1' },
        status: 303,
      },
      {
        name: 'settings preferences',
        method: 'POST',
        path: settingsForm('preferences'),
        body: { checkinReminder: 'on', privacyRequest: 'on' },
        status: 303,
      },
      {
        name: 'settings delete confirmation',
        method: 'GET',
        path: settingsForm('delete'),
        status: 200,
        h1: PageTexts.deleteTitle,
      },
      // Unsubscribe, valid and not.
      {
        name: 'unsubscribe confirmation',
        method: 'GET',
        path: unsubscribe,
        status: 200,
        h1: PageTexts.unsubscribeTitle,
      },
      {
        name: 'unsubscribe',
        method: 'POST',
        path: unsubscribe,
        body: { 'List-Unsubscribe': 'One-Click' },
        status: 200,
        h1: PageTexts.unsubscribedTitle,
      },
      {
        name: 'unsubscribe, bad token (GET)',
        method: 'GET',
        path: '/participant/unsubscribe?token=nope',
        status: 404,
        h1: PAGE_ERRORS['unsubscribe-not-valid'].title,
      },
      {
        name: 'unsubscribe, bad token (POST)',
        method: 'POST',
        path: '/participant/unsubscribe?token=nope',
        body: { 'List-Unsubscribe': 'One-Click' },
        status: 404,
        h1: PAGE_ERRORS['unsubscribe-not-valid'].title,
      },
      {
        name: 'unsubscribe, no token',
        method: 'POST',
        path: '/participant/unsubscribe',
        status: 404,
        h1: PAGE_ERRORS['unsubscribe-not-valid'].title,
      },
      // Error pages raised before or outside any route.
      ...[
        '/checkin',
        '/checkin/',
        '/checkin/nope',
        '/checkin/nope/done',
        `${checkin}/nothing-here`,
        '/checkin/%zz',
        `/checkin/${'x'.repeat(3000)}`,
        '/participant',
        '/participant/',
        '/participant/nothing-here',
        '/participant/settings?token=nope',
        '/participant/settings/nothing-here',
      ].map((path): Case => ({
        name: `404 ${path.slice(0, 40)}`,
        method: 'GET',
        path,
        status: 404,
        h1: notFound,
      })),
      ...[
        ['POST', '/checkin'],
        ['DELETE', checkin],
        ['PUT', `${checkin}/privacy`],
        ['PATCH', settings],
        ['DELETE', unsubscribe],
        ['POST', '/participant'],
      ].map(([method, path]): Case => ({
        name: `wrong method ${method} ${path.slice(0, 30)}`,
        method,
        path,
        status: 404,
        h1: notFound,
      })),
      {
        name: 'a form that is not urlencoded',
        method: 'POST',
        path: settingsForm('privacy'),
        body: { raw: 'privacyLevel=1', type: 'text/plain' },
        status: 415,
        h1: PAGE_ERRORS['unreadable-form'].title,
      },
      {
        name: 'malformed JSON',
        method: 'POST',
        path: settingsForm('privacy'),
        body: { raw: '{"privacyLevel":', type: 'application/json' },
        status: 400,
        h1: PAGE_ERRORS['unreadable-form'].title,
      },
      {
        name: 'a form over 1 MiB',
        method: 'POST',
        path: `${checkin}/privacy`,
        body: { privacyLevel: '1', pad: 'x'.repeat(1_100_000) },
        status: 413,
        h1: PAGE_ERRORS['unreadable-form'].title,
      },
      // Last: withdrawing consent and signing out revoke this participant's links (docs/security.md).
      {
        name: 'settings withdraw consent',
        method: 'POST',
        path: settingsForm('consent/withdraw'),
        status: 303,
      },
      {
        name: 'settings withdraw consent, revoked link',
        method: 'POST',
        path: settingsForm('consent/withdraw'),
        status: 404,
        h1: notFound,
      },
      {
        name: 'unsubscribe, revoked link',
        method: 'GET',
        path: unsubscribe,
        status: 404,
        h1: PAGE_ERRORS['unsubscribe-not-valid'].title,
      },
    ];

    const answers: { name: string; status: number; headers: Record<string, string | null> }[] = [];
    for (const step of cases) {
      if (typeof step === 'function') {
        await step();
        continue;
      }
      const answer = await send(step, step.browser ?? participantBrowser);
      answers.push({
        name: step.name,
        status: answer.status,
        headers: securityHeaders(answer.headers),
      });
      if (step.h1 !== undefined) {
        expect({ name: step.name, h1: /<h1>([^<]*)<\/h1>/.exec(answer.html)?.[1] }).toEqual({
          name: step.name,
          h1: step.h1.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
        });
        expect(answer.html).toMatch(/^<!doctype html>\n<html lang="en" dir="ltr">/);
        expect(answer.html).not.toMatch(/<script/i);
      }
    }
    expect(answers).toEqual(
      cases
        .filter((step): step is Case => typeof step !== 'function')
        .map((step) => ({ name: step.name, status: step.status, headers: PAGE_HEADERS })),
    );
  });

  it('gives "Download my data" (a JSON attachment, not a page) the same headers but its type, and "Delete my data" the same headers', async () => {
    const acme = await t.newEnterprise('Exporter');
    const group = await t.newGroup(acme, 'Export');
    const created = (await t.createSession(acme, group, 'export@example.com'))
      .body as SessionCreated;
    const { rows } = await t.db.query<{ id: string }>(
      'SELECT id FROM participants WHERE external_id = $1',
      [created.userIdentifier],
    );
    const settings = new URL(
      t.app.get(ParticipantLinks).settingsUrl({
        participantId: rows[0].id,
        groupId: group.groupID,
        linkVersion: 0,
      }),
    );
    // Exported only in a browser that did one of the participant's check-ins (docs/privacy.md).
    const browser = new PageBrowser();
    const start = await browser.post(`${t.baseUrl}${new URL(created.redirectUrl).pathname}/start`);
    expect(start.status).toBe(303);
    const answer = await send(
      {
        name: 'export',
        method: 'POST',
        path: `${settings.pathname}/export${settings.search}`,
        status: 200,
      },
      browser,
    );
    expect(answer.status).toBe(200);
    expect(securityHeaders(answer.headers)).toEqual({
      ...PAGE_HEADERS,
      'content-type': 'application/json; charset=utf-8',
    });
    expect(answer.headers.get('content-disposition')).toBe(
      'attachment; filename="my-checkin-data.json"',
    );
    const deleted = await send(
      {
        name: 'delete',
        method: 'POST',
        path: `${settings.pathname}/delete${settings.search}`,
        status: 200,
      },
      browser,
    );
    expect(deleted.status).toBe(200);
    expect(securityHeaders(deleted.headers)).toEqual(PAGE_HEADERS);
    expect(deleted.html).toContain(`<h1>${PageTexts.deletedTitle}</h1>`);
    const gone = await send(
      { name: 'gone', method: 'GET', path: new URL(created.redirectUrl).pathname, status: 404 },
      browser,
    );
    expect(gone.status).toBe(404);
    expect(securityHeaders(gone.headers)).toEqual(PAGE_HEADERS);
  });

  it('answers an unexpected failure with a 500 page with the same headers', async () => {
    const acme = await t.newEnterprise('Broken');
    const group = await t.newGroup(acme, 'Broken');
    const created = (await t.createSession(acme, group, 'broken@example.com'))
      .body as SessionCreated;
    const path = new URL(created.redirectUrl).pathname;
    await t.db.query('ALTER TABLE memberships RENAME COLUMN consented_at TO consented_gone');
    try {
      const answer = await send(
        { name: '500', method: 'GET', path, status: 500 },
        new PageBrowser(),
      );
      expect(answer.status).toBe(500);
      expect(securityHeaders(answer.headers)).toEqual(PAGE_HEADERS);
      expect(answer.html).toContain(`<h1>${PAGE_ERRORS.unexpected.title}</h1>`);
    } finally {
      await t.db.query('ALTER TABLE memberships RENAME COLUMN consented_gone TO consented_at');
    }
  });
});
