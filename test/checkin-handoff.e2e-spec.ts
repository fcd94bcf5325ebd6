/**
 * The hand-off to the analysis engine, tried as the enterprise would (docs/privacy.md, "A
 * check-in's own level"; docs/checkin-flow.md, "Hand-off"). The enterprise holds every check-in
 * link, can create a session for any member at will, and has browsers of its own; the engine's
 * side of the contract is played here (the confirm step, the `handoff` field of the result).
 *
 * - A result for a session no browser handed off is recorded at level 0 (and, where the check-in
 *   needs consent, refused), whatever the member's level.
 * - A hand-off counts only once the browser that made it confirms it: the engine address copied
 *   from the enterprise's browser fails the confirm step in hers, and its result stays at 0.
 * - "Go back" returns to the level her browser last chose itself, however many raises other
 *   browsers made since.
 * - Whether a check-in needs consent is fixed when it is handed off: switching the group's flag
 *   off lets no withdrawn or never-consented check-in in.
 * - An identity cookie minted for the enterprise's browser and planted in hers brings nothing of
 *   the enterprise's along.
 * - Two Starts of one browser in flight get the same answer.
 */
import { PAGE_ERRORS, PageTexts } from '../src/pages/pages.messages';
import { IngestionErrors } from '../src/ingestion/ingestion.errors';
import { ParticipantChoices } from '../src/privacy/participant-choices';
import {
  confirmHandoff,
  ENGINE_TOKEN,
  engineResult,
  handoffOf,
  postResult,
  userSays,
} from './support/engine';
import { PageAnswer, PageBrowser } from './support/page-browser';
import {
  SessionCreated,
  startTestApp,
  TestApp,
  TestEnterprise,
  TestGroup,
} from './support/test-app';

const ENGINE_URL = 'https://engine.example.com/start';
const SECRET = 'my divorce and the antidepressant medication';
/** What a level-0 session shows: no result field at all. */
const LEVEL_0_FIELDS = ['externalID', 'sessionID', 'timestamp', 'groupID', 'version'];

