/**
 * The settings page (pages/settings-pages.service.ts) and the one-click unsubscribe
 * (pages/unsubscribe-pages.ts) on real PostgreSQL, below HTTP: each page is read as the model it
 * was rendered from. Rules pinned down (docs/privacy.md, docs/checkin-flow.md, docs/security.md):
 *
 * - the page shows one membership: level (review notice, "Also share my N earlier check-ins done
 *   in this browser"), preferences, withdraw (only once consented), the history; GET binds nothing;
 * - a settings link binds to the first browser that posts on it (a cookie only for a browser
 *   without an identity; a value the server did not mint, or one a Start replaced, is none);
 *   another browser can neither see nor change it;
 * - a raise here reaches earlier check-ins only with "Also share", only those done in this
 *   browser: the enterprise's settings link, in its own browser, reaches none of the member's;
 * - withdrawing consent and "Sign out my links" revoke earlier links (settings and unsubscribe)
 *   and move this browser to a fresh link; confirmation pages change nothing;
 * - "Download my data" only in a browser that did one of the participant's check-ins, and then
 *   those in full, the others by id and time; "Delete my data" erases the participant;
 * - invalid, expired, misdirected and revoked links are the 404 page;
 * - unsubscribe: GET asks, POST turns the one preference off with its ledger row; revoked links,
 *   unknown mail types and group-less tokens are not valid.
 */
import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { PRIVACY_LEVELS } from '../../src/common/privacy-model';
import { unsubscribePath } from '../../src/participant-links/link-paths';
import { NO_PAGE_LANGUAGE } from '../../src/pages/i18n/page-language';
import { settingsPath } from '../../src/pages/page-links';
import { historyTime } from '../../src/pages/page-models';
import type { SettingsPageModel } from '../../src/pages/page-templates';
import { PageTexts, SAVED_MESSAGES } from '../../src/pages/pages.messages';
import { sha256Hex } from '../../src/common/crypto/secrets';
import {
  bindingsOf,
  CHECKIN_TRANSCRIPT,
  complete,
  completedCheckin,
  joinGroup,
  ledgerOf,
  MemberOptions,
  membershipOf,
  MemberWorld,
  newCheckin,
  newMember,
  PageAnswer,
  participantServices,
  ParticipantServices,
  sharedLevels,
  TestBrowser,
  BROWSER_SET_COOKIE,
  DEVICE_SET_COOKIE,
} from './participant-fixtures';
import { TestDatabase } from './support';

const COOKIE = BROWSER_SET_COOKIE;

