/**
 * The check-in page's service (pages/checkin-pages.service.ts) with the browser binding
 * (pages/browser-binding.ts), on real PostgreSQL, below HTTP: each page is read as the model it
 * was rendered from. Rules pinned down (docs/checkin-flow.md, docs/privacy.md):
 *
 * - what the page shows in each state: not started (Start page), started, consent needed,
 *   completed, sandbox, no engine; the review notice; "Also share my N earlier check-ins";
 *   unknown, forged, expired and misdirected links are the 404 page and bind nothing;
 * - GET changes nothing; Start binds the check-in to this browser and gives the browser a new
 *   identity every time — what the old one held (links, raises, "Keep" answers) moves, and the old
 *   value is an unknown browser (counted); a double click keeps the first answer's identity; a
 *   value the server did not mint is never adopted;
 * - another browser is refused every form and changes nothing — the enterprise's own browser,
 *   on a link it minted, cannot raise or read a check-in done in the member's;
 * - the forms: level (this check-in's, earlier ones only with "Also share" and only this
 *   browser's), the one form with the preferences, consent first, invalid levels;
 * - the hand-off shares the check-in at the member's level then; a raise made in another browser
 *   is asked about first (keep: this browser only; go back: everywhere);
 * - `/done`: "still analysing", then the return URL, or a "complete" page for a refused one.
 */
import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../src/common/crypto/secrets';
import { ProgrammesRepository } from '../../src/enterprises/programme/programmes.repository';
import { ProgrammesService } from '../../src/enterprises/programme/programmes.service';
import { PRIVACY_LEVELS } from '../../src/common/privacy-model';
import { NO_PAGE_LANGUAGE } from '../../src/pages/i18n/page-language';
import { checkinPath } from '../../src/pages/page-links';
import type {
  CheckinPageModel,
  HandoffSectionModel,
  StartPageModel,
} from '../../src/pages/page-templates';
import { PageTexts, SAVED_MESSAGES } from '../../src/pages/pages.messages';
import {
  bindingsOf,
  complete,
  holderOf,
  ledgerOf,
  MemberOptions,
  membershipOf,
  MemberWorld,
  newCheckin,
  newMember,
  PageAnswer,
  participantConfig,
  participantServices,
  ParticipantServices,
  raiseAnswersOf,
  sessionOf,
  sharedLevels,
  TestBrowser,
  BROWSER_SET_COOKIE,
  DEVICE_SET_COOKIE,
} from './participant-fixtures';
import { TestDatabase } from './support';

const REPLACED = 'checkin_browser_replaced_identity_total';
const COOKIE = BROWSER_SET_COOKIE;

