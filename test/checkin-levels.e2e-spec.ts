/**
 * A check-in's own level (docs/privacy.md), tried as the enterprise would: it holds every
 * check-in link, so it can mint a fresh one for a member, press Start in its own browser and raise
 * the level there. What the API shows of a session is the lower of the session's own level and
 * the member's level now; a raise reaches a past check-in only from a page in the browser that did
 * it; a lowering from anywhere hides every past check-in at once.
 */
import { PageTexts } from '../src/pages/pages.messages';
import { ParticipantLinks } from '../src/participant-links/participant-links';
import {
  confirmHandoff,
  ENGINE_TOKEN,
  engineResult,
  handoffOf,
  postResult,
  userSays,
} from './support/engine';
import { PageBrowser } from './support/page-browser';
import {
  SessionCreated,
  startTestApp,
  TestApp,
  TestEnterprise,
  TestGroup,
} from './support/test-app';

const ENGINE_URL = 'https://engine.example.com/start';
const SECRET = 'I am struggling with my divorce and the antidepressant medication';
/** The engine address a hand-off of `sessionId` answers with: its id and a one-time token. */
const handedOff = (sessionId: string) =>
  new RegExp(
    `^https://engine\\.example\\.com/start\\?sessionID=${sessionId}&handoff=[A-Za-z0-9_-]{43}$`,
  );
/** What a level-0 session shows: no result field at all. */
const LEVEL_0_FIELDS = ['externalID', 'sessionID', 'timestamp', 'groupID', 'version'];