describe('The settings and unsubscribe pages (PostgreSQL)', () => {
  let t: TestDatabase;
  let s: ParticipantServices;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    t = await TestDatabase.create();
    s = participantServices(t.db);
  });
  afterAll(() => t.close());

  const member = (options: MemberOptions = {}) => newMember(t, s.cipher, options);
  const browser = (cookie: string | null = null) => new TestBrowser(s.renderer, cookie);
  const pages = () => s.settingsPages;

  /** A settings link of the membership at its link version now; `agoMs`: signed earlier. */
  async function settingsToken(world: MemberWorld, agoMs = 0): Promise<string> {
    const { linkVersion } = await membershipOf(t, world);
    return s.links.settingsToken(
      { participantId: world.participantId, groupId: world.groupId, linkVersion },
      Date.now() - agoMs,
    );
  }
  const settingsLink = (token: string) => `settings:${sha256Hex(token)}`;

  const view = (b: TestBrowser, token: string, saved?: string) =>
    b.send((r) => pages().settingsPage(token, saved, r, NO_PAGE_LANGUAGE));
  async function settingsModel(b: TestBrowser, token: string, saved?: string) {
    const answer = await view(b, token, saved);
    expect(answer.page?.name).toBe('settings');
    return answer.page!.model as SettingsPageModel;
  }
  const setLevel = (b: TestBrowser, token: string, form: Record<string, string>) =>
    b.send((r) => pages().setSettingsPrivacyLevel(token, form, r, NO_PAGE_LANGUAGE));

  /** A check-in of the member done in `b` (Start there, then the engine's result). */
  async function doneIn(b: TestBrowser, world: MemberWorld): Promise<string> {
    const sessionId = await newCheckin(t, world);
    await b.send((r) =>
      s.checkinPages.startCheckin(s.tokens.sign('checkin', sessionId), r, NO_PAGE_LANGUAGE),
    );
    await complete(t, sessionId);
    return sessionId;
  }

  const redirect = (location: string): PageAnswer => ({
    status: 303,
    page: null,
    location,
    setCookie: [],
    attachment: null,
  });
  const page = (name: string, model: unknown): PageAnswer =>
    ({
      status: 200,
      page: { name, model },
      location: null,
      setCookie: [],
      attachment: null,
    }) as PageAnswer;
  const opened = { status: 403, kind: 'opened-elsewhere', backHref: null };
  const notFound = { status: 404, kind: 'not-found', backHref: null };

  const levels = (current: number, requested = -1) =>
    PRIVACY_LEVELS.map((value) => ({
      value,
      label: PageTexts.privacyLevelLabel(value),
      text: PageTexts.levelText(value),
      current: value === current,
      requested: value === requested,
    }));

  /** The token of the fresh link a revoking answer moved this browser to, and the flag. */
  function movedTo(answer: PageAnswer): { token: string; saved: string } {
    const url = new URL(answer.location!, 'http://127.0.0.1');
    return { token: url.searchParams.get('token')!, saved: url.searchParams.get('saved')! };
  }

  const preferencesOf = (world: MemberWorld) =>
    t.one<{ checkinReminder: boolean; privacyRequest: boolean }>(
      `SELECT pref_checkin_reminder AS "checkinReminder", pref_privacy_request AS "privacyRequest"
         FROM participants WHERE id = $1`,
      [world.participantId],
    );

  describe('the settings page', () => {
    it('shows one membership — level, preferences, the ways out, the history — and GET binds nothing', async () => {
      const world = await member({ groupName: 'Settings group' });
      await s.choices.setPrivacyLevel(world.member, 3, 'settings');
      await s.choices.unsubscribe(
        {
          participantId: world.participantId,
          membership: { groupId: world.groupId, linkVersion: 0 },
        },
        'privacyRequest',
      );
      const at = (
        await t.rows<{ at: Date }>(
          'SELECT at FROM consent_ledger WHERE participant_id = $1 ORDER BY id',
          [world.participantId],
        )
      ).map((row) => row.at);
      const token = await settingsToken(world);
      const b = browser();

      expect(await view(b, token)).toEqual(
        page('settings', {
          title: PageTexts.settingsTitle('Settings group'),
          who: PageTexts.whoLine('Settings group', 'Acme'),
          saved: null,
          exportAction: settingsPath(token, 'export'),
          deleteHref: settingsPath(token, 'delete'),
          signOutHref: settingsPath(token, 'sign-out'),
          withdraw: null,
          privacy: {
            action: settingsPath(token, 'choices'),
            notice: null,
            intro: PageTexts.privacyIntro('Settings group'),
            levels: levels(3),
            shareEarlier: null,
          },
          preferences: {
            action: settingsPath(token, 'choices'),
            checkinReminder: true,
            privacyRequest: false,
          },
          history: [
            {
              at: at[0].toISOString(),
              when: historyTime(at[0], 'en'),
              what: PageTexts.historyChange('privacyLevel', 0, 3),
              via: PageTexts.historyVia.settings,
            },
            {
              at: at[1].toISOString(),
              when: historyTime(at[1], 'en'),
              what: PageTexts.historyChange('privacyRequest', true, false),
              via: PageTexts.historyVia.unsubscribe,
            },
          ],
          programme: { intro: PageTexts.programmeNone('Acme'), declaration: null },
        }),
      );
      expect(b.cookie).toBeNull();
      expect(await bindingsOf(t, world.participantId)).toEqual({});
      expect((await settingsModel(b, token, 'privacy')).saved).toBe(SAVED_MESSAGES.privacy);
    });

    it('offers the withdrawal once consent is given, and the review notice while the request exceeds the level', async () => {
      const world = await member({
        groupName: 'Asking',
        consentRequired: true,
        groupRequest: ['userPercentiles'],
      });
      const token = await settingsToken(world);
      const b = browser();
      expect(await settingsModel(b, token)).toMatchObject({
        withdraw: null,
        privacy: {
          notice: {
            request: PageTexts.privacyNoticeRequest('Asking', 3),
            current: PageTexts.privacyNoticeCurrent(0),
          },
          levels: levels(0, 3),
        },
      });
      await s.choices.setConsent(world.member, true, 'checkin');
      await s.choices.setPrivacyLevel(world.member, 3, 'checkin');
      expect(await settingsModel(b, token)).toMatchObject({
        withdraw: {
          href: settingsPath(token, 'consent/withdraw'),
          text: PageTexts.withdrawText('Asking'),
        },
        privacy: { notice: null, levels: levels(3, 3) },
      });
    });

    it('answers the 404 page for invalid, expired, check-in, misdirected and revoked links, changing nothing', async () => {
      const world = await member();
      const revoked = await settingsToken(world);
      await s.choices.signOutLinks(world.participantId);
      const notMine = await t.group(world.enterpriseId, { name: 'Not a member' });
      const expiredAt = Date.now() - (s.config.email.linkTtlHours + 1) * 3600 * 1000;
      const id = `${world.participantId}:${world.groupId}`;
      const tokens: unknown[] = [
        undefined,
        '',
        'garbage',
        ['a', 'b'],
        s.tokens.sign('settings', id, expiredAt, 1),
        s.tokens.sign('checkin', id, undefined, 1),
        s.tokens.sign('settings', `${world.participantId}:${notMine}`, undefined, 0),
        s.tokens.sign('settings', 'not-a-uuid:1', undefined, 1),
        revoked,
      ];
      const b = browser();
      for (const token of tokens) {
        for (const call of [
          () => b.refused((r) => pages().settingsPage(token, undefined, r, NO_PAGE_LANGUAGE)),
          () =>
            b.refused((r) =>
              pages().setSettingsPrivacyLevel(token, { privacyLevel: '5' }, r, NO_PAGE_LANGUAGE),
            ),
          () =>
            b.refused((r) =>
              pages().setSettingsChoices(token, { privacyLevel: '5' }, r, NO_PAGE_LANGUAGE),
            ),
          () =>
            b.refused((r) => pages().setSettingsEmailPreferences(token, {}, r, NO_PAGE_LANGUAGE)),
          () => b.refused((r) => pages().withdrawConsent(token, r, NO_PAGE_LANGUAGE)),
          () => b.refused((r) => pages().signOutLinks(token, r, NO_PAGE_LANGUAGE)),
          () => b.refused((r) => pages().exportMyData(token, r, NO_PAGE_LANGUAGE)),
          () => b.refused((r) => pages().deleteMyData(token, r, NO_PAGE_LANGUAGE)),
          () => b.refused((r) => pages().confirmDelete(token, r, NO_PAGE_LANGUAGE)),
        ]) {
          expect(await call()).toEqual(notFound);
        }
      }
      expect(b.cookie).toBeNull();
      expect(await bindingsOf(t, world.participantId)).toEqual({});
      expect(await membershipOf(t, world)).toMatchObject({ privacyLevel: 0, linkVersion: 1 });
      expect(await preferencesOf(world)).toEqual({ checkinReminder: true, privacyRequest: true });
    });
  });

  describe('binding and choices', () => {
    it('the first POST binds the link to this browser (a cookie only for one without); another browser can then neither see nor change it', async () => {
      const world = await member();
      const token = await settingsToken(world);
      const b = browser();
      expect(await setLevel(b, token, { privacyLevel: '2' })).toEqual({
        ...redirect(`${settingsPath(token)}&saved=privacy`),
        setCookie: [expect.stringMatching(COOKIE), expect.stringMatching(DEVICE_SET_COOKIE)],
      });
      expect(await bindingsOf(t, world.participantId)).toEqual({ [settingsLink(token)]: b.hash });
      const cookie = b.cookie;
      expect((await setLevel(b, token, { privacyLevel: '2' })).setCookie).toEqual([]);
      expect(b.cookie).toBe(cookie);

      // A browser with an identity of its own keeps it (no Start here, no new identity).
      const other = await member();
      const withIdentity = browser();
      await doneIn(withIdentity, other);
      const itsCookie = withIdentity.cookie;
      const otherToken = await settingsToken(other);
      expect((await setLevel(withIdentity, otherToken, { privacyLevel: '1' })).setCookie).toEqual(
        [],
      );
      expect(withIdentity.cookie).toBe(itsCookie);
      expect((await bindingsOf(t, other.participantId))[settingsLink(otherToken)]).toBe(
        withIdentity.hash,
      );

      for (const stranger of [browser(), withIdentity]) {
        expect(
          await stranger.refused((r) =>
            pages().settingsPage(token, undefined, r, NO_PAGE_LANGUAGE),
          ),
        ).toEqual(opened);
        expect(
          await stranger.refused((r) =>
            pages().setSettingsChoices(
              token,
              { privacyLevel: '5', privacyRequest: 'on' },
              r,
              NO_PAGE_LANGUAGE,
            ),
          ),
        ).toEqual(opened);
        expect(
          await stranger.refused((r) => pages().withdrawConsent(token, r, NO_PAGE_LANGUAGE)),
        ).toEqual(opened);
        expect(
          await stranger.refused((r) => pages().signOutLinks(token, r, NO_PAGE_LANGUAGE)),
        ).toEqual(opened);
        expect(
          await stranger.refused((r) => pages().deleteMyData(token, r, NO_PAGE_LANGUAGE)),
        ).toEqual(opened);
        expect(
          await stranger.refused((r) => pages().confirmSignOut(token, r, NO_PAGE_LANGUAGE)),
        ).toEqual(opened);
      }
      expect(await membershipOf(t, world)).toMatchObject({ privacyLevel: 2, linkVersion: 0 });
      expect(
        await t.rows('SELECT 1 FROM participants WHERE id = $1', [world.participantId]),
      ).toEqual([{ '?column?': 1 }]);
    });

    it('never adopts a value it did not mint, nor one a later Start replaced: the link binds to a fresh identity', async () => {
      const world = await member();
      const token = await settingsToken(world);
      const planted = randomBytes(32).toString('base64url');
      const b = browser(planted);
      expect((await setLevel(b, token, { privacyLevel: '1' })).setCookie).toEqual([
        expect.stringMatching(COOKIE),
        expect.stringMatching(DEVICE_SET_COOKIE),
      ]);
      expect(b.cookie).not.toBe(planted);
      expect(await bindingsOf(t, world.participantId)).toEqual({ [settingsLink(token)]: b.hash });
      expect(await t.rows('SELECT 1 FROM browsers WHERE hash = $1', [sha256Hex(planted)])).toEqual(
        [],
      );
      expect(
        await browser(planted).refused((r) =>
          pages().settingsPage(token, undefined, r, NO_PAGE_LANGUAGE),
        ),
      ).toEqual(opened);

      // A Start gives this browser a new identity; a copy of the one it replaced holds nothing.
      const copied = b.cookie!;
      await doneIn(b, await member());
      const copy = browser(copied);
      expect(
        await copy.refused((r) => pages().settingsPage(token, undefined, r, NO_PAGE_LANGUAGE)),
      ).toEqual(opened);
      expect((await view(b, token)).status).toBe(200);
      const other = await member();
      const otherToken = await settingsToken(other);
      expect((await setLevel(copy, otherToken, { privacyLevel: '1' })).setCookie).toEqual([
        expect.stringMatching(COOKIE),
        expect.stringMatching(DEVICE_SET_COOKIE),
      ]);
      expect([copied, b.cookie]).not.toContain(copy.cookie);
      expect(await bindingsOf(t, other.participantId)).toEqual({
        [settingsLink(otherToken)]: copy.hash,
      });
    });

    it('a raise here reaches earlier check-ins only with “Also share”, and only those done in this browser; the enterprise’s link in its own browser reaches none of hers', async () => {
      const world = await member();
      const hers = browser();
      const doneHere = await doneIn(hers, world);
      const doneElsewhere = await doneIn(browser(), world);
      const token = await settingsToken(world);

      expect((await settingsModel(hers, token)).privacy.shareEarlier).toEqual({
        label: PageTexts.shareEarlierLabel(1),
      });
      await setLevel(hers, token, { privacyLevel: '4' });
      expect(await membershipOf(t, world)).toMatchObject({ privacyLevel: 4, raisedIn: hers.hash });
      expect(await sharedLevels(t, [doneHere, doneElsewhere])).toEqual([null, null]);
      await setLevel(hers, token, { privacyLevel: '4', shareEarlier: 'on' });
      expect(await sharedLevels(t, [doneHere, doneElsewhere])).toEqual([4, null]);

      // The enterprise, with a settings link of hers (a work mailbox), in its own browser.
      const enterprise = browser();
      const itsCopy = await settingsToken(world, 2_000);
      expect((await settingsModel(enterprise, itsCopy)).privacy.shareEarlier).toBeNull();
      await setLevel(enterprise, itsCopy, { privacyLevel: '5', shareEarlier: 'on' });
      expect(await sharedLevels(t, [doneHere, doneElsewhere])).toEqual([4, null]);
      expect(await membershipOf(t, world)).toMatchObject({
        privacyLevel: 5,
        raisedIn: enterprise.hash,
        levelBeforeRaise: 4,
      });
      expect(await ledgerOf(t, world.participantId)).toEqual([
        {
          groupID: world.groupId,
          sessionID: null,
          change: 'privacyLevel',
          from: 0,
          to: 4,
          via: 'settings',
        },
        {
          groupID: world.groupId,
          sessionID: null,
          change: 'privacyLevel',
          from: 4,
          to: 5,
          via: 'settings',
        },
      ]);
    });

    it('the one form saves the level and the preferences together; an invalid level is a 400 page and saves neither', async () => {
      const world = await member();
      const token = await settingsToken(world);
      const b = browser();
      const answer = await b.send((r) =>
        pages().setSettingsChoices(
          token,
          { privacyLevel: '5', checkinReminder: 'on' },
          r,
          NO_PAGE_LANGUAGE,
        ),
      );
      expect(answer).toEqual({
        ...redirect(`${settingsPath(token)}&saved=choices`),
        setCookie: [expect.stringMatching(COOKIE), expect.stringMatching(DEVICE_SET_COOKIE)],
      });
      expect((await membershipOf(t, world)).privacyLevel).toBe(5);
      expect(await preferencesOf(world)).toEqual({ checkinReminder: true, privacyRequest: false });

      for (const form of [{ privacyLevel: 'x' }, { privacyLevel: '9' }, {}]) {
        expect(
          await b.refused((r) =>
            pages().setSettingsChoices(
              token,
              { ...form, privacyRequest: 'on' },
              r,
              NO_PAGE_LANGUAGE,
            ),
          ),
        ).toEqual({ status: 400, kind: 'invalid-privacy-level', backHref: settingsPath(token) });
      }
      expect((await membershipOf(t, world)).privacyLevel).toBe(5);
      expect(await preferencesOf(world)).toEqual({ checkinReminder: true, privacyRequest: false });

      expect(
        await b.send((r) =>
          pages().setSettingsEmailPreferences(token, { privacyRequest: 'on' }, r, NO_PAGE_LANGUAGE),
        ),
      ).toEqual(redirect(`${settingsPath(token)}&saved=preferences`));
      expect(await preferencesOf(world)).toEqual({ checkinReminder: false, privacyRequest: true });
    });
  });

  describe('taking links back', () => {
    it('withdrawing consent: confirmed first; then level 0, earlier links revoked, and this browser on a fresh link of the page', async () => {
      const world = await member({ groupName: 'Asking', consentRequired: true, level: 3 });
      await s.choices.setConsent(world.member, true, 'checkin');
      const token = await settingsToken(world);
      const b = browser();

      expect(
        await b.send((r) => pages().confirmWithdrawConsent(token, r, NO_PAGE_LANGUAGE)),
      ).toEqual(
        page('confirm', {
          title: PageTexts.withdrawConfirmTitle,
          text: PageTexts.withdrawText('Asking'),
          action: settingsPath(token, 'consent/withdraw'),
          confirmLabel: PageTexts.withdrawConfirmButton,
          cancelHref: settingsPath(token),
          cancelLabel: PageTexts.withdrawCancel,
        }),
      );
      expect(await membershipOf(t, world)).toMatchObject({ consented: true, linkVersion: 0 });

      const answer = await b.send((r) => pages().withdrawConsent(token, r, NO_PAGE_LANGUAGE));
      const fresh = movedTo(answer);
      expect(fresh.saved).toBe('withdrawn');
      expect(answer).toEqual({
        ...redirect(`${settingsPath(fresh.token)}&saved=withdrawn`),
        setCookie: [expect.stringMatching(COOKIE), expect.stringMatching(DEVICE_SET_COOKIE)],
      });
      expect(s.links.membershipOf(fresh.token)).toEqual({
        participantId: world.participantId,
        groupId: world.groupId,
        linkVersion: 1,
      });
      expect(await membershipOf(t, world)).toMatchObject({
        privacyLevel: 0,
        consented: false,
        linkVersion: 1,
      });
      expect(await bindingsOf(t, world.participantId)).toEqual({
        [settingsLink(fresh.token)]: b.hash,
      });
      expect(
        await b.refused((r) => pages().settingsPage(token, undefined, r, NO_PAGE_LANGUAGE)),
      ).toEqual(notFound);
      expect((await settingsModel(b, fresh.token, fresh.saved)).saved).toBe(
        SAVED_MESSAGES.withdrawn,
      );
      expect(
        await browser().refused((r) =>
          pages().settingsPage(fresh.token, undefined, r, NO_PAGE_LANGUAGE),
        ),
      ).toEqual(opened);

      // Nothing to withdraw: nothing revoked, nothing recorded.
      const ledger = await ledgerOf(t, world.participantId);
      expect(
        await b.send((r) => pages().withdrawConsent(fresh.token, r, NO_PAGE_LANGUAGE)),
      ).toEqual(redirect(`${settingsPath(fresh.token)}&saved=withdrawn`));
      expect((await membershipOf(t, world)).linkVersion).toBe(1);
      expect(await ledgerOf(t, world.participantId)).toEqual(ledger);
    });

    it('“Sign out my links”: every group’s settings and unsubscribe links revoked; this browser on a fresh link, its other settings bindings dropped', async () => {
      const world = await member({ groupName: 'First' });
      const second = await joinGroup(t, world, { groupName: 'Second' });
      const first = await settingsToken(world);
      const ofSecond = await settingsToken(second);
      const unsubscribeUrl = s.links.unsubscribeUrl(
        { participantId: world.participantId, groupId: world.groupId, linkVersion: 0 },
        'checkinReminder',
      );
      const unsubscribeToken = new URL(unsubscribeUrl).searchParams.get('token')!;
      const b = browser();
      await setLevel(b, ofSecond, { privacyLevel: '0' });

      expect(await b.send((r) => pages().confirmSignOut(first, r, NO_PAGE_LANGUAGE))).toEqual(
        page('confirm', {
          title: PageTexts.signOutConfirmTitle,
          text: PageTexts.signOutText,
          action: settingsPath(first, 'sign-out'),
          confirmLabel: PageTexts.signOutConfirmButton,
          cancelHref: settingsPath(first),
          cancelLabel: PageTexts.signOutCancel,
        }),
      );
      const answer = await b.send((r) => pages().signOutLinks(first, r, NO_PAGE_LANGUAGE));
      const fresh = movedTo(answer);
      expect(answer).toEqual(redirect(`${settingsPath(fresh.token)}&saved=signed-out`));
      expect(s.links.membershipOf(fresh.token)).toEqual({
        participantId: world.participantId,
        groupId: world.groupId,
        linkVersion: 1,
      });
      expect((await membershipOf(t, second)).linkVersion).toBe(1);
      expect(await bindingsOf(t, world.participantId)).toEqual({
        [settingsLink(fresh.token)]: b.hash,
      });
      for (const revoked of [first, ofSecond]) {
        expect(
          await b.refused((r) => pages().settingsPage(revoked, undefined, r, NO_PAGE_LANGUAGE)),
        ).toEqual(notFound);
      }
      expect(
        await b.refused(() => s.unsubscribePages.unsubscribe(unsubscribeToken, NO_PAGE_LANGUAGE)),
      ).toEqual({
        status: 404,
        kind: 'unsubscribe-not-valid',
        backHref: null,
      });
      expect(await preferencesOf(world)).toEqual({ checkinReminder: true, privacyRequest: true });
      expect((await settingsModel(b, fresh.token)).title).toBe(PageTexts.settingsTitle('First'));
    });
  });

  describe('the participant’s data', () => {
    it('“Download my data” only in a browser that did one of the participant’s check-ins: those in full, the others by id and time', async () => {
      const world = await member({ groupName: 'Exporters' });
      const hers = browser();
      const doneHere = await completedCheckin(t, s.cipher, world, { pitch: 0.25 });
      await hers.send((r) =>
        s.checkinPages.startCheckin(s.tokens.sign('checkin', doneHere), r, NO_PAGE_LANGUAGE),
      );
      const doneElsewhere = await completedCheckin(t, s.cipher, world);
      await browser().send((r) =>
        s.checkinPages.startCheckin(s.tokens.sign('checkin', doneElsewhere), r, NO_PAGE_LANGUAGE),
      );
      const neverOpened = await newCheckin(t, world);
      const token = await settingsToken(world);

      // A settings link alone (a work mailbox), or a browser that did someone else's check-in.
      const someoneElse = browser();
      await doneIn(someoneElse, await member());
      for (const elsewhere of [browser(), someoneElse]) {
        expect(
          await elsewhere.refused((r) => pages().exportMyData(token, r, NO_PAGE_LANGUAGE)),
        ).toEqual({
          status: 403,
          kind: 'export-elsewhere',
          backHref: null,
        });
      }
      expect(await bindingsOf(t, world.participantId)).not.toHaveProperty(settingsLink(token));

      const answer = await hers.send((r) => pages().exportMyData(token, r, NO_PAGE_LANGUAGE));
      expect(answer).toMatchObject({ status: 200, page: null, setCookie: [] });
      const times = Object.fromEntries(
        (
          await t.rows<{ sessionId: string; timestamp: Date }>(
            `SELECT session_id AS "sessionId", coalesce(completed_at, created_at) AS timestamp
               FROM sessions WHERE participant_id = $1`,
            [world.participantId],
          )
        ).map((row) => [row.sessionId, row.timestamp.toISOString()]),
      );
      const { joinDate } = await t.one<{ joinDate: string }>(
        `SELECT json_build_object('d', join_date)->>'d' AS "joinDate" FROM memberships
          WHERE participant_id = $1`,
        [world.participantId],
      );
      const data = answer.attachment as Record<string, unknown>;
      expect(typeof data.exportedAt).toBe('string');
      expect({ ...data, exportedAt: null }).toEqual({
        exportedAt: null,
        externalID: world.externalId,
        email: world.email,
        emailPreferences: { checkinReminder: true, privacyRequest: true },
        language: null,
        groups: [
          {
            groupID: world.groupId,
            name: 'Exporters',
            joinDate,
            privacyLevel: 0,
            consentRequired: false,
            consentedAt: null,
          },
        ],
        sessions: [
          {
            externalID: world.externalId,
            sessionID: doneHere,
            timestamp: times[doneHere],
            groupID: world.groupId,
            version: 'v1.0.0',
            mhci: 42,
            subscores: { vision: 1, audio: 2, transcript: 3, assessment: 4 },
            groupPercentiles: {},
            userPercentiles: {},
            transcript: CHECKIN_TRANSCRIPT,
            features: { pitch: 0.25 },
          },
          { sessionID: doneElsewhere, timestamp: times[doneElsewhere] },
          { sessionID: neverOpened, timestamp: times[neverOpened] },
        ],
        history: [],
      });
      expect((await bindingsOf(t, world.participantId))[settingsLink(token)]).toBe(hers.hash);
    });

    it('“Delete my data”: a confirmation page first, then the participant is erased and the link leads nowhere', async () => {
      const world = await member({ groupName: 'A' });
      await joinGroup(t, world, { groupName: 'B' });
      const token = await settingsToken(world);
      const b = browser();

      expect(await b.send((r) => pages().confirmDelete(token, r, NO_PAGE_LANGUAGE))).toEqual(
        page('confirm', {
          title: PageTexts.deleteTitle,
          text: PageTexts.deleteConfirmText('A, B'),
          action: settingsPath(token, 'delete'),
          confirmLabel: PageTexts.deleteConfirmButton,
          cancelHref: settingsPath(token),
          cancelLabel: PageTexts.deleteCancel,
        }),
      );
      expect(
        await t.rows('SELECT 1 FROM participants WHERE id = $1', [world.participantId]),
      ).toEqual([{ '?column?': 1 }]);

      expect(await b.send((r) => pages().deleteMyData(token, r, NO_PAGE_LANGUAGE))).toEqual(
        page('notice', { title: PageTexts.deletedTitle, text: PageTexts.deletedText }),
      );
      expect(
        await t.rows('SELECT 1 FROM participants WHERE id = $1', [world.participantId]),
      ).toEqual([]);
      expect(
        await t.rows<{ type: string }>(
          'SELECT type FROM events WHERE enterprise_id = $1 ORDER BY group_id',
          [world.enterpriseId],
        ),
      ).toEqual([{ type: 'user.deleted' }, { type: 'user.deleted' }]);
      expect(
        await t.rows('SELECT change, via FROM consent_ledger WHERE enterprise_id = $1', [
          world.enterpriseId,
        ]),
      ).toEqual([{ change: 'erasure', via: 'erasure' }]);
      expect(
        await b.refused((r) => pages().settingsPage(token, undefined, r, NO_PAGE_LANGUAGE)),
      ).toEqual(notFound);
    });
  });

  describe('one-click unsubscribe', () => {
    const unsubscribeToken = (world: MemberWorld, type: string, linkVersion = 0) =>
      new URL(
        s.links.unsubscribeUrl(
          { participantId: world.participantId, groupId: world.groupId, linkVersion },
          type,
        ),
      ).searchParams.get('token')!;
    const notValid = { status: 404, kind: 'unsubscribe-not-valid', backHref: null };
    const unsubscribe = () => s.unsubscribePages;

    it('GET asks and changes nothing; POST turns that one preference off, with a ledger row naming no group', async () => {
      const world = await member({ enterpriseName: 'Initech' });
      const token = unsubscribeToken(world, 'checkinReminder');
      const b = browser();
      expect(await b.send(() => unsubscribe().confirm(token, NO_PAGE_LANGUAGE))).toEqual(
        page('unsubscribe', {
          title: PageTexts.unsubscribeTitle,
          text: PageTexts.unsubscribeQuestion('checkinReminder', 'Initech'),
          action: unsubscribePath(token),
        }),
      );
      expect(await preferencesOf(world)).toEqual({ checkinReminder: true, privacyRequest: true });
      expect(await ledgerOf(t, world.participantId)).toEqual([]);

      expect(await b.send(() => unsubscribe().unsubscribe(token, NO_PAGE_LANGUAGE))).toEqual(
        page('notice', {
          title: PageTexts.unsubscribedTitle,
          text: PageTexts.unsubscribedText('checkinReminder', 'Initech'),
        }),
      );
      expect(await preferencesOf(world)).toEqual({ checkinReminder: false, privacyRequest: true });
      expect(await ledgerOf(t, world.participantId)).toEqual([
        {
          groupID: null,
          sessionID: null,
          change: 'checkinReminder',
          from: true,
          to: false,
          via: 'unsubscribe',
        },
      ]);
      expect(b.cookie).toBeNull();
      expect(await bindingsOf(t, world.participantId)).toEqual({});
    });

    it('not valid: garbage, other links, unknown mail types, revoked links', async () => {
      const world = await member();
      const legacy = s.tokens.sign('unsubscribe', `${world.participantId}:privacyRequest`);
      const current = unsubscribeToken(world, 'privacyRequest');
      const b = browser();
      for (const token of [
        'garbage',
        undefined,
        await settingsToken(world),
        unsubscribeToken(world, 'newsletter'),
        unsubscribeToken(world, 'privacyRequest', 1),
      ]) {
        expect(await b.refused(() => unsubscribe().confirm(token, NO_PAGE_LANGUAGE))).toEqual(
          notValid,
        );
        expect(await b.refused(() => unsubscribe().unsubscribe(token, NO_PAGE_LANGUAGE))).toEqual(
          notValid,
        );
      }
      // A token naming no group (the link version's form) is no unsubscribe link.
      expect(await b.refused(() => unsubscribe().confirm(legacy, NO_PAGE_LANGUAGE))).toEqual(
        notValid,
      );
      // Valid until the participant signs out their links.
      expect((await b.send(() => unsubscribe().confirm(current, NO_PAGE_LANGUAGE))).status).toBe(
        200,
      );
      await s.choices.signOutLinks(world.participantId);
      for (const token of [current]) {
        expect(await b.refused(() => unsubscribe().confirm(token, NO_PAGE_LANGUAGE))).toEqual(
          notValid,
        );
        expect(await b.refused(() => unsubscribe().unsubscribe(token, NO_PAGE_LANGUAGE))).toEqual(
          notValid,
        );
      }
      expect(await preferencesOf(world)).toEqual({ checkinReminder: true, privacyRequest: true });
      expect(await ledgerOf(t, world.participantId)).toEqual([]);
    });
  });
});