describe('The hand-off to the engine is bound to the browser that made it', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp({ ENGINE_TOKEN, ENGINE_URL });
    acme = await t.newEnterprise('Acme');
  });
  afterAll(() => t.close());

  /** A member of a new group (consent required or not), with nothing done yet. */
  async function newMember(consentRequired = false) {
    const group = await t.newGroup(acme, `Team ${++n}`);
    if (consentRequired) await setConsentRequired(group, true);
    const created = await t.createSession(acme, group, `erin${n}@example.com`);
    expect(created.status).toBe(200);
    return { group, externalId: (created.body as SessionCreated).userIdentifier };
  }

  const setConsentRequired = async (group: TestGroup, required: boolean) => {
    const update = await t.request('PUT', `/groups/${group.groupID}`, {
      apiKey: acme.apiKey,
      body: { consentRequired: String(required) },
    });
    expect(update.status).toBe(200);
  };

  const newLink = async (group: TestGroup, externalId: string) => {
    const created = await t.createSession(acme, group, externalId);
    expect(created.status).toBe(200);
    const body = created.body as SessionCreated;
    return { sessionId: body.sessionID, path: new URL(body.redirectUrl).pathname };
  };

  const start = async (browser: PageBrowser, path: string) =>
    expect((await browser.post(`${path}/start`)).status).toBe(303);

  const setLevel = async (browser: PageBrowser, path: string, level: number) =>
    expect((await browser.post(`${path}/privacy`, { privacyLevel: String(level) })).status).toBe(
      303,
    );

  /** Presses "Start my check-in" (with an answer to the raise question, if any): the engine address. */
  async function handOff(browser: PageBrowser, path: string, answer?: number): Promise<string> {
    const answered = await browser.post(
      `${path}/handoff`,
      answer === undefined ? {} : { privacyLevel: String(answer) },
    );
    expect(answered.status).toBe(303);
    expect(answered.location).toMatch(/^https:\/\/engine\.example\.com\/start\?sessionID=ses_/);
    return answered.location!;
  }

  /** The member's own check-in in `browser`: Start, her level, hand-off, confirm, result. */
  async function ownCheckIn(
    browser: PageBrowser,
    group: TestGroup,
    externalId: string,
    level: number,
  ) {
    const link = await newLink(group, externalId);
    await start(browser, link.path);
    await setLevel(browser, link.path, level);
    const address = await handOff(browser, link.path);
    const confirmed = await confirmHandoff(browser, address);
    expect(confirmed.status).toBe(303);
    expect(confirmed.location).toBe(`${address}&confirmed=1`);
    const result = {
      ...engineResult({ transcript: userSays(SECRET) }),
      handoff: handoffOf(address),
    };
    expect((await postResult(t, link.sessionId, result)).status).toBe(200);
    return link;
  }

  const shown = async (sessionId: string) => {
    const answer = await t.request('GET', `/sessions/${sessionId}`, { apiKey: acme.apiKey });
    expect(answer.status).toBe(200);
    return answer.body as Record<string, unknown>;
  };
  const fieldsOf = async (sessionId: string) => Object.keys(await shown(sessionId));

  const sessionRow = async (sessionId: string) =>
    (
      await t.db.query<{
        status: string;
        shared_level: number | null;
        handoff_confirmed_at: Date | null;
        mhci: number | null;
      }>(
        'SELECT status, shared_level, handoff_confirmed_at, mhci FROM sessions WHERE session_id = $1',
        [sessionId],
      )
    ).rows[0];

  const memberLevel = async (externalId: string) =>
    (
      await t.db.query<{ privacy_level: number }>(
        `SELECT m.privacy_level FROM memberships m JOIN participants p ON p.id = m.participant_id
          WHERE p.external_id = $1`,
        [externalId],
      )
    ).rows[0].privacy_level;

  const expectErrorPage = (answer: PageAnswer, status: number, kind: keyof typeof PAGE_ERRORS) => {
    expect(answer.status).toBe(status);
    expect(answer.html).toContain(PAGE_ERRORS[kind].title);
  };

  /** The enterprise raises the member to `level` on a link it minted, in a browser of its own. */
  async function raiseInOwnBrowser(group: TestGroup, externalId: string, level: number) {
    const enterprise = new PageBrowser(t.baseUrl);
    const own = await newLink(group, externalId);
    await start(enterprise, own.path);
    // Where the group asks for consent, it gives that too, on its own link.
    if ((await enterprise.get(own.path)).html.includes(PageTexts.consentButton)) {
      expect((await enterprise.post(`${own.path}/consent`)).status).toBe(303);
    }
    await setLevel(enterprise, own.path, level);
    return { enterprise, own };
  }

  describe('a check-in no page handed off', () => {
    it('is recorded at level 0 whatever level the enterprise set in its own browser: no score, transcript, features or word cloud', async () => {
      const { group, externalId } = await newMember();
      await raiseInOwnBrowser(group, externalId, 5);
      expect(await memberLevel(externalId)).toBe(5);
      // A new session for her; she is sent straight to the engine and never sees the page.
      const direct = await newLink(group, externalId);
      const posted = await postResult(
        t,
        direct.sessionId,
        engineResult({ transcript: userSays(SECRET) }),
      );
      expect(posted.status).toBe(200);
      expect(await fieldsOf(direct.sessionId)).toEqual(LEVEL_0_FIELDS);
      expect(JSON.stringify(await shown(direct.sessionId))).not.toContain('divorce');
      const mhci = await t.request('GET', `/metrics/participants/${externalId}/mhci`, {
        apiKey: acme.apiKey,
      });
      expect(mhci.body).toEqual({ all: null });
      const words = await t.request('GET', `/metrics/participants/${externalId}/wordcloud`, {
        apiKey: acme.apiKey,
      });
      expect(JSON.stringify(words.body)).not.toContain('divorce');
      // Her level stays 5 for check-ins she does herself; this one is pinned at 0: the browser
      // that holds its link (none) cannot raise it, nor can "also share" from the enterprise's.
      expect((await sessionRow(direct.sessionId)).shared_level).toBe(0);
    });

    it('is refused where the check-in needs consent, and nothing is stored', async () => {
      const { group, externalId } = await newMember(true);
      await raiseInOwnBrowser(group, externalId, 5);
      const direct = await newLink(group, externalId);
      const posted = await postResult(t, direct.sessionId, engineResult());
      expect(posted.status).toBe(409);
      expect(posted.body).toEqual({ error: IngestionErrors.ConsentMissing });
      expect(await sessionRow(direct.sessionId)).toMatchObject({ status: 'created', mhci: null });
    });

    it('a sandbox enterprise’s simulated results take the member’s level', async () => {
      const sandbox = await t.newEnterprise('Sandbox Co', { sandbox: true });
      const group = await t.newGroup(sandbox, 'Sandbox team');
      const created = (await t.createSession(sandbox, group, 'sam@example.com'))
        .body as SessionCreated;
      await t.db.query(
        `UPDATE memberships m SET privacy_level = 4 FROM participants p
          WHERE p.id = m.participant_id AND p.external_id = $1`,
        [created.userIdentifier],
      );
      const completed = await t.request('POST', `/sandbox/sessions/${created.sessionID}/complete`, {
        apiKey: sandbox.apiKey,
      });
      expect(completed.status).toBe(200);
      const read = await t.request('GET', `/sessions/${created.sessionID}`, {
        apiKey: sandbox.apiKey,
      });
      expect(Object.keys(read.body as object)).toContain('transcript');
    });
  });

  describe('the engine address copied from the enterprise’s browser', () => {
    it('fails the confirm step in hers (a page says why), and her result stays at level 0, for good', async () => {
      const { group, externalId } = await newMember();
      // The enterprise opens her new link in its own browser, raises to 5 and presses Start
      // my check-in, then sends her the engine address instead of following it.
      const enterprise = new PageBrowser(t.baseUrl);
      const link = await newLink(group, externalId);
      await start(enterprise, link.path);
      await setLevel(enterprise, link.path, 5);
      const address = await handOff(enterprise, link.path);
      // The engine sends her browser to the confirm step: refused, with a page saying why.
      const hers = new PageBrowser(t.baseUrl);
      const refused = await confirmHandoff(hers, address);
      expectErrorPage(refused, 403, 'handoff-elsewhere');
      expect(refused.html).toContain(PAGE_ERRORS['handoff-elsewhere'].text);
      expect(refused.location).toBeNull();
      expect((await sessionRow(link.sessionId)).handoff_confirmed_at).toBeNull();
      // The engine goes on anyway and posts her result with the token: recorded at 0.
      const posted = await postResult(t, link.sessionId, {
        ...engineResult({ transcript: userSays(SECRET) }),
        handoff: handoffOf(address),
      });
      expect(posted.status).toBe(200);
      expect(await fieldsOf(link.sessionId)).toEqual(LEVEL_0_FIELDS);
      // The enterprise's browser holds the check-in's page: raising it from there changes nothing.
      await setLevel(enterprise, link.path, 5);
      expect((await sessionRow(link.sessionId)).shared_level).toBe(0);
      expect(await fieldsOf(link.sessionId)).toEqual(LEVEL_0_FIELDS);
    });
  });

  describe('the engine contract', () => {
    it('a confirmed hand-off counts at the level handed off; confirming again gets the same answer', async () => {
      const { group, externalId } = await newMember();
      const hers = new PageBrowser(t.baseUrl);
      const link = await newLink(group, externalId);
      await start(hers, link.path);
      await setLevel(hers, link.path, 4);
      const address = await handOff(hers, link.path);
      expect(new URL(address).searchParams.get('sessionID')).toBe(link.sessionId);
      expect(handoffOf(address)).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const first = await confirmHandoff(hers, address);
      const again = await confirmHandoff(hers, address);
      expect([first.status, again.status]).toEqual([303, 303]);
      expect(again.location).toBe(first.location);
      expect(first.location).toBe(`${address}&confirmed=1`);
      // The result may leave the token out: the hand-off is the session's.
      expect(
        (await postResult(t, link.sessionId, engineResult({ transcript: userSays(SECRET) })))
          .status,
      ).toBe(200);
      expect(await fieldsOf(link.sessionId)).toEqual([
        ...LEVEL_0_FIELDS,
        'mhci',
        'subscores',
        'groupPercentiles',
        'userPercentiles',
        'transcript',
      ]);
      // Once the check-in is complete the token confirms nothing.
      expectErrorPage(await confirmHandoff(hers, address), 403, 'handoff-unknown');
    });

    it('refuses a token of another session, a replaced one, an unknown one and a malformed one; nothing is stored', async () => {
      const { group, externalId } = await newMember();
      const hers = new PageBrowser(t.baseUrl);
      const one = await newLink(group, externalId);
      const other = await newLink(group, externalId);
      await start(hers, one.path);
      const oneAddress = await handOff(hers, one.path);
      await start(hers, other.path);
      const otherAddress = await handOff(hers, other.path);
      // Another session's token.
      const crossed = await postResult(t, one.sessionId, {
        ...engineResult(),
        handoff: handoffOf(otherAddress),
      });
      expect(crossed.status).toBe(409);
      expect(crossed.body).toEqual({ error: IngestionErrors.HandoffMismatch });
      // A token a later hand-off of the same session replaced (pressed twice).
      const again = await handOff(hers, one.path);
      expect(handoffOf(again)).not.toBe(handoffOf(oneAddress));
      expectErrorPage(await confirmHandoff(hers, oneAddress), 403, 'handoff-unknown');
      const replaced = await postResult(t, one.sessionId, {
        ...engineResult(),
        handoff: handoffOf(oneAddress),
      });
      expect(replaced.status).toBe(409);
      expect(replaced.body).toEqual({ error: IngestionErrors.HandoffMismatch });
      // A malformed one.
      for (const handoff of [42, '', 'short', 'x'.repeat(44)]) {
        const malformed = await postResult(t, one.sessionId, { ...engineResult(), handoff });
        expect(malformed.status).toBe(400);
        expect(malformed.body).toEqual({ error: IngestionErrors.HandoffInvalid });
      }
      expect(await sessionRow(one.sessionId)).toMatchObject({ status: 'created', mhci: null });
      // An unknown token at the confirm step, and none at all.
      expectErrorPage(
        await confirmHandoff(hers, `${ENGINE_URL}?handoff=${'A'.repeat(43)}`),
        403,
        'handoff-unknown',
      );
      expectErrorPage(await hers.get('/checkin/confirm'), 403, 'handoff-unknown');
      // The current one still works.
      expect((await confirmHandoff(hers, again)).status).toBe(303);
      expect(
        (await postResult(t, one.sessionId, { ...engineResult(), handoff: handoffOf(again) }))
          .status,
      ).toBe(200);
    });
  });

  describe('"Go back" after raises in two other browsers', () => {
    it('returns to the level her browser last chose itself, never to a level another browser set', async () => {
      const { group, externalId } = await newMember();
      const hers = new PageBrowser(t.baseUrl);
      // Her own earlier check-in, at her level 0.
      await ownCheckIn(hers, group, externalId, 0);
      // The enterprise raises 0→1 in browser E, then 1→5 in browser E2.
      await raiseInOwnBrowser(group, externalId, 1);
      await raiseInOwnBrowser(group, externalId, 5);
      const next = await newLink(group, externalId);
      await start(hers, next.path);
      const page = (await hers.get(next.path)).html;
      expect(page).toContain(PageTexts.handoffRaisedElsewhere(5));
      expect(page).toContain(PageTexts.handoffGoBack(0));
      expect(page).not.toContain(PageTexts.handoffGoBack(1));
      // She goes back: her level and this check-in's are 0 again.
      const address = await handOff(hers, next.path, 0);
      expect(await memberLevel(externalId)).toBe(0);
      expect((await confirmHandoff(hers, address)).status).toBe(303);
      expect(
        (await postResult(t, next.sessionId, { ...engineResult(), handoff: handoffOf(address) }))
          .status,
      ).toBe(200);
      expect(await fieldsOf(next.sessionId)).toEqual(LEVEL_0_FIELDS);
    });

    it('a level she chose herself is where she goes back to, lowered by any lowering since', async () => {
      const { group, externalId } = await newMember();
      const hers = new PageBrowser(t.baseUrl);
      await ownCheckIn(hers, group, externalId, 2);
      await raiseInOwnBrowser(group, externalId, 5);
      const next = await newLink(group, externalId);
      await start(hers, next.path);
      expect((await hers.get(next.path)).html).toContain(PageTexts.handoffGoBack(2));
    });
  });

  describe('consent is fixed when the check-in is handed off', () => {
    it('switching consentRequired off lets in no check-in she withdrew from or never consented to', async () => {
      const { group, externalId } = await newMember(true);
      const hers = new PageBrowser(t.baseUrl);
      const link = await newLink(group, externalId);
      await start(hers, link.path);
      expect((await hers.post(`${link.path}/consent`)).status).toBe(303);
      const address = await handOff(hers, link.path);
      expect((await confirmHandoff(hers, address)).status).toBe(303);
      // She withdraws (from her settings page; any page does the same).
      const { rows } = await t.db.query<{ id: string }>(
        'SELECT id FROM participants WHERE external_id = $1',
        [externalId],
      );
      const member = {
        enterpriseId: acme.enterpriseId,
        participantId: rows[0].id,
        groupId: group.groupID,
        externalId,
      };
      expect(
        await t.app.get(ParticipantChoices).setConsent(member, false, 'settings'),
      ).not.toBeNull();
      // A check-in created while consent was required, never handed off, never consented to.
      const never = await newLink(group, externalId);
      for (const sessionId of [link.sessionId, never.sessionId]) {
        const refused = await postResult(t, sessionId, engineResult());
        expect(refused.status).toBe(409);
        expect(refused.body).toEqual({ error: IngestionErrors.ConsentMissing });
      }
      await setConsentRequired(group, false);
      for (const sessionId of [link.sessionId, never.sessionId]) {
        const still = await postResult(t, sessionId, engineResult());
        expect(still.status).toBe(409);
        expect(still.body).toEqual({ error: IngestionErrors.ConsentMissing });
        expect(await sessionRow(sessionId)).toMatchObject({ status: 'created', mhci: null });
      }
      // A check-in created and handed off once the flag is off needs no consent.
      const after = await newLink(group, externalId);
      await start(hers, after.path);
      const afterAddress = await handOff(hers, after.path);
      expect((await confirmHandoff(hers, afterAddress)).status).toBe(303);
      expect((await postResult(t, after.sessionId, engineResult())).status).toBe(200);
    });
  });

  describe('a planted identity cookie', () => {
    it('brings none of the enterprise’s raises, answers or links into her browser: she is asked, and her check-in is not shared at 5 unless she says so', async () => {
      const { group, externalId } = await newMember();
      const hers = new PageBrowser(t.baseUrl);
      await ownCheckIn(hers, group, externalId, 0);
      // The enterprise raises her to 5 in its browser E (which answers nothing: the raise is E's).
      const { enterprise, own } = await raiseInOwnBrowser(group, externalId, 5);
      // It plants E's identity cookie, the value the server minted for E, in her browser.
      const planted = enterprise.cookie('checkin_browser')!;
      hers.add(`checkin_browser=${planted}`);
      // The planted value holds nothing there: E's check-in is not hers.
      expectErrorPage(await hers.get(own.path), 403, 'opened-elsewhere');
      // Her next check-in: Start gives her a fresh identity of her own, and she is asked.
      const next = await newLink(group, externalId);
      await start(hers, next.path);
      expect(hers.cookie('checkin_browser')).not.toBe(planted);
      const page = (await hers.get(next.path)).html;
      expect(page).toContain(PageTexts.handoffRaisedElsewhere(5));
      expect((await hers.post(`${next.path}/handoff`)).location).toBe(next.path);
      // E's value is still E's: the enterprise's own browser is not disturbed, and holds nothing of hers.
      expect((await enterprise.get(own.path)).status).toBe(200);
      expectErrorPage(await enterprise.get(next.path), 403, 'opened-elsewhere');
    });
  });

  describe('a double Start', () => {
    it('two Starts of one link in flight from one browser get the same answer, cookie included', async () => {
      const { group, externalId } = await newMember();
      const hers = new PageBrowser(t.baseUrl);
      await ownCheckIn(hers, group, externalId, 0);
      for (let trial = 0; trial < 8; trial++) {
        const link = await newLink(group, externalId);
        const sent = hers.cookieHeader();
        const both = await Promise.all(
          [0, 1].map(() =>
            fetch(`${t.baseUrl}${link.path}/start`, {
              method: 'POST',
              redirect: 'manual',
              headers: { cookie: sent, 'content-type': 'application/x-www-form-urlencoded' },
            }),
          ),
        );
        expect(both.map((answer) => answer.status)).toEqual([303, 303]);
        const cookies = both.map((answer) => answer.headers.getSetCookie()[0]?.split(';')[0]);
        expect(cookies[0]).toMatch(/^checkin_browser=[A-Za-z0-9_-]{43}$/);
        expect(cookies[1]).toBe(cookies[0]);
        hers.add(cookies[0]);
        // Whichever answer the browser kept, the page is its own.
        expect((await hers.get(link.path)).status).toBe(200);
      }
    });
  });
});
