/**
 * One browser identity for the check-in host, minted by the server (docs/privacy.md), and page
 * forms that change nothing when another site posts them (docs/security.md) — tried as the
 * enterprise would: it holds every check-in link, and may plant a cookie or post a form from a
 * page of its own. The same in real Chromium: checkin-browser.e2e-spec.ts.
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../src/common/crypto/secrets';
import { Measurements } from '../src/common/measurements/measurements';
import { PAGE_ERRORS } from '../src/pages/pages.messages';
import { ParticipantLinks } from '../src/participant-links/participant-links';
import { PageAnswer, PageBrowser } from './support/page-browser';
import { SessionCreated, startTestApp, TestApp, TestEnterprise } from './support/test-app';

/** A value of the form the server mints (43 base64url characters). */
const cookieValue = () => randomBytes(32).toString('base64url');
const setCookieOf = (answer: PageAnswer) => answer.headers.getSetCookie();
const checkinPath = (created: SessionCreated) => new URL(created.redirectUrl).pathname;
const REPLACED = 'checkin_browser_replaced_identity_total';

function expectErrorPage(answer: PageAnswer, status: number, kind: keyof typeof PAGE_ERRORS) {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(answer.html).toContain(`<h1>${PAGE_ERRORS[kind].title}</h1>`);
}