describe('A check-in is shared at its own level', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp({ ENGINE_TOKEN, ENGINE_URL });
    acme = await t.newEnterprise('Acme');
  });
  afterAll(() => t.close());

  /** A member of a new group, with nothing done yet. */
  async function newMember(): Promise<{ group: TestGroup; email: string; externalId: string }> {
    const group = await t.newGroup(acme, `Team ${++n}`);
    const email = `member${n}@example.com`;
    const created = await t.createSession(acme, group, email);
    expect(created.status).toBe(200);
    return { group, email, externalId: (created.body as SessionCreated).userIdentifier };
  }

  const newLink = async (group: TestGroup, externalId: string) => {
    const created = await t.createSession(acme, group, externalId);
    expect(created.status).toBe(200);
    const body = created.body as SessionCreated;
    return { sessionId: body.sessionID, path: new URL(body.redirectUrl).pathname };
  };

  /** A check-in done in `browser`: Start, the level chosen (if any), hand-off, the engine's result. */
  async function checkIn(
    browser: PageBrowser,
    group: TestGroup,
    externalId: string,
    level?: number,
  ): Promise<{ sessionId: string; path: string }> {
    const link = await newLink(group, externalId);
    expect((await browser.post(`${link.path}/start`)).status).toBe(303);
    if (level !== undefined) await setLevel(browser, link.path, level);
    const handoff = await browser.post(`${link.path}/handoff`);
    expect(handoff.status).toBe(303);
    expect(handoff.location).toMatch(handedOff(link.sessionId));
    // The engine sends the browser through the confirm step, then posts the result.
    expect((await confirmHandoff(browser, handoff.location)).location).toBe(
      `${handoff.location}&confirmed=1`,
    );
    const posted = await postResult(t, link.sessionId, {
      ...engineResult({ mhci: 23.4, transcript: userSays(SECRET) }),
      handoff: handoffOf(handoff.location),
    });
    expect(posted.status).toBe(200);
    return link;
  }

  async function setLevel(browser: PageBrowser, path: string, level: number, shareEarlier = false) {
    const form: Record<string, string> = { privacyLevel: String(level) };
    if (shareEarlier) form.shareEarlier = 'on';
    const answer = await browser.post(`${path}/privacy`, form);
    expect(answer.status).toBe(303);
  }

  /** The fields `GET /sessions/{id}` shows the enterprise. */
  const shown = async (sessionId: string) => {
    const answer = await t.request('GET', `/sessions/${sessionId}`, { apiKey: acme.apiKey });
    expect(answer.status).toBe(200);
    return answer.body as Record<string, unknown>;
  };
  const fieldsOf = async (sessionId: string) => Object.keys(await shown(sessionId));
  /** The level `GET /sessions/{id}` shows a session at: how many of the cumulative fields. */
  const levelShown = async (sessionId: string) => {
    const keys = await fieldsOf(sessionId);
    const steps = ['mhci', 'groupPercentiles', 'userPercentiles', 'transcript', 'features'];
    return steps.filter((field) => keys.includes(field)).length;
  };

  it('the fresh-link attack: the enterprise raising the level in its own browser shows nothing done before', async () => {
    const { group, externalId } = await newMember();
    const mine = new PageBrowser(t.baseUrl);
    const earlier = await checkIn(mine, group, externalId);
    expect(await fieldsOf(earlier.sessionId)).toEqual(LEVEL_0_FIELDS);

    // The enterprise mints a link for the member, never forwards it, and acts as the member.
    const enterprise = new PageBrowser(t.baseUrl);
    const own = await newLink(group, externalId);
    expect((await enterprise.post(`${own.path}/start`)).status).toBe(303);
    await setLevel(enterprise, own.path, 5);
    await setLevel(enterprise, own.path, 5, true); // "also share earlier": none in its browser
    expect(await fieldsOf(earlier.sessionId)).toEqual(LEVEL_0_FIELDS);
    expect(JSON.stringify(await shown(earlier.sessionId))).not.toContain('divorce');
    // Nor do the participant's metrics give the score away.
    const mhci = await t.request('GET', `/metrics/participants/${externalId}/mhci`, {
      apiKey: acme.apiKey,
    });
    expect(mhci.body).toEqual({ all: null });
    // Lower and raise again: still nothing.
    await setLevel(enterprise, own.path, 0);
    await setLevel(enterprise, own.path, 5, true);
    expect(await fieldsOf(earlier.sessionId)).toEqual(LEVEL_0_FIELDS);
    // The enterprise's settings link to the member (it may control the work mailbox) cannot either.
    const settings = settingsPathOf(await membershipOf(earlier.sessionId));
    const answer = await enterprise.post(settings('/privacy'), {
      privacyLevel: '5',
      shareEarlier: 'on',
    });
    expect(answer.status).toBe(303);
    expect(await fieldsOf(earlier.sessionId)).toEqual(LEVEL_0_FIELDS);
  });

  it('a raise on a check-in page reaches that check-in; earlier ones only with "Also share", and only this browser’s', async () => {
    const { group, externalId } = await newMember();
    const mine = new PageBrowser(t.baseUrl);
    const elsewhere = new PageBrowser(t.baseUrl);
    const first = await checkIn(mine, group, externalId);
    const second = await checkIn(mine, group, externalId);
    const otherBrowser = await checkIn(elsewhere, group, externalId);
    // A check-in never opened in a browser (the engine posted its result straight away).
    const unopened = await newLink(group, externalId);
    expect((await postResult(t, unopened.sessionId, engineResult())).status).toBe(200);

    const third = await newLink(group, externalId);
    expect((await mine.post(`${third.path}/start`)).status).toBe(303);
    const page = await mine.get(third.path);
    expect(page.html).toContain('Also share my 2 earlier check-ins done in this browser');
    expect(page.html).toMatch(/<input type="checkbox" name="shareEarlier" id="share-earlier">/);

    await setLevel(mine, third.path, 4);
    expect(await levelShown(first.sessionId)).toBe(0);
    expect(await levelShown(second.sessionId)).toBe(0);

    await setLevel(mine, third.path, 4, true);
    expect(await levelShown(first.sessionId)).toBe(4);
    expect(await levelShown(second.sessionId)).toBe(4);
    expect((await shown(first.sessionId)).transcript).toEqual(userSays(SECRET));
    expect(await levelShown(otherBrowser.sessionId)).toBe(0);
    expect(await levelShown(unopened.sessionId)).toBe(0);
    // The other browser raises its own check-in, from its own page.
    await setLevel(elsewhere, otherBrowser.path, 2);
    expect(await levelShown(otherBrowser.sessionId)).toBe(2);
  });

  it('a lowering from anywhere hides every past check-in at once; a later raise does not bring them back', async () => {
    const { group, externalId } = await newMember();
    const mine = new PageBrowser(t.baseUrl);
    const past = await checkIn(mine, group, externalId, 5);
    expect(await levelShown(past.sessionId)).toBe(5);

    const enterprise = new PageBrowser(t.baseUrl);
    const own = await newLink(group, externalId);
    expect((await enterprise.post(`${own.path}/start`)).status).toBe(303);
    await setLevel(enterprise, own.path, 1);
    expect(await levelShown(past.sessionId)).toBe(1);
    await setLevel(enterprise, own.path, 5);
    expect(await levelShown(past.sessionId)).toBe(1);
    // The participant can raise it again, from its page in their browser.
    await setLevel(mine, past.path, 5);
    expect(await levelShown(past.sessionId)).toBe(5);
  });

  it('a raise made in another browser is asked about before the next check-in here is handed off: keep it or go back', async () => {
    const { group, externalId } = await newMember();
    const mine = new PageBrowser(t.baseUrl);
    await checkIn(mine, group, externalId, 1);
    const enterprise = new PageBrowser(t.baseUrl);
    const own = await newLink(group, externalId);
    expect((await enterprise.post(`${own.path}/start`)).status).toBe(303);
    await setLevel(enterprise, own.path, 5);

    // The participant's next check-in, in their browser: no plain hand-off, a question.
    const next = await newLink(group, externalId);
    expect((await mine.post(`${next.path}/start`)).status).toBe(303);
    const page = (await mine.get(next.path)).html;
    expect(page).toContain(PageTexts.handoffRaisedElsewhere(5));
    expect(page).toContain(
      `<button type="submit" name="privacyLevel" value="5">${PageTexts.handoffKeep(5)}</button>`,
    );
    expect(page).toContain(
      `<button type="submit" name="privacyLevel" value="1">${PageTexts.handoffGoBack(1)}</button>`,
    );
    expect(page).not.toContain(`<button type="submit">${PageTexts.handoffButton}</button>`);
    // Without an answer nothing is handed off.
    const unanswered = await mine.post(`${next.path}/handoff`);
    expect(unanswered.location).toBe(next.path);
    expect(await sharedLevelOf(next.sessionId)).toBeNull();
    // "Go back to level 1": the member's level and this check-in's, then the engine.
    const back = await mine.post(`${next.path}/handoff`, { privacyLevel: '1' });
    expect(back.location).toMatch(handedOff(next.sessionId));
    expect(await sharedLevelOf(next.sessionId)).toBe(1);
    expect(
      (
        await t.db.query(
          'SELECT privacy_level FROM memberships m JOIN participants p ON p.id = m.participant_id WHERE p.external_id = $1',
          [externalId],
        )
      ).rows,
    ).toEqual([{ privacy_level: 1 }]);

    // Raised again elsewhere, kept here: shared at 5, and not asked again in this browser.
    await setLevel(enterprise, own.path, 5);
    const kept = await newLink(group, externalId);
    expect((await mine.post(`${kept.path}/start`)).status).toBe(303);
    const keep = await mine.post(`${kept.path}/handoff`, { privacyLevel: '5' });
    expect(keep.location).toMatch(handedOff(kept.sessionId));
    expect(await sharedLevelOf(kept.sessionId)).toBe(5);
    const after = await newLink(group, externalId);
    expect((await mine.post(`${after.path}/start`)).status).toBe(303);
    expect((await mine.get(after.path)).html).toContain(PageTexts.handoffLevel(5));

    // A raise made in this browser is never asked about here.
    const raisedHere = await newMember();
    const first = await checkIn(mine, raisedHere.group, raisedHere.externalId);
    await setLevel(mine, first.path, 3);
    const second = await newLink(raisedHere.group, raisedHere.externalId);
    expect((await mine.post(`${second.path}/start`)).status).toBe(303);
    const secondPage = (await mine.get(second.path)).html;
    expect(secondPage).toContain(PageTexts.handoffLevel(3));
    expect(secondPage).not.toContain(PageTexts.handoffRaisedElsewhere(3));
  });

  it('"Keep" holds only in the browser that answered it: the enterprise answering in a browser of its own silences nothing in the member’s; a new device asks once', async () => {
    const { group, externalId } = await newMember();
    const mine = new PageBrowser(t.baseUrl);
    await checkIn(mine, group, externalId, 1);
    // The enterprise raises the member to 5 on a fresh link in its browser E…
    const browserE = new PageBrowser(t.baseUrl);
    const own = await newLink(group, externalId);
    expect((await browserE.post(`${own.path}/start`)).status).toBe(303);
    await setLevel(browserE, own.path, 5);
    // …opens another fresh link in a third browser F, is asked, and answers "Keep" there.
    const browserF = new PageBrowser(t.baseUrl);
    const third = await newLink(group, externalId);
    expect((await browserF.post(`${third.path}/start`)).status).toBe(303);
    expect((await browserF.get(third.path)).html).toContain(PageTexts.handoffRaisedElsewhere(5));
    const keptInF = await browserF.post(`${third.path}/handoff`, { privacyLevel: '5' });
    expect(keptInF.location).toMatch(handedOff(third.sessionId));
    // F is not asked again…
    const fourth = await newLink(group, externalId);
    expect((await browserF.post(`${fourth.path}/start`)).status).toBe(303);
    expect((await browserF.get(fourth.path)).html).not.toContain(
      PageTexts.handoffRaisedElsewhere(5),
    );
    // …but the member's next check-in, in her own browser, still asks, and shares at nothing
    // until she answers.
    const next = await newLink(group, externalId);
    expect((await mine.post(`${next.path}/start`)).status).toBe(303);
    expect((await mine.get(next.path)).html).toContain(PageTexts.handoffRaisedElsewhere(5));
    expect((await mine.post(`${next.path}/handoff`)).location).toBe(next.path);
    expect(await sharedLevelOf(next.sessionId)).toBeNull();
    // A new device of hers that never did a check-in asks once too.
    const tablet = new PageBrowser(t.baseUrl);
    const onTablet = await newLink(group, externalId);
    expect((await tablet.post(`${onTablet.path}/start`)).status).toBe(303);
    expect((await tablet.get(onTablet.path)).html).toContain(PageTexts.handoffRaisedElsewhere(5));
    expect((await tablet.post(`${onTablet.path}/handoff`, { privacyLevel: '5' })).status).toBe(303);
    const laterOnTablet = await newLink(group, externalId);
    expect((await tablet.post(`${laterOnTablet.path}/start`)).status).toBe(303);
    expect((await tablet.get(laterOnTablet.path)).html).not.toContain(
      PageTexts.handoffRaisedElsewhere(5),
    );
    // She goes back to 1 in her browser: nobody is asked any more, and the level is 1.
    const back = await mine.post(`${next.path}/handoff`, { privacyLevel: '1' });
    expect(back.location).toMatch(handedOff(next.sessionId));
    expect(await sharedLevelOf(next.sessionId)).toBe(1);
    const afterBack = await newLink(group, externalId);
    expect((await browserF.post(`${afterBack.path}/start`)).status).toBe(303);
    expect((await browserF.get(afterBack.path)).html).toContain(PageTexts.handoffLevel(1));
  });

  const sharedLevelOf = async (sessionId: string) =>
    (
      await t.db.query<{ shared_level: number | null }>(
        'SELECT shared_level FROM sessions WHERE session_id = $1',
        [sessionId],
      )
    ).rows[0].shared_level;

  const membershipOf = async (sessionId: string) =>
    (
      await t.db.query<{ participant_id: string; group_id: string }>(
        'SELECT participant_id, group_id FROM sessions WHERE session_id = $1',
        [sessionId],
      )
    ).rows[0];

  /** A settings link of the membership, as a mail carries it: path + `action` + query. */
  const settingsPathOf = (membership: { participant_id: string; group_id: string }) => {
    const link = new URL(
      t.app.get(ParticipantLinks).settingsUrl({
        participantId: membership.participant_id,
        groupId: Number(membership.group_id),
        linkVersion: 0,
      }),
    );
    return (action: string) => `${link.pathname}${action}${link.search}`;
  };
});
