/**
 * The participant's choices (privacy/participant-choices.ts) and the enterprise's privacy requests
 * (PrivacyService) on real PostgreSQL, below HTTP. Rules pinned down (docs/privacy.md):
 *
 * - a raise sets the member's level, records the browser it was made in and the level before it,
 *   and reaches only the check-in whose page made it and, with "Also share", the check-ins whose
 *   links the named browser holds — nothing else, never another group's;
 * - a lowering caps every check-in of the membership at once; a later raise does not undo it;
 * - the group comparisons count exactly the check-ins shown at level 5 (features_shared);
 * - every change appends a ledger row, a level change writes a `user.privacy.updated` event (and
 *   a delivery to the endpoints that take it), a raise goes in a security notice (the one still
 *   queued for the group, or a new one);
 *   a choice that changes nothing writes nothing;
 * - a new raise clears the "Keep" answers; a lowering to the level before the raise clears it;
 * - consent is given to one check-in; withdrawing drops the level to 0, revokes the links and
 *   clears the consent of every check-in not completed, which a later consent given through
 *   another check-in does not bring back;
 * - email preferences and one-click unsubscribe (revoked links change nothing);
 * - an enterprise only requests: names stored deduplicated in level order, never another
 *   enterprise's group or participant.
 */
import { ApiError } from '../../src/common/errors/api-error';
import { GroupErrors } from '../../src/groups/groups.errors';
import { MembershipsRepository } from '../../src/participants/memberships.repository';
import { ParticipantErrors } from '../../src/participants/participants.errors';
import {
  bindCheckin,
  completedCheckin,
  comparedValuesOf,
  endpointTaking,
  joinGroup,
  ledgerOf,
  mailsOf,
  MemberOptions,
  membershipOf,
  MemberWorld,
  newCheckin,
  newMember,
  noticeDetailsOf,
  participantServices,
  ParticipantServices,
  privacyEventsOf,
  raiseAnswersOf,
  sessionOf,
  sharedLevels,
} from './participant-fixtures';
import { TestDatabase } from './support';