describe('The check-in page service (PostgreSQL)', () => {
  let t: TestDatabase;
  let s: ParticipantServices;

  beforeAll(async () => {
    // The binding warns about replaced identities coming back: expected here, not worth a line.
    Logger.overrideLogger(false);
    t = await TestDatabase.create();
    s = participantServices(t.db);
  });
  afterAll(() => t.close());

  const member = (options: MemberOptions = {}) => newMember(t, s.cipher, options);
  const browser = (cookie: string | null = null) => new TestBrowser(s.renderer, cookie);
  /** The engine address of a hand-off of `sessionId`, with its one-time token. */
  const engineAddress = (sessionId: string) =>
    new RegExp(
      `^https://engine\\.example\\.com/start\\?sessionID=${sessionId}&handoff=[A-Za-z0-9_-]{43}$`,
    );

  /** A check-in of the member and its link (token and path). */
  async function checkin(world: MemberWorld) {
    const sessionId = await newCheckin(t, world);
    const token = s.tokens.sign('checkin', sessionId);
    return { sessionId, token, path: checkinPath(token) };
  }
  type Checkin = Awaited<ReturnType<typeof checkin>>;

  const pages = () => s.checkinPages;
  const start = (b: TestBrowser, c: Checkin) =>
    b.send((r) => pages().startCheckin(c.token, r, NO_PAGE_LANGUAGE));
  const view = (b: TestBrowser, c: Checkin, saved?: string) =>
    b.send((r) => pages().checkinPage(c.token, saved, r, NO_PAGE_LANGUAGE));
  const setLevel = (b: TestBrowser, c: Checkin, form: Record<string, string>) =>
    b.send((r) => pages().setCheckinPrivacyLevel(c.token, form, r, NO_PAGE_LANGUAGE));
  const handOff = (b: TestBrowser, c: Checkin, form: Record<string, string> = {}) =>
    b.send((r) => pages().handOff(c.token, form, r, NO_PAGE_LANGUAGE));

  /** The model of the check-in page `b` sees (fails on any other page). */
  async function checkinModel(b: TestBrowser, c: Checkin, saved?: string) {
    const answer = await view(b, c, saved);
    expect(answer.page?.name).toBe('checkin');
    return answer.page!.model as CheckinPageModel;
  }
  const handoffOf = async (b: TestBrowser, c: Checkin): Promise<HandoffSectionModel> =>
    (await checkinModel(b, c)).handoff!;

  /** A check-in done in `b`: Start, then the engine's result. */
  async function doneIn(b: TestBrowser, world: MemberWorld): Promise<Checkin> {
    const c = await checkin(world);
    await start(b, c);
    await complete(t, c.sessionId);
    return c;
  }

  const redirect = (location: string, status = 303): PageAnswer => ({
    status,
    page: null,
    location,
    setCookie: [],
    attachment: null,
  });
  const browsersCount = async () =>
    (await t.one<{ n: number }>('SELECT count(*)::int AS n FROM browsers')).n;
  const replacedCount = async () =>
    (await s.measurements.registry.getSingleMetric(REPLACED)!.get()).values[0].value;

  const aboutFor = (level: number, enterprise = 'Acme') => ({
    conversation: PageTexts.aboutConversation,
    employerSees: PageTexts.aboutEmployerSees(level, enterprise),
    retention: PageTexts.aboutRetention(0),
    device: PageTexts.aboutManagedDevice,
    operator: null,
    operatorMissing: PageTexts.privacyNoticeMissing,
  });
  /**
   * The AI notice where the enterprise declared no programme (EU AI Act art. 50(3)): voice, face
   * and words; `employerSees` is the "about" part's sentence about the level.
   */
  const undeclaredNotice = (employerSees: string, enterprise = 'Acme') => ({
    infers: PageTexts.aiNoticeInfers('on'),
    purpose: PageTexts.aiNoticePurpose(null, enterprise),
    employerSees,
    declarationLink: PageTexts.aiNoticeNoDeclarationLink,
  });
  const undeclared = (enterprise = 'Acme') => ({
    intro: PageTexts.programmeNone(enterprise),
    declaration: null,
  });

  describe('a link not yet started', () => {
    it('shows the Start page and changes nothing: no identity minted, nothing bound', async () => {
      const world = await member({ groupName: 'Night shift' });
      const c = await checkin(world);
      const minted = await browsersCount();
      const b = browser();
      expect(await view(b, c)).toEqual({
        status: 200,
        page: {
          name: 'start',
          model: {
            title: PageTexts.checkinTitle('Night shift'),
            who: PageTexts.whoLine('Night shift', 'Acme'),
            aiNotice: undeclaredNotice(aboutFor(0).employerSees),
            about: aboutFor(0),
            text: PageTexts.startText('Night shift'),
            action: `${c.path}/start`,
            programme: undeclared(),
          },
        },
        location: null,
        setCookie: [],
        attachment: null,
      });
      expect(await bindingsOf(t, world.participantId)).toEqual({});
      expect(await browsersCount()).toBe(minted);
      expect(b.cookie).toBeNull();

      const sandbox = await member({ sandbox: true, groupName: 'Trial' });
      const trial = await checkin(sandbox);
      expect((await view(b, trial)).page?.model).toMatchObject({
        text: `${PageTexts.startText('Trial')} ${PageTexts.sandboxNotice}`,
      });
    });

    it('refuses every form until Start ("start first"), changing nothing', async () => {
      const world = await member({ consentRequired: true });
      const c = await checkin(world);
      const b = browser();
      const forms = [
        () => b.refused((r) => pages().giveConsent(c.token, r, NO_PAGE_LANGUAGE)),
        () =>
          b.refused((r) =>
            pages().setCheckinPrivacyLevel(c.token, { privacyLevel: '5' }, r, NO_PAGE_LANGUAGE),
          ),
        () =>
          b.refused((r) =>
            pages().setCheckinChoices(c.token, { privacyLevel: '5' }, r, NO_PAGE_LANGUAGE),
          ),
        () =>
          b.refused((r) => pages().setCheckinEmailPreferences(c.token, {}, r, NO_PAGE_LANGUAGE)),
        () => b.refused((r) => pages().handOff(c.token, {}, r, NO_PAGE_LANGUAGE)),
      ];
      for (const form of forms) {
        expect(await form()).toEqual({ status: 403, kind: 'start-first', backHref: c.path });
      }
      expect(await membershipOf(t, world)).toMatchObject({ privacyLevel: 0, consented: false });
      expect(await sessionOf(t, c.sessionId)).toMatchObject({
        sharedLevel: null,
        consented: false,
      });
      expect(await ledgerOf(t, world.participantId)).toEqual([]);
      expect(await bindingsOf(t, world.participantId)).toEqual({});
    });

    it('answers the 404 page for unknown, forged, expired and misdirected links, binding nothing', async () => {
      const world = await member();
      const c = await checkin(world);
      const gone = await member();
      const ofGone = await checkin(gone);
      await t.rows('DELETE FROM groups WHERE group_id = $1', [gone.groupId]);
      const expiredAt = Date.now() - (s.config.checkin.tokenTtlHours + 1) * 3600 * 1000;
      const [keyId, claims, mac] = c.token.split('.');
      const tokens = [
        'garbage',
        `${keyId}.${claims}.${mac.slice(0, -2)}xx`,
        `k9.${claims}.${mac}`,
        s.tokens.sign('checkin', c.sessionId, expiredAt),
        s.tokens.sign('settings', c.sessionId),
        s.tokens.sign('checkin', 'ses_000000000000000000000000'),
        ofGone.token,
      ];
      const minted = await browsersCount();
      const b = browser();
      for (const token of tokens) {
        for (const call of [
          () => b.refused((r) => pages().checkinPage(token, undefined, r, NO_PAGE_LANGUAGE)),
          () => b.refused((r) => pages().startCheckin(token, r, NO_PAGE_LANGUAGE)),
          () => b.refused((r) => pages().giveConsent(token, r, NO_PAGE_LANGUAGE)),
          () =>
            b.refused((r) =>
              pages().setCheckinPrivacyLevel(token, { privacyLevel: '5' }, r, NO_PAGE_LANGUAGE),
            ),
          () => b.refused((r) => pages().handOff(token, {}, r, NO_PAGE_LANGUAGE)),
          () => b.refused(() => pages().done(token, NO_PAGE_LANGUAGE)),
          () => b.refused(() => pages().declined(token, NO_PAGE_LANGUAGE)),
        ]) {
          expect(await call()).toEqual({ status: 404, kind: 'not-found', backHref: null });
        }
      }
      expect(await browsersCount()).toBe(minted);
      expect(await bindingsOf(t, world.participantId)).toEqual({});
      expect(await membershipOf(t, world)).toMatchObject({ privacyLevel: 0 });
    });
  });

  describe('Start: the link binds to this browser, which gets a new identity every time', () => {
    it('binds the check-in to a freshly minted identity, sets it as a cookie, and shows the page', async () => {
      const world = await member();
      const c = await checkin(world);
      const b = browser();
      const started = await start(b, c);
      // The identity, and the device cookie with a browser's first identity (browser-binding.ts).
      expect(started).toEqual({
        ...redirect(c.path),
        setCookie: [expect.stringMatching(COOKIE), expect.stringMatching(DEVICE_SET_COOKIE)],
      });
      expect(await t.rows('SELECT replaced_by FROM browsers WHERE hash = $1', [b.hash])).toEqual([
        { replaced_by: null },
      ]);
      expect(await bindingsOf(t, world.participantId)).toEqual({
        [`checkin:${c.sessionId}`]: b.hash,
      });
      expect((await view(b, c)).page?.name).toBe('checkin');
    });

    it('moves what the old identity held — links, raises, “Keep” answers — and the old value is an unknown browser, counted', async () => {
      const world = await member();
      const first = await checkin(world);
      const b = browser();
      await start(b, first);
      await setLevel(b, first, { privacyLevel: '2' });
      const old = b.cookie!;
      const oldHash = b.hash;
      expect((await membershipOf(t, world)).raisedIn).toBe(oldHash);
      // A "Keep" this browser gave on another membership of the participant's enterprise.
      const other = await member();
      await t.rows(
        'INSERT INTO membership_raise_answers (participant_id, group_id, browser_hash) VALUES ($1, $2, $3)',
        [other.participantId, other.groupId, oldHash],
      );

      const second = await checkin(world);
      expect((await start(b, second)).setCookie).toEqual([expect.stringMatching(COOKIE)]);
      expect(b.cookie).not.toBe(old);
      expect(await bindingsOf(t, world.participantId)).toEqual({
        [`checkin:${first.sessionId}`]: b.hash,
        [`checkin:${second.sessionId}`]: b.hash,
      });
      expect((await membershipOf(t, world)).raisedIn).toBe(b.hash);
      expect(await raiseAnswersOf(t, other)).toEqual([b.hash]);
      expect(await t.rows('SELECT replaced_by FROM browsers WHERE hash = $1', [oldHash])).toEqual([
        { replaced_by: b.hash },
      ]);
      // Its own raise is still "made here": nothing to ask.
      expect((await handoffOf(b, second)).raisedElsewhere).toBeNull();

      const counted = await replacedCount();
      const copy = browser(old);
      expect(
        await copy.refused((r) => pages().checkinPage(first.token, undefined, r, NO_PAGE_LANGUAGE)),
      ).toEqual({
        status: 403,
        kind: 'opened-elsewhere',
        backHref: null,
      });
      expect(await replacedCount()).toBe(counted + 1);
      expect((await view(b, first)).status).toBe(200);
    });

    it('a second Start of one link in flight (a double click) gets the same answer as the first, cookie included', async () => {
      const world = await member();
      const b = browser();
      await start(b, await checkin(world));
      const beforeClick = b.cookie!;
      const c = await checkin(world);
      const first = await start(b, c);
      const late = new TestBrowser(s.renderer, beforeClick, b.device);
      expect(await start(late, c)).toEqual(first);
      expect(late.cookie).toBe(b.cookie);
      expect(await holderOf(t, `checkin:${c.sessionId}`)).toBe(b.hash);
      expect((await view(b, c)).status).toBe(200);
      // Without the device cookie it was minted for, the replaced value is an unknown browser.
      expect(
        await browser(beforeClick).refused((r) =>
          pages().startCheckin(c.token, r, NO_PAGE_LANGUAGE),
        ),
      ).toEqual({ status: 403, kind: 'opened-elsewhere', backHref: null });
    });

    it('never adopts a value it did not mint: the planted value holds nothing and its planter is refused', async () => {
      const world = await member();
      const c = await checkin(world);
      const planted = randomBytes(32).toString('base64url');
      const victim = browser(planted);
      expect((await start(victim, c)).setCookie).toEqual([
        expect.stringMatching(COOKIE),
        expect.stringMatching(DEVICE_SET_COOKIE),
      ]);
      expect(victim.cookie).not.toBe(planted);
      expect(await t.rows('SELECT 1 FROM browsers WHERE hash = $1', [sha256Hex(planted)])).toEqual(
        [],
      );
      const planter = browser(planted);
      expect(
        await planter.refused((r) =>
          pages().setCheckinPrivacyLevel(c.token, { privacyLevel: '5' }, r, NO_PAGE_LANGUAGE),
        ),
      ).toEqual({ status: 403, kind: 'opened-elsewhere', backHref: null });
      expect((await membershipOf(t, world)).privacyLevel).toBe(0);
    });

    it('another browser is refused every page and form of the check-in, and changes nothing', async () => {
      const world = await member();
      const c = await checkin(world);
      const owner = browser();
      await start(owner, c);
      const someone = browser();
      await start(someone, await checkin(await member())); // an identity of its own
      for (const other of [browser(), someone]) {
        for (const call of [
          () => other.refused((r) => pages().checkinPage(c.token, undefined, r, NO_PAGE_LANGUAGE)),
          () => other.refused((r) => pages().giveConsent(c.token, r, NO_PAGE_LANGUAGE)),
          () =>
            other.refused((r) =>
              pages().setCheckinPrivacyLevel(c.token, { privacyLevel: '5' }, r, NO_PAGE_LANGUAGE),
            ),
          () =>
            other.refused((r) =>
              pages().setCheckinChoices(c.token, { privacyLevel: '5' }, r, NO_PAGE_LANGUAGE),
            ),
          () =>
            other.refused((r) =>
              pages().setCheckinEmailPreferences(c.token, {}, r, NO_PAGE_LANGUAGE),
            ),
          () => other.refused((r) => pages().handOff(c.token, {}, r, NO_PAGE_LANGUAGE)),
        ]) {
          expect(await call()).toEqual({ status: 403, kind: 'opened-elsewhere', backHref: null });
        }
      }
      expect(
        await browser().refused((r) => pages().startCheckin(c.token, r, NO_PAGE_LANGUAGE)),
      ).toEqual({
        status: 403,
        kind: 'opened-elsewhere',
        backHref: null,
      });
      expect(await membershipOf(t, world)).toMatchObject({ privacyLevel: 0, raisedIn: null });
      expect(await sessionOf(t, c.sessionId)).toMatchObject({ sharedLevel: null });
      expect(await ledgerOf(t, world.participantId)).toEqual([]);
      expect(await holderOf(t, `checkin:${c.sessionId}`)).toBe(owner.hash);
    });

    // The enterprise presses Start on a member's link first; her own Start there is refused. Were
    // her identity rotated before that refusal, her browser would keep (the 403 page sets no
    // cookie) a value that holds nothing: every check-in she did would answer "opened in another
    // browser". A refused Start changes nothing.
    it('a refused Start leaves the browser its check-ins (the enterprise took the link first)', async () => {
      const world = await member();
      const hers = await checkin(world);
      const takenByEnterprise = await checkin(world);
      await start(browser(), takenByEnterprise);
      const b = browser();
      await start(b, hers);
      expect(
        await b.refused((r) => pages().startCheckin(takenByEnterprise.token, r, NO_PAGE_LANGUAGE)),
      ).toEqual({
        status: 403,
        kind: 'opened-elsewhere',
        backHref: null,
      });
      expect((await view(b, hers)).status).toBe(200);
    });

    it('a value the enterprise minted for itself and planted in the member’s browser brings nothing along: her Start gives her an identity of her own, and the enterprise reaches nothing of hers', async () => {
      const world = await member();
      const enterprise = browser();
      const itsOwn = await checkin(await member());
      await start(enterprise, itsOwn);
      const planted = enterprise.cookie!;

      const her = browser(planted);
      const hers = await doneIn(her, world);
      expect(her.cookie).not.toBe(planted);
      // The planted value was minted for another device: what it held stays with the enterprise.
      expect(await holderOf(t, `checkin:${itsOwn.sessionId}`)).toBe(sha256Hex(planted));
      expect(
        await her.refused((r) => pages().checkinPage(itsOwn.token, undefined, r, NO_PAGE_LANGUAGE)),
      ).toEqual({ status: 403, kind: 'opened-elsewhere', backHref: null });

      const minted = await checkin(world);
      await start(enterprise, minted);
      expect(enterprise.cookie).not.toBe(planted);
      expect(enterprise.hash).not.toBe(her.hash);
      expect((await handoffOf(enterprise, minted)).doneHref).toBe(`${minted.path}/done`);
      await setLevel(enterprise, minted, { privacyLevel: '5', shareEarlier: 'on' });
      expect(await sharedLevels(t, [hers.sessionId, minted.sessionId])).toEqual([null, 5]);
      expect(
        await enterprise.refused((r) =>
          pages().checkinPage(hers.token, undefined, r, NO_PAGE_LANGUAGE),
        ),
      ).toEqual({ status: 403, kind: 'opened-elsewhere', backHref: null });
    });
  });

  describe('the page, state by state', () => {
    const levels = (current: number, requested = -1) =>
      PRIVACY_LEVELS.map((value) => ({
        value,
        label: PageTexts.privacyLevelLabel(value),
        text: PageTexts.levelText(value),
        current: value === current,
        requested: value === requested,
      }));

    it('started, nothing asked: the level (no notice), the preferences in one form, and the hand-off at the member’s level', async () => {
      const world = await member({ groupName: 'Night shift', level: 2 });
      const c = await checkin(world);
      const b = browser();
      await start(b, c);
      expect(await checkinModel(b, c)).toEqual({
        title: PageTexts.checkinTitle('Night shift'),
        who: PageTexts.whoLine('Night shift', 'Acme'),
        saved: null,
        aiNotice: undeclaredNotice(aboutFor(2).employerSees),
        programme: undeclared(),
        consent: null,
        privacy: {
          action: `${c.path}/choices`,
          notice: null,
          intro: PageTexts.privacyIntro('Night shift'),
          levels: levels(2),
          shareEarlier: null,
        },
        preferences: { action: `${c.path}/choices`, checkinReminder: true, privacyRequest: true },
        handoff: {
          handoffAction: `${c.path}/handoff`,
          sharedAt: PageTexts.handoffLevel(2),
          raisedElsewhere: null,
          developmentCommand: null,
          sandboxCompletion: null,
          doneHref: `${c.path}/done`,
          completed: false,
        },
      });
      expect((await checkinModel(b, c, 'privacy')).saved).toBe(SAVED_MESSAGES.privacy);
      expect((await checkinModel(b, c, 'anything')).saved).toBeNull();
    });

    it('a request above the member’s level: the review notice and the requested level marked; the participant’s own request overrides the group’s', async () => {
      const world = await member({ groupName: 'Reviewers', groupRequest: ['mhci', 'transcript'] });
      const c = await checkin(world);
      const b = browser();
      await start(b, c);
      expect((await checkinModel(b, c)).privacy).toMatchObject({
        notice: {
          request: PageTexts.privacyNoticeRequest('Reviewers', 4),
          current: PageTexts.privacyNoticeCurrent(0),
        },
        levels: levels(0, 4),
      });
      await setLevel(b, c, { privacyLevel: '4' });
      expect((await checkinModel(b, c)).privacy).toMatchObject({
        notice: null,
        levels: levels(4, 4),
      });

      await t.rows("UPDATE participants SET requested_privacy = '{features}' WHERE id = $1", [
        world.participantId,
      ]);
      expect((await checkinModel(b, c)).privacy).toMatchObject({
        notice: {
          request: PageTexts.privacyNoticeRequest('Reviewers', 5),
          current: PageTexts.privacyNoticeCurrent(4),
        },
        levels: levels(4, 5),
      });
      await t.rows("UPDATE participants SET requested_privacy = '{}' WHERE id = $1", [
        world.participantId,
      ]);
      expect((await checkinModel(b, c)).privacy).toMatchObject({ notice: null, levels: levels(4) });
    });

    it('consent needed: consent alone, every other form refused until given; given here, it is this check-in’s; “No, thanks” records nothing', async () => {
      const world = await member({ groupName: 'Asking', consentRequired: true });
      const c = await checkin(world);
      const b = browser();
      await start(b, c);
      expect(await checkinModel(b, c)).toEqual({
        title: PageTexts.checkinTitle('Asking'),
        who: PageTexts.whoLine('Asking', 'Acme'),
        saved: null,
        aiNotice: undeclaredNotice(aboutFor(0).employerSees),
        programme: undeclared(),
        consent: {
          action: `${c.path}/consent`,
          text: PageTexts.consentText('Asking', 'Acme'),
          declineHref: `${c.path}/declined`,
          about: aboutFor(0),
        },
        privacy: null,
        preferences: null,
        handoff: null,
      });
      for (const call of [
        () =>
          b.refused((r) =>
            pages().setCheckinPrivacyLevel(c.token, { privacyLevel: '4' }, r, NO_PAGE_LANGUAGE),
          ),
        () =>
          b.refused((r) =>
            pages().setCheckinChoices(c.token, { privacyLevel: '4' }, r, NO_PAGE_LANGUAGE),
          ),
        () =>
          b.refused((r) => pages().setCheckinEmailPreferences(c.token, {}, r, NO_PAGE_LANGUAGE)),
        () => b.refused((r) => pages().handOff(c.token, {}, r, NO_PAGE_LANGUAGE)),
      ]) {
        expect(await call()).toEqual({ status: 403, kind: 'consent-first', backHref: c.path });
      }
      expect(await b.send(() => pages().declined(c.token, NO_PAGE_LANGUAGE))).toEqual({
        status: 200,
        page: {
          name: 'notice',
          model: {
            title: PageTexts.declinedTitle,
            who: PageTexts.whoLine('Asking', 'Acme'),
            text: PageTexts.declinedText,
          },
        },
        location: null,
        setCookie: [],
        attachment: null,
      });
      expect(await ledgerOf(t, world.participantId)).toEqual([]);
      expect(await sessionOf(t, c.sessionId)).toMatchObject({
        consented: false,
        sharedLevel: null,
      });

      expect(await b.send((r) => pages().giveConsent(c.token, r, NO_PAGE_LANGUAGE))).toEqual(
        redirect(`${c.path}?saved=consent`),
      );
      expect(await ledgerOf(t, world.participantId)).toEqual([
        {
          groupID: world.groupId,
          sessionID: c.sessionId,
          change: 'consent',
          from: false,
          to: true,
          via: 'checkin',
        },
      ]);
      expect(await checkinModel(b, c)).toMatchObject({
        consent: null,
        handoff: { completed: false },
      });

      // The member has consented, but not to this next check-in: it asks again, on its own page.
      const next = await checkin(world);
      await start(b, next);
      expect((await checkinModel(b, next)).consent?.action).toBe(`${next.path}/consent`);
    });

    it('completed: the hand-off says so, and handing it off again changes nothing', async () => {
      const world = await member({ level: 3 });
      const b = browser();
      const c = await doneIn(b, world);
      expect((await handoffOf(b, c)).completed).toBe(true);
      expect(await handOff(b, c)).toEqual(redirect(c.path));
      expect((await sessionOf(t, c.sessionId)).sharedLevel).toBeNull();
    });

    it('a sandbox’s check-in never reaches the engine: the API call that completes it instead', async () => {
      const world = await member({ sandbox: true, level: 1 });
      const c = await checkin(world);
      const b = browser();
      await start(b, c);
      expect(await handoffOf(b, c)).toMatchObject({
        handoffAction: null,
        developmentCommand: null,
        sandboxCompletion: `POST /sandbox/sessions/${c.sessionId}/complete`,
      });
      expect(await handOff(b, c)).toEqual(redirect(c.path));
      expect((await sessionOf(t, c.sessionId)).sharedLevel).toBeNull();
    });

    it('without an engine: no hand-off, the command that simulates a result (outside production)', async () => {
      const offline = participantServices(t.db, participantConfig({ ENGINE_URL: '' }), s.cipher);
      const world = await member({ level: 1 });
      const sessionId = await newCheckin(t, world);
      const token = offline.tokens.sign('checkin', sessionId);
      const c = { sessionId, token, path: checkinPath(token) };
      const b = new TestBrowser(offline.renderer);
      await b.send((r) => offline.checkinPages.startCheckin(c.token, r, NO_PAGE_LANGUAGE));
      const page = await b.send((r) =>
        offline.checkinPages.checkinPage(c.token, undefined, r, NO_PAGE_LANGUAGE),
      );
      expect((page.page?.model as CheckinPageModel).handoff).toMatchObject({
        handoffAction: null,
        developmentCommand: `npm run cli:dev -- sessions:simulate-result ${c.sessionId}`,
        sandboxCompletion: null,
      });
      expect(
        await b.send((r) => offline.checkinPages.handOff(c.token, {}, r, NO_PAGE_LANGUAGE)),
      ).toEqual(redirect(c.path));
      expect((await sessionOf(t, c.sessionId)).sharedLevel).toBeNull();
    });
  });

  describe('the forms', () => {
    it('a level posted here is the member’s and this check-in’s; earlier check-ins done in this browser only with “Also share”, which the page offers with their count', async () => {
      const world = await member();
      const b = browser();
      const other = browser();
      const first = await doneIn(b, world);
      const second = await doneIn(b, world);
      const elsewhere = await doneIn(other, world);
      const neverOpened = await checkin(world);
      await complete(t, neverOpened.sessionId);
      const c = await checkin(world);
      await start(b, c);
      const earlier = [first, second, elsewhere, neverOpened].map((x) => x.sessionId);

      expect((await checkinModel(b, c)).privacy?.shareEarlier).toEqual({
        label: PageTexts.shareEarlierLabel(2),
      });
      expect((await checkinModel(other, elsewhere)).privacy?.shareEarlier).toBeNull();

      expect(await setLevel(b, c, { privacyLevel: '4' })).toEqual(
        redirect(`${c.path}?saved=privacy`),
      );
      expect(await membershipOf(t, world)).toMatchObject({
        privacyLevel: 4,
        raisedIn: b.hash,
        levelBeforeRaise: 0,
      });
      expect(await sharedLevels(t, [...earlier, c.sessionId])).toEqual([null, null, null, null, 4]);
      await setLevel(b, c, { privacyLevel: '4', shareEarlier: 'on' });
      expect(await sharedLevels(t, [...earlier, c.sessionId])).toEqual([4, 4, null, null, 4]);
      // The other browser raises its own check-in, from its own page.
      await setLevel(other, elsewhere, { privacyLevel: '2' });
      expect(await sharedLevels(t, [...earlier, c.sessionId])).toEqual([2, 2, 2, null, 2]);
    });

    it('the one form saves the level and the preferences together; an invalid level is a 400 page and saves neither', async () => {
      const world = await member();
      const c = await checkin(world);
      const b = browser();
      await start(b, c);
      expect(
        await b.send((r) =>
          pages().setCheckinChoices(
            c.token,
            { privacyLevel: '2', checkinReminder: 'on' },
            r,
            NO_PAGE_LANGUAGE,
          ),
        ),
      ).toEqual(redirect(`${c.path}?saved=choices`));
      const saved = await checkinModel(b, c);
      expect(saved.privacy?.levels.find((level) => level.current)?.value).toBe(2);
      expect(saved.preferences).toMatchObject({ checkinReminder: true, privacyRequest: false });
      expect(await ledgerOf(t, world.participantId)).toEqual([
        {
          groupID: world.groupId,
          sessionID: c.sessionId,
          change: 'privacyLevel',
          from: 0,
          to: 2,
          via: 'checkin',
        },
        {
          groupID: world.groupId,
          sessionID: c.sessionId,
          change: 'privacyRequest',
          from: true,
          to: false,
          via: 'checkin',
        },
      ]);

      for (const form of [
        { privacyLevel: '6' },
        { privacyLevel: '-1' },
        { privacyLevel: '2.5' },
        { privacyLevel: ' 2' },
        { privacyLevel: '' },
        { privacy: '2' },
      ]) {
        expect(
          await b.refused((r) =>
            pages().setCheckinChoices(
              c.token,
              { ...form, privacyRequest: 'on' },
              r,
              NO_PAGE_LANGUAGE,
            ),
          ),
        ).toEqual({ status: 400, kind: 'invalid-privacy-level', backHref: c.path });
        expect(
          await b.refused((r) =>
            pages().setCheckinPrivacyLevel(c.token, form, r, NO_PAGE_LANGUAGE),
          ),
        ).toEqual({
          status: 400,
          kind: 'invalid-privacy-level',
          backHref: c.path,
        });
      }
      expect(await ledgerOf(t, world.participantId)).toHaveLength(2);

      expect(
        await b.send((r) =>
          pages().setCheckinEmailPreferences(
            c.token,
            { privacyRequest: 'on' },
            r,
            NO_PAGE_LANGUAGE,
          ),
        ),
      ).toEqual(redirect(`${c.path}?saved=preferences`));
      expect((await checkinModel(b, c)).preferences).toMatchObject({
        checkinReminder: false,
        privacyRequest: true,
      });
    });

    it('the hand-off shares the check-in at the member’s level then, and goes to the engine with its id', async () => {
      const world = await member();
      const c = await checkin(world);
      const b = browser();
      await start(b, c);
      await setLevel(b, c, { privacyLevel: '3' });
      const handedOff = await handOff(b, c);
      expect(handedOff.location).toMatch(engineAddress(c.sessionId));
      expect(handedOff).toEqual({ ...redirect(handedOff.location!), setCookie: [] });
      expect((await sessionOf(t, c.sessionId)).sharedLevel).toBe(3);
      // Only the token's SHA-256 is stored; pressed again, a new token replaces it.
      const token = new URL(handedOff.location!).searchParams.get('handoff')!;
      expect(
        await t.rows('SELECT 1 FROM sessions WHERE handoff_token_hash = $1', [sha256Hex(token)]),
      ).toHaveLength(1);
      expect((await handOff(b, c)).location).not.toBe(handedOff.location);
    });

    it('a raise made in another browser is asked about before the hand-off: “Keep” holds in the browser that answered only; “Go back” lowers it everywhere', async () => {
      const world = await member();
      const hers = browser();
      const first = await checkin(world);
      await start(hers, first);
      await setLevel(hers, first, { privacyLevel: '1' });
      await handOff(hers, first);

      // The enterprise raises the member to 5 on a link it minted, in its browser.
      const enterprise = browser();
      const minted = await checkin(world);
      await start(enterprise, minted);
      await setLevel(enterprise, minted, { privacyLevel: '5' });
      expect((await handoffOf(enterprise, minted)).raisedElsewhere).toBeNull();

      // "Go back" returns to the level the browser last chose itself: 1 in hers, 0 in a browser
      // that never chose one (docs/privacy.md).
      const askedBack = (level: number) => ({
        text: PageTexts.handoffRaisedElsewhere(5),
        keep: { level: 5, label: PageTexts.handoffKeep(5) },
        back: { level, label: PageTexts.handoffGoBack(level) },
      });
      const asked = askedBack(1);
      const next = await checkin(world);
      await start(hers, next);
      expect(await handoffOf(hers, next)).toMatchObject({
        sharedAt: PageTexts.handoffLevel(5),
        raisedElsewhere: asked,
      });
      // Without an answer (or with another level), nothing is handed off.
      expect(await handOff(hers, next)).toEqual(redirect(next.path));
      expect(await handOff(hers, next, { privacyLevel: '3' })).toEqual(redirect(next.path));
      expect((await sessionOf(t, next.sessionId)).sharedLevel).toBeNull();

      // The enterprise answers "Keep" in a third browser of its own: that browser only.
      const third = browser();
      const thirds = await checkin(world);
      await start(third, thirds);
      expect((await handoffOf(third, thirds)).raisedElsewhere).toEqual(askedBack(0));
      expect((await handOff(third, thirds, { privacyLevel: '5' })).location).toMatch(
        engineAddress(thirds.sessionId),
      );
      expect(await raiseAnswersOf(t, world)).toEqual([third.hash]);
      expect((await handoffOf(hers, next)).raisedElsewhere).toEqual(asked);

      // She keeps it in her browser: shared at 5, and her browser is not asked again.
      expect((await handOff(hers, next, { privacyLevel: '5' })).location).toMatch(
        engineAddress(next.sessionId),
      );
      expect((await sessionOf(t, next.sessionId)).sharedLevel).toBe(5);
      expect(await raiseAnswersOf(t, world)).toEqual([hers.hash, third.hash].sort());
      const later = await checkin(world);
      await start(hers, later);
      expect((await handoffOf(hers, later)).raisedElsewhere).toBeNull();

      // A new device of hers asks once; she goes back there — to 0, the level nobody chose: the
      // member's level, every check-in, and nobody is asked any more.
      const tablet = browser();
      const onTablet = await checkin(world);
      await start(tablet, onTablet);
      expect((await handoffOf(tablet, onTablet)).raisedElsewhere).toEqual(askedBack(0));
      expect((await handOff(tablet, onTablet, { privacyLevel: '0' })).location).toMatch(
        engineAddress(onTablet.sessionId),
      );
      expect(await membershipOf(t, world)).toMatchObject({
        privacyLevel: 0,
        raisedIn: null,
        levelBeforeRaise: null,
      });
      expect(await raiseAnswersOf(t, world)).toEqual([]);
      expect(await sharedLevels(t, [next.sessionId, thirds.sessionId, onTablet.sessionId])).toEqual(
        [0, 0, 0],
      );
      expect((await ledgerOf(t, world.participantId)).at(-1)).toEqual({
        groupID: world.groupId,
        sessionID: onTablet.sessionId,
        change: 'privacyLevel',
        from: 5,
        to: 0,
        via: 'checkin',
      });
      const afterBack = await checkin(world);
      await start(third, afterBack);
      expect(await handoffOf(third, afterBack)).toMatchObject({
        sharedAt: PageTexts.handoffLevel(0),
        raisedElsewhere: null,
      });
    });
  });

  describe('“I have finished” (/done)', () => {
    it('says “still analysing” until the result is in, then sends the participant to the return URL; a URL the rule now refuses gets a “complete” page', async () => {
      const world = await member();
      const c = await checkin(world);
      const b = browser();
      expect(await b.send(() => pages().done(c.token, NO_PAGE_LANGUAGE))).toEqual({
        status: 200,
        page: {
          name: 'pending',
          model: { title: PageTexts.pendingTitle, retryHref: `${c.path}/done` },
        },
        location: null,
        setCookie: [],
        attachment: null,
      });
      await complete(t, c.sessionId);
      expect(await b.send(() => pages().done(c.token, NO_PAGE_LANGUAGE))).toEqual(
        redirect('https://example.com/back', 302),
      );

      const returnUrl = (url: string) =>
        t.rows('UPDATE sessions SET return_url = $2 WHERE session_id = $1', [c.sessionId, url]);
      await returnUrl('https://app.example.com/ü✓');
      expect((await b.send(() => pages().done(c.token, NO_PAGE_LANGUAGE))).location).toBe(
        'https://app.example.com/%C3%BC%E2%9C%93',
      );
      for (const refused of [
        'https://app.example.com/a\nb',
        'https://192.168.0.1/done',
        'http://app.example.com/done',
        '',
      ]) {
        await returnUrl(refused);
        expect(await b.send(() => pages().done(c.token, NO_PAGE_LANGUAGE))).toEqual({
          status: 200,
          page: {
            name: 'notice',
            model: { title: PageTexts.completedTitle, text: PageTexts.completedText },
          },
          location: null,
          setCookie: [],
          attachment: null,
        });
      }
    });
  });

  describe('the AI notice (EU AI Act art. 50(3))', () => {
    it('follows the enterprise’s declaration as it stands when the page is shown: words only for EU wellbeing', async () => {
      const world = await member({ groupName: 'Declared', level: 5 });
      const c = await checkin(world);
      const b = browser();
      const programmes = new ProgrammesService(new ProgrammesRepository(t.db));
      const declared = await programmes.declare(world.enterpriseId, {
        jurisdiction: 'eu',
        purpose: 'wellbeing',
        basis: 'GDPR art. 9(2)(a), explicit consent',
        contact: 'dpo@example.com',
        by: 'test',
      });
      const start = (await view(b, c)).page?.model as StartPageModel;
      expect(start.aiNotice).toEqual({
        infers: PageTexts.aiNoticeInfers('off'),
        purpose: PageTexts.aiNoticePurpose('wellbeing', 'Acme'),
        employerSees: PageTexts.aboutEmployerSees(5, 'Acme', false),
        declarationLink: PageTexts.aiNoticeDeclarationLink,
      });
      expect(start.programme.declaration).toMatchObject({
        basis: 'GDPR art. 9(2)(a), explicit consent',
        contactHref: 'mailto:dpo@example.com',
        declaredAt: declared.declaredAt.toISOString(),
      });
      await b.send((r) => pages().startCheckin(c.token, r, NO_PAGE_LANGUAGE));
      const page = await checkinModel(b, c);
      expect(page.aiNotice.employerSees).toBe(PageTexts.aboutEmployerSees(5, 'Acme', false));
      expect(JSON.stringify(page)).not.toContain(PageTexts.levelText(5));
      expect(JSON.stringify(page)).not.toContain(PageTexts.aiNoticeInfers('on'));

      // A later declaration (here: safety, outside the EU) is what the next view says.
      await programmes.declare(world.enterpriseId, {
        jurisdiction: 'other',
        purpose: 'safety',
        basis: 'Site safety policy',
        contact: 'safety@example.com',
        by: 'test',
      });
      expect((await checkinModel(b, c)).aiNotice).toMatchObject({
        infers: PageTexts.aiNoticeInfers('on'),
        purpose: PageTexts.aiNoticePurpose('safety', 'Acme'),
      });
    });
  });
});