describe('Browser identity over http (a laptop): the plain cookie name', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp();
    acme = await t.newEnterprise('Acme');
  });
  afterAll(() => t.close());

  const newSession = async (identifier = `person${++n}@example.com`) => {
    const group = await t.newGroup(acme, `Group ${n}`);
    const created = await t.createSession(acme, group, identifier);
    expect(created.status).toBe(200);
    return created.body as SessionCreated;
  };
  const levelOf = async (sessionId: string) =>
    (
      await t.db.query<{ privacy_level: number }>(
        `SELECT m.privacy_level FROM sessions s
           JOIN memberships m ON m.participant_id = s.participant_id AND m.group_id = s.group_id
          WHERE s.session_id = $1`,
        [sessionId],
      )
    ).rows[0].privacy_level;

  it('gives the browser a new identity on every Start: the one it replaced stops working, and the browser keeps its check-ins', async () => {
    const browser = new PageBrowser(t.baseUrl);
    const first = await newSession();
    const started = await browser.post(`${checkinPath(first)}/start`);
    expect(started.status).toBe(303);
    const [cookie] = setCookieOf(started);
    expect(cookie).toMatch(
      /^checkin_browser=[A-Za-z0-9_-]{43}; Max-Age=15552000; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    const value = cookie.split(';')[0].split('=')[1];
    expect(
      (await t.db.query('SELECT 1 FROM browsers WHERE hash = $1', [sha256Hex(value)])).rows,
    ).toHaveLength(1);

    const second = await newSession();
    const again = await browser.post(`${checkinPath(second)}/start`);
    expect(again.status).toBe(303);
    const [renewed] = setCookieOf(again);
    expect(renewed).toMatch(/^checkin_browser=[A-Za-z0-9_-]{43};/);
    expect(renewed).not.toContain(value);
    for (const created of [first, second]) {
      expect((await browser.get(checkinPath(created))).status).toBe(200);
    }
    // The replaced value, brought back (a copy of the cookie), is an unknown browser: logged
    // and counted.
    const counted = async () =>
      (await t.app.get(Measurements).registry.getSingleMetric(REPLACED)?.get())?.values[0]?.value ??
      0;
    const before = await counted();
    const copy = new PageBrowser(t.baseUrl);
    copy.plant(`checkin_browser=${value}`);
    expectErrorPage(await copy.get(checkinPath(first)), 403, 'opened-elsewhere');
    expect(await counted()).toBe(before + 1);
  });

  it('a cookie the enterprise minted for itself and planted in a member’s browser is hers at her next Start: the enterprise cannot raise or read her check-in with it', async () => {
    // The enterprise gets a minted value by starting a check-in of its own (a member it invented).
    const enterprise = new PageBrowser(t.baseUrl);
    const own = await newSession();
    expect((await enterprise.post(`${checkinPath(own)}/start`)).status).toBe(303);
    const planted = enterprise.headers().cookie;
    // It plants that value in the member's browser; she does a check-in there.
    const member = new PageBrowser(t.baseUrl);
    member.plant(planted);
    const group = await t.newGroup(acme, 'Planted');
    const hers = (await t.createSession(acme, group, 'member.planted@example.com'))
      .body as SessionCreated;
    expect((await member.post(`${checkinPath(hers)}/start`)).status).toBe(303);
    expect(member.headers().cookie).not.toBe(planted);
    // The enterprise, with the planted value, mints a fresh link of hers and posts a raise that
    // would reach the earlier check-ins "done in this browser": refused, nothing changes.
    const fresh = (await t.createSession(acme, group, hers.userIdentifier)).body as SessionCreated;
    const raise = await enterprise.post(`${checkinPath(fresh)}/start`);
    expect(raise.status).toBe(303);
    await enterprise.post(`${checkinPath(fresh)}/privacy`, {
      privacyLevel: '5',
      shareEarlier: 'on',
    });
    const { rows } = await t.db.query<{ shared_level: number | null }>(
      'SELECT shared_level FROM sessions WHERE session_id = $1',
      [hers.sessionID],
    );
    expect(rows[0].shared_level ?? 0).toBe(0);
    // Her own browser goes on with her check-in.
    expect((await member.get(checkinPath(hers))).status).toBe(200);
  });

  describe('forms posted from another site change nothing', () => {
    let browser: PageBrowser;
    let session: SessionCreated;

    beforeAll(async () => {
      browser = new PageBrowser(t.baseUrl);
      session = await newSession();
      expect((await browser.post(`${checkinPath(session)}/start`)).status).toBe(303);
    });

    const foreign: [string, Record<string, string>][] = [
      ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
      ['Sec-Fetch-Site: same-site (a sibling host)', { 'sec-fetch-site': 'same-site' }],
      ['no Sec-Fetch-Site, a foreign Origin', { origin: 'https://evil.example' }],
      ['no Sec-Fetch-Site, Origin: null', { origin: 'null' }],
      ['no Sec-Fetch-Site, this host on another port', { origin: 'http://127.0.0.1:1' }],
    ];

    it.each(foreign)('%s: 403 page, level unchanged', async (_name, headers) => {
      const answer = await browser.request(`${checkinPath(session)}/privacy`, {
        form: { privacyLevel: '5' },
        headers,
      });
      expectErrorPage(answer, 403, 'foreign-form');
      expect(setCookieOf(answer)).toEqual([]);
      expect(await levelOf(session.sessionID)).toBe(0);
    });

    it('refuses every page form: Start, consent, preferences and each settings action', async () => {
      const other = await newSession();
      const participant = await t.db.query<{ participant_id: string; group_id: string }>(
        'SELECT participant_id, group_id FROM sessions WHERE session_id = $1',
        [other.sessionID],
      );
      const link = new URL(
        t.app.get(ParticipantLinks).settingsUrl({
          participantId: participant.rows[0].participant_id,
          groupId: Number(participant.rows[0].group_id),
          linkVersion: 0,
        }),
      );
      const settings = (action: string) => `${link.pathname}${action}${link.search}`;
      const paths = [
        `${checkinPath(other)}/start`,
        `${checkinPath(other)}/consent`,
        `${checkinPath(other)}/preferences`,
        settings('/privacy'),
        settings('/preferences'),
        settings('/consent/withdraw'),
        settings('/sign-out'),
        settings('/export'),
        settings('/delete'),
      ];
      const fresh = new PageBrowser(t.baseUrl);
      for (const path of paths) {
        const answer = await fresh.request(path, {
          form: { privacyLevel: '5' },
          headers: { 'sec-fetch-site': 'cross-site' },
        });
        expectErrorPage(answer, 403, 'foreign-form');
      }
      // Nothing was bound, minted or changed by any of them.
      expect(setCookieOf(await fresh.get(checkinPath(other)))).toEqual([]);
      const bindings = await t.db.query('SELECT 1 FROM link_bindings WHERE participant_id = $1', [
        participant.rows[0].participant_id,
      ]);
      expect(bindings.rows).toEqual([]);
      expect(await levelOf(other.sessionID)).toBe(0);
    });

    it('leaves the one-click unsubscribe open: mail providers post it from elsewhere (RFC 8058)', async () => {
      const participant = await t.db.query<{ participant_id: string; group_id: string }>(
        'SELECT participant_id, group_id FROM sessions WHERE session_id = $1',
        [session.sessionID],
      );
      const link = new URL(
        t.app.get(ParticipantLinks).unsubscribeUrl(
          {
            participantId: participant.rows[0].participant_id,
            groupId: Number(participant.rows[0].group_id),
            linkVersion: 0,
          },
          'checkinReminder',
        ),
      );
      const answer = await new PageBrowser(t.baseUrl).request(`${link.pathname}${link.search}`, {
        form: 'List-Unsubscribe=One-Click',
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      expect(answer.status).toBe(200);
      const stored = await t.db.query(
        'SELECT pref_checkin_reminder FROM participants WHERE id = $1',
        [participant.rows[0].participant_id],
      );
      expect(stored.rows).toEqual([{ pref_checkin_reminder: false }]);
    });

    it('accepts a form of these pages (same-origin, or a client that says nothing)', async () => {
      const sameOrigin = await browser.request(`${checkinPath(session)}/privacy`, {
        form: { privacyLevel: '2' },
        headers: { 'sec-fetch-site': 'same-origin', origin: 'http://127.0.0.1' },
      });
      expect(sameOrigin.status).toBe(303);
      expect(await levelOf(session.sessionID)).toBe(2);
      const plain = await browser.post(`${checkinPath(session)}/privacy`, { privacyLevel: '1' });
      expect(plain.status).toBe(303);
      expect(await levelOf(session.sessionID)).toBe(1);
    });
  });
});

describe('Browser identity over https: __Host-checkin_browser', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL: 'https://checkin.example.com' });
    acme = await t.newEnterprise('Acme');
  });
  afterAll(() => t.close());

  const newSession = async () => {
    const group = await t.newGroup(acme, `Group ${++n}`);
    const created = await t.createSession(acme, group, `secure${n}@example.com`);
    expect(created.status).toBe(200);
    return created.body as SessionCreated;
  };

  it('sets a __Host- cookie: Secure, Path=/, no Domain', async () => {
    const started = await new PageBrowser(t.baseUrl).post(
      `${checkinPath(await newSession())}/start`,
    );
    expect(setCookieOf(started)).toEqual([
      expect.stringMatching(
        /^__Host-checkin_browser=[A-Za-z0-9_-]{43}; Max-Age=15552000; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
      ) as string,
      // The device cookie, which never rotates (docs/privacy.md): also __Host-.
      expect.stringMatching(
        /^__Host-checkin_device=[A-Za-z0-9_-]{43}; Max-Age=15552000; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
      ) as string,
    ]);
  });

  it('adopts no plain cookie (another host of the site could have set it), even a minted one', async () => {
    const minted = cookieValue();
    await t.db.query('INSERT INTO browsers (hash) VALUES ($1)', [sha256Hex(minted)]);
    const browser = new PageBrowser(t.baseUrl);
    browser.plant(`checkin_browser=${minted}`);
    const started = await browser.post(`${checkinPath(await newSession())}/start`);
    const [cookie] = setCookieOf(started);
    expect(cookie).toMatch(/^__Host-checkin_browser=[A-Za-z0-9_-]{43};/);
    expect(cookie).not.toContain(minted);
  });

  it('on an https host the plain cookie holds no link, even a minted identity bound to it', async () => {
    // Another host of the site can set `checkin_browser`; only `__Host-checkin_browser` counts.
    const plain = cookieValue();
    const session = await newSession();
    await t.db.query('INSERT INTO browsers (hash) VALUES ($1)', [sha256Hex(plain)]);
    await t.db.query(
      `INSERT INTO link_bindings (link, browser_hash, participant_id)
       SELECT 'checkin:' || session_id, $2, participant_id FROM sessions WHERE session_id = $1`,
      [session.sessionID, sha256Hex(plain)],
    );
    const browser = new PageBrowser(t.baseUrl);
    browser.plant(`checkin_browser=${plain}`);
    expectErrorPage(await browser.get(checkinPath(session)), 403, 'opened-elsewhere');
  });

  it('refuses a form whose Origin is not the public origin', async () => {
    const session = await newSession();
    const browser = new PageBrowser(t.baseUrl);
    const answer = await browser.request(`${checkinPath(session)}/start`, {
      form: {},
      headers: { origin: 'https://checkin.example.com.evil.example' },
    });
    expectErrorPage(answer, 403, 'foreign-form');
    const ours = await browser.request(`${checkinPath(session)}/start`, {
      form: {},
      headers: { origin: 'https://checkin.example.com' },
    });
    expect(ours.status).toBe(303);
  });
});