describe('The participant’s choices (PostgreSQL)', () => {
  let t: TestDatabase;
  let s: ParticipantServices;
  let memberships: MembershipsRepository;

  beforeAll(async () => {
    t = await TestDatabase.create();
    s = participantServices(t.db);
    memberships = new MembershipsRepository(t.db);
  });
  afterAll(() => t.close());

  const member = (options: MemberOptions = {}) => newMember(t, s.cipher, options);
  const completed = (world: MemberWorld, features?: Record<string, number>) =>
    completedCheckin(t, s.cipher, world, features);

  const deliveriesTo = async (endpointId: string) =>
    (
      await t.rows<{ type: string }>(
        `SELECT e.type FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
          WHERE d.endpoint_id = $1 ORDER BY d.created_at`,
        [endpointId],
      )
    ).map((row) => row.type);

  const preferencesOf = (world: MemberWorld) =>
    t.one<{ checkinReminder: boolean; privacyRequest: boolean }>(
      `SELECT pref_checkin_reminder AS "checkinReminder", pref_privacy_request AS "privacyRequest"
         FROM participants WHERE id = $1`,
      [world.participantId],
    );

  describe('the privacy level', () => {
    it('a raise: the member’s level, where it was made, one ledger row, the event (to endpoints that take it) and one notice; no check-in moves by itself', async () => {
      const world = await member();
      const takesIt = await endpointTaking(t, world, ['user.privacy.updated']);
      const specOnly = await endpointTaking(t, world, ['user.created', 'user.session.result']);
      const past = await completed(world);
      const pending = await newCheckin(t, world);

      expect(await s.choices.setPrivacyLevel(world.member, 3, 'settings', { madeIn: 'A' })).toBe(
        true,
      );

      expect(await membershipOf(t, world)).toEqual({
        privacyLevel: 3,
        consented: false,
        linkVersion: 0,
        raisedIn: 'A',
        levelBeforeRaise: 0,
      });
      expect(await sharedLevels(t, [past, pending])).toEqual([0, null]);
      expect(await ledgerOf(t, world.participantId)).toEqual([
        {
          groupID: world.groupId,
          sessionID: null,
          change: 'privacyLevel',
          from: 0,
          to: 3,
          via: 'settings',
        },
      ]);
      expect(await privacyEventsOf(t, world.groupId)).toEqual([
        {
          groupID: world.groupId,
          userIdentifier: world.externalId,
          privacyLevel: 3,
          previousPrivacyLevel: 0,
        },
      ]);
      expect(await deliveriesTo(takesIt)).toEqual(['user.privacy.updated']);
      expect(await deliveriesTo(specOnly)).toEqual([]);
      expect(await mailsOf(t, world.participantId)).toEqual([
        {
          type: 'privacyNotice',
          status: 'queued',
          groupId: world.groupId,
          details: noticeDetailsOf([0, 3]),
        },
      ]);
    });

    it('on a check-in’s page the level is that check-in’s too, up and down, and the ledger names the check-in', async () => {
      const world = await member();
      const here = await newCheckin(t, world);
      const other = await newCheckin(t, world);

      await s.choices.setPrivacyLevel(world.member, 4, 'checkin', { madeIn: 'A', sessionId: here });
      expect(await sharedLevels(t, [here, other])).toEqual([4, null]);
      await s.choices.setPrivacyLevel(world.member, 2, 'checkin', { madeIn: 'A', sessionId: here });
      expect(await sharedLevels(t, [here, other])).toEqual([2, null]);

      expect(await ledgerOf(t, world.participantId)).toEqual([
        {
          groupID: world.groupId,
          sessionID: here,
          change: 'privacyLevel',
          from: 0,
          to: 4,
          via: 'checkin',
        },
        {
          groupID: world.groupId,
          sessionID: here,
          change: 'privacyLevel',
          from: 4,
          to: 2,
          via: 'checkin',
        },
      ]);
    });

    it('“Also share” reaches the earlier check-ins whose links the named browser holds — not another browser’s, not one never opened, not another group’s', async () => {
      const world = await member();
      const elsewhereGroup = await joinGroup(t, world);
      const [doneHere, alsoHere, doneElsewhere, neverOpened] = [
        await completed(world),
        await completed(world),
        await completed(world),
        await completed(world),
      ];
      const otherGroupHere = await completed(elsewhereGroup);
      await bindCheckin(t, world, doneHere, 'B-here');
      await bindCheckin(t, world, alsoHere, 'B-here-before-a-start');
      await bindCheckin(t, world, doneElsewhere, 'E');
      await bindCheckin(t, world, otherGroupHere, 'B-here');
      const current = await newCheckin(t, world);
      await bindCheckin(t, world, current, 'B-here');
      const all = [doneHere, alsoHere, doneElsewhere, neverOpened, current];

      // Unticked: only the check-in whose page made it.
      await s.choices.setPrivacyLevel(world.member, 3, 'checkin', {
        madeIn: 'B-here',
        sessionId: current,
      });
      expect(await sharedLevels(t, all)).toEqual([0, 0, 0, 0, 3]);

      await s.choices.setPrivacyLevel(world.member, 4, 'checkin', {
        madeIn: 'B-here',
        sessionId: current,
        shareEarlierFrom: ['B-here', 'B-here-before-a-start'],
      });
      expect(await sharedLevels(t, all)).toEqual([4, 4, 0, 0, 4]);
      expect(await sharedLevels(t, [otherGroupHere])).toEqual([0]);
    });

    it('the enterprise’s browser, on a link it minted, reaches nothing done in the member’s', async () => {
      const world = await member();
      const hers = await completed(world);
      await bindCheckin(t, world, hers, 'member-browser');
      const minted = await newCheckin(t, world);
      await bindCheckin(t, world, minted, 'enterprise-browser');

      for (const level of [5, 0, 5]) {
        await s.choices.setPrivacyLevel(world.member, level, 'checkin', {
          madeIn: 'enterprise-browser',
          sessionId: minted,
          shareEarlierFrom: ['enterprise-browser'],
        });
      }
      expect(await sharedLevels(t, [hers, minted])).toEqual([0, 5]);
      // The settings page in its browser (a settings link of the work mailbox) neither.
      await s.choices.setPrivacyLevel(world.member, 5, 'settings', {
        madeIn: 'enterprise-browser',
        shareEarlierFrom: ['enterprise-browser'],
      });
      expect(await sharedLevels(t, [hers])).toEqual([0]);
    });

    it('a lowering, from anywhere, caps every check-in of the membership at once; a later raise does not bring them back', async () => {
      const world = await member({ level: 5 });
      const otherGroup = await joinGroup(t, world, { level: 5 });
      const first = await completed(world);
      const second = await completed(world);
      const pending = await newCheckin(t, world);
      const inOtherGroup = await completed(otherGroup);

      await s.choices.setPrivacyLevel(world.member, 2, 'settings');
      expect(await sharedLevels(t, [first, second, pending, inOtherGroup])).toEqual([
        2,
        2,
        null,
        5,
      ]);
      await s.choices.setPrivacyLevel(world.member, 5, 'settings');
      expect(await sharedLevels(t, [first, second])).toEqual([2, 2]);

      expect(await privacyEventsOf(t, world.groupId)).toEqual([
        {
          groupID: world.groupId,
          userIdentifier: world.externalId,
          privacyLevel: 2,
          previousPrivacyLevel: 5,
        },
        {
          groupID: world.groupId,
          userIdentifier: world.externalId,
          privacyLevel: 5,
          previousPrivacyLevel: 2,
        },
      ]);
      // Only the raise mails a notice.
      expect(await mailsOf(t, world.participantId)).toEqual([
        {
          type: 'privacyNotice',
          status: 'queued',
          groupId: world.groupId,
          details: noticeDetailsOf([2, 5]),
        },
      ]);
    });

    it('the group comparisons count exactly the check-ins shown at level 5: a raise that reaches one adds its values, a lowering takes them out', async () => {
      const world = await member();
      const checkin = await completed(world, { pitch: 0.25, tempo: 3 });
      expect(await sessionOf(t, checkin)).toMatchObject({ sharedLevel: 0, featuresShared: false });

      // The member's level alone does not show the check-in at 5.
      await s.choices.setPrivacyLevel(world.member, 5, 'settings');
      expect((await sessionOf(t, checkin)).featuresShared).toBe(false);
      expect(await comparedValuesOf(t, world.groupId)).toEqual([]);

      await s.choices.setPrivacyLevel(world.member, 5, 'checkin', { sessionId: checkin });
      expect(await sessionOf(t, checkin)).toMatchObject({ sharedLevel: 5, featuresShared: true });
      expect(await comparedValuesOf(t, world.groupId)).toEqual(['pitch=0.25 ×1', 'tempo=3 ×1']);

      await s.choices.setPrivacyLevel(world.member, 4, 'settings');
      expect(await sessionOf(t, checkin)).toMatchObject({ sharedLevel: 4, featuresShared: false });
      expect(await comparedValuesOf(t, world.groupId)).toEqual([]);
    });

    it('a choice that changes nothing writes nothing: no ledger row, no event, no mail', async () => {
      const world = await member({ level: 2 });
      expect(await s.choices.setPrivacyLevel(world.member, 2, 'settings', { madeIn: 'A' })).toBe(
        true,
      );
      expect(await ledgerOf(t, world.participantId)).toEqual([]);
      expect(await privacyEventsOf(t, world.groupId)).toEqual([]);
      expect(await mailsOf(t, world.participantId)).toEqual([]);
      expect((await membershipOf(t, world)).raisedIn).toBeNull();
    });

    it('the notice is a security notice: sent whatever the email preferences; raises while it is queued join it, each group has its own', async () => {
      const world = await member();
      await t.rows(
        'UPDATE participants SET pref_checkin_reminder = false, pref_privacy_request = false WHERE id = $1',
        [world.participantId],
      );
      const otherGroup = await joinGroup(t, world);

      await s.choices.setPrivacyLevel(world.member, 1, 'settings');
      await s.choices.setPrivacyLevel(world.member, 3, 'settings');
      await s.choices.setPrivacyLevel(otherGroup.member, 2, 'settings');

      expect(await mailsOf(t, world.participantId)).toEqual([
        {
          type: 'privacyNotice',
          status: 'queued',
          groupId: world.groupId,
          details: noticeDetailsOf([0, 1], [1, 3]),
        },
        {
          type: 'privacyNotice',
          status: 'queued',
          groupId: otherGroup.groupId,
          details: noticeDetailsOf([0, 2]),
        },
      ]);
      // Each change still tells the enterprise.
      expect((await privacyEventsOf(t, world.groupId)).map((e) => e.privacyLevel)).toEqual([1, 3]);
    });

    it('which raise is asked about: the browser that made it and the level before its raises; a new raise clears every “Keep”; a lowering to the level before clears the raise', async () => {
      const world = await member();
      await s.choices.setPrivacyLevel(world.member, 2, 'checkin', { madeIn: 'A' });
      expect(await membershipOf(t, world)).toMatchObject({ raisedIn: 'A', levelBeforeRaise: 0 });
      await memberships.keepRaise(world.participantId, world.groupId, 'B', 0);
      expect(await raiseAnswersOf(t, world)).toEqual(['B']);

      // Raised again in the same browser: still "since level 0", asked about again everywhere.
      await s.choices.setPrivacyLevel(world.member, 3, 'checkin', { madeIn: 'A' });
      expect(await membershipOf(t, world)).toMatchObject({ raisedIn: 'A', levelBeforeRaise: 0 });
      expect(await raiseAnswersOf(t, world)).toEqual([]);

      // Raised in another browser: that browser's raise, from the level it found.
      await memberships.keepRaise(world.participantId, world.groupId, 'B', 0);
      await s.choices.setPrivacyLevel(world.member, 4, 'checkin', { madeIn: 'C' });
      expect(await membershipOf(t, world)).toMatchObject({ raisedIn: 'C', levelBeforeRaise: 3 });
      expect(await raiseAnswersOf(t, world)).toEqual([]);

      // Lowered, but still above the level before: still pending, "Keep" answers kept.
      await s.choices.setPrivacyLevel(world.member, 5, 'checkin', { madeIn: 'C' });
      await memberships.keepRaise(world.participantId, world.groupId, 'B', 0);
      await s.choices.setPrivacyLevel(world.member, 4, 'settings');
      expect(await membershipOf(t, world)).toMatchObject({ raisedIn: 'C', levelBeforeRaise: 3 });
      expect(await raiseAnswersOf(t, world)).toEqual(['B']);

      // Lowered to the level before: nothing is pending any more.
      await s.choices.setPrivacyLevel(world.member, 3, 'settings');
      expect(await membershipOf(t, world)).toMatchObject({
        privacyLevel: 3,
        raisedIn: null,
        levelBeforeRaise: null,
      });
      expect(await raiseAnswersOf(t, world)).toEqual([]);
    });

    it('a membership that is gone: false, and nothing written', async () => {
      const world = await member();
      const notMine = await t.group(world.enterpriseId, { name: 'Not a member' });
      const stranger = { ...world.member, groupId: notMine };
      expect(await s.choices.setPrivacyLevel(stranger, 5, 'settings')).toBe(false);
      expect(await s.choices.setConsent(stranger, true, 'settings')).toBeNull();
      expect(await ledgerOf(t, world.participantId)).toEqual([]);
      expect(await privacyEventsOf(t, notMine)).toEqual([]);
      expect(await mailsOf(t, world.participantId)).toEqual([]);
    });
  });

  describe('consent', () => {
    it('given on a check-in’s page: the membership’s and that check-in’s only; the first time counts; no event', async () => {
      const world = await member({ consentRequired: true });
      const here = await newCheckin(t, world);
      const other = await newCheckin(t, world);

      expect(await s.choices.setConsent(world.member, true, 'checkin', here)).toEqual({
        linkVersion: 0,
      });
      const times = () =>
        t.one<{ membership: Date; session: Date }>(
          `SELECT m.consented_at AS membership, s.consented_at AS session
             FROM memberships m JOIN sessions s ON s.participant_id = m.participant_id
            WHERE s.session_id = $1 AND m.group_id = s.group_id`,
          [here],
        );
      const first = await times();
      expect(await membershipOf(t, world)).toMatchObject({ consented: true, privacyLevel: 0 });
      expect((await sessionOf(t, here)).consented).toBe(true);
      expect((await sessionOf(t, other)).consented).toBe(false);

      expect(await s.choices.setConsent(world.member, true, 'checkin', here)).toEqual({
        linkVersion: 0,
      });
      expect(await times()).toEqual(first);
      expect(await ledgerOf(t, world.participantId)).toEqual([
        {
          groupID: world.groupId,
          sessionID: here,
          change: 'consent',
          from: false,
          to: true,
          via: 'checkin',
        },
      ]);
      expect(await privacyEventsOf(t, world.groupId)).toEqual([]);
    });

    it('withdrawn: level 0, links revoked, consent cleared on every check-in not completed, levels capped; ledger and event, no notice', async () => {
      const world = await member({ consentRequired: true, level: 3 });
      const pending = await newCheckin(t, world);
      const done = await completed(world);
      await s.choices.setConsent(world.member, true, 'checkin', pending);
      await s.choices.setConsent(world.member, true, 'checkin', done);

      expect(await s.choices.setConsent(world.member, false, 'settings')).toEqual({
        linkVersion: 1,
      });
      expect(await membershipOf(t, world)).toEqual({
        privacyLevel: 0,
        consented: false,
        linkVersion: 1,
        raisedIn: null,
        levelBeforeRaise: null,
      });
      expect(await sessionOf(t, pending)).toMatchObject({ consented: false, sharedLevel: null });
      expect(await sessionOf(t, done)).toMatchObject({ consented: true, sharedLevel: 0 });
      expect((await ledgerOf(t, world.participantId)).slice(1)).toEqual([
        {
          groupID: world.groupId,
          sessionID: null,
          change: 'consent',
          from: true,
          to: false,
          via: 'settings',
        },
        {
          groupID: world.groupId,
          sessionID: null,
          change: 'privacyLevel',
          from: 3,
          to: 0,
          via: 'settings',
        },
      ]);
      expect(await privacyEventsOf(t, world.groupId)).toEqual([
        {
          groupID: world.groupId,
          userIdentifier: world.externalId,
          privacyLevel: 0,
          previousPrivacyLevel: 3,
        },
      ]);
      expect(await mailsOf(t, world.participantId)).toEqual([]);

      // Withdrawn again (nothing to withdraw): the links stay as they are, nothing recorded.
      expect(await s.choices.setConsent(world.member, false, 'settings')).toEqual({
        linkVersion: 1,
      });
      expect(await ledgerOf(t, world.participantId)).toHaveLength(3);
    });

    it('a consent the enterprise gives afterwards, through a check-in of its own, lets no withdrawn check-in back in', async () => {
      const world = await member({ consentRequired: true });
      const hers = await newCheckin(t, world);
      await s.choices.setConsent(world.member, true, 'checkin', hers);
      await s.choices.setConsent(world.member, false, 'settings');

      const minted = await newCheckin(t, world);
      await s.choices.setConsent(world.member, true, 'checkin', minted);
      expect((await sessionOf(t, hers)).consented).toBe(false);
      expect((await sessionOf(t, minted)).consented).toBe(true);
      expect((await membershipOf(t, world)).consented).toBe(true);
    });
  });

  describe('email preferences and links', () => {
    it('preferences: one ledger row per preference that changed, naming the check-in whose page changed it', async () => {
      const world = await member();
      const here = await newCheckin(t, world);
      expect(
        await s.choices.setEmailPreferences(
          world.member,
          { checkinReminder: false, privacyRequest: true },
          'checkin',
          here,
        ),
      ).toBe(true);
      expect(await preferencesOf(world)).toEqual({ checkinReminder: false, privacyRequest: true });
      await s.choices.setEmailPreferences(
        world.member,
        { checkinReminder: true, privacyRequest: false },
        'settings',
      );
      expect(await ledgerOf(t, world.participantId)).toEqual([
        {
          groupID: world.groupId,
          sessionID: here,
          change: 'checkinReminder',
          from: true,
          to: false,
          via: 'checkin',
        },
        {
          groupID: world.groupId,
          sessionID: null,
          change: 'checkinReminder',
          from: false,
          to: true,
          via: 'settings',
        },
        {
          groupID: world.groupId,
          sessionID: null,
          change: 'privacyRequest',
          from: true,
          to: false,
          via: 'settings',
        },
      ]);
      expect(
        await s.choices.setEmailPreferences(
          { ...world.member, participantId: '00000000-0000-4000-8000-000000000000' },
          { checkinReminder: false, privacyRequest: false },
          'settings',
        ),
      ).toBe(false);
    });

    it('one-click unsubscribe: one preference off, a ledger row naming no group; a revoked link changes nothing', async () => {
      const world = await member();
      const otherGroup = await joinGroup(t, world);
      const link = {
        participantId: world.participantId,
        membership: { groupId: world.groupId, linkVersion: 0 },
      };

      expect(await s.choices.unsubscribe(link, 'privacyRequest')).toBe(true);
      expect(await s.choices.unsubscribe(link, 'privacyRequest')).toBe(true);
      expect(await preferencesOf(world)).toEqual({ checkinReminder: true, privacyRequest: false });
      expect(await ledgerOf(t, world.participantId)).toEqual([
        {
          groupID: null,
          sessionID: null,
          change: 'privacyRequest',
          from: true,
          to: false,
          via: 'unsubscribe',
        },
      ]);

      // "Sign out my links": every membership's links, in every group.
      expect(await s.choices.signOutLinks(world.participantId)).toEqual(
        expect.arrayContaining([
          { groupId: world.groupId, linkVersion: 1 },
          { groupId: otherGroup.groupId, linkVersion: 1 },
        ]),
      );
      expect(await s.choices.unsubscribe(link, 'checkinReminder')).toBe(false);
      expect(await preferencesOf(world)).toEqual({ checkinReminder: true, privacyRequest: false });
      expect(await ledgerOf(t, world.participantId)).toHaveLength(1);
      // The link of the new version works.
      expect(
        await s.choices.unsubscribe(
          {
            participantId: world.participantId,
            membership: { groupId: world.groupId, linkVersion: 1 },
          },
          'checkinReminder',
        ),
      ).toBe(true);
      expect(await preferencesOf(world)).toEqual({ checkinReminder: false, privacyRequest: false });
    });
  });

  describe('privacy requests: the enterprise only asks', () => {
    const requestedOfGroup = async (groupId: number) =>
      (
        await t.one<{ names: string[] }>(
          'SELECT requested_privacy AS names FROM groups WHERE group_id = $1',
          [groupId],
        )
      ).names;
    const requestedOfParticipant = async (world: MemberWorld) =>
      (
        await t.one<{ names: string[] | null }>(
          'SELECT requested_privacy AS names FROM participants WHERE id = $1',
          [world.participantId],
        )
      ).names;
    const errorOf = async (call: Promise<unknown>) => {
      const error: unknown = await call.then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(ApiError);
      return { status: (error as ApiError).status, message: (error as ApiError).message };
    };

    it('a group’s request: deduplicated, in level order; [] withdraws it; never another enterprise’s group; the members’ levels stay', async () => {
      const world = await member();
      const globex = await member({ enterpriseName: 'Globex' });

      await s.privacy.requestForGroup(world.enterpriseId, world.groupId, [
        'transcript',
        'mhci',
        'groupPerecntiles',
        'mhci',
      ]);
      expect(await requestedOfGroup(world.groupId)).toEqual([
        'mhci',
        'groupPerecntiles',
        'transcript',
      ]);
      expect((await membershipOf(t, world)).privacyLevel).toBe(0);
      await s.privacy.requestForGroup(world.enterpriseId, world.groupId, []);
      expect(await requestedOfGroup(world.groupId)).toEqual([]);

      expect(
        await errorOf(s.privacy.requestForGroup(world.enterpriseId, globex.groupId, ['features'])),
      ).toEqual({ status: 400, message: GroupErrors.NotAssociated });
      expect(await requestedOfGroup(globex.groupId)).toEqual([]);
      expect(
        await errorOf(s.privacy.requestForGroup(world.enterpriseId, 999_999_999, ['features'])),
      ).toEqual({ status: 400, message: GroupErrors.NotFound });
    });

    it('a participant’s request: stored on them alone; unknown, malformed and another enterprise’s participants are not found', async () => {
      const world = await member();
      const globex = await member({ enterpriseName: 'Globex' });

      await s.privacy.requestForParticipant(world.enterpriseId, world.externalId, [
        'userPercentiles',
        'mhci',
      ]);
      expect(await requestedOfParticipant(world)).toEqual(['mhci', 'userPercentiles']);
      expect((await membershipOf(t, world)).privacyLevel).toBe(0);

      for (const externalId of [`ok_${'2'.repeat(48)}`, 'garbage', globex.externalId]) {
        expect(
          await errorOf(s.privacy.requestForParticipant(world.enterpriseId, externalId, [])),
        ).toEqual({ status: 400, message: ParticipantErrors.NotFound });
      }
      expect(await requestedOfParticipant(globex)).toBeNull();
    });
  });
});
