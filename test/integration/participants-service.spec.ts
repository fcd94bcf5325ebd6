/**
 * Participants, memberships and the consent ledger (ParticipantsService over the real
 * ParticipantsRepository, MembershipsRepository and ConsentLedgerRepository) against real
 * PostgreSQL:
 * - the enterprise API reads only the caller's participants: another enterprise's, or a malformed
 *   external ID, is 400 `Participant not found`; memberships and sessions come oldest first;
 * - a participant joins a group once; a level is 0–5;
 * - consent: the first consent's time counts; withdrawing sets the level to 0 and, when consent
 *   had been given, revokes every earlier link of the membership (link version + 1);
 * - a raise of the level remembers the browser that made it and the level before (across that
 *   browser's successive raises); a new raise clears the "Keep" answers, a lowering to or below
 *   the level before the raise leaves nothing pending, a lowering above it keeps the raise;
 * - the ledger appends only real changes (from ≠ to), in order, never rewrites a row, keeps a
 *   number a number and a boolean a boolean, and is read per participant within the enterprise.
 */
import { randomBytes } from 'node:crypto';
import { ApiError } from '../../src/common/errors/api-error';
import {
  ConsentEntry,
  ConsentLedgerRepository,
} from '../../src/participants/consent-ledger.repository';
import { MembershipsRepository } from '../../src/participants/memberships.repository';
import { ParticipantErrors } from '../../src/participants/participants.errors';
import { ParticipantsRepository } from '../../src/participants/participants.repository';
import { ParticipantsService } from '../../src/participants/participants.service';
import { TestDatabase } from './support';

/** A browser's identity as the pages store it: the SHA-256 of its token, hex. */
const browser = (): string => randomBytes(32).toString('hex');

const NOT_FOUND = { status: 400, error: ParticipantErrors.NotFound };

async function refusalOf(promise: Promise<unknown>): Promise<{ status: number; error: string }> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return { status: (error as ApiError).status, error: (error as ApiError).message };
  }
  throw new Error('expected a refusal, got an answer');
}

interface MembershipState {
  privacyLevel: number;
  raisedIn: string | null;
  levelBeforeRaise: number | null;
  consented: boolean;
  linkVersion: number;
}

describe('participants, memberships and the consent ledger (PostgreSQL)', () => {
  let t: TestDatabase;
  let memberships: MembershipsRepository;
  let ledger: ConsentLedgerRepository;
  let participants: ParticipantsService;

  beforeAll(async () => {
    t = await TestDatabase.create();
    memberships = new MembershipsRepository(t.db);
    ledger = new ConsentLedgerRepository(t.db);
    participants = new ParticipantsService(new ParticipantsRepository(t.db), memberships, ledger);
  });
  afterAll(() => t.close());

  const externalIdOf = async (participantId: string): Promise<string> =>
    (
      await t.one<{ externalId: string }>(
        'SELECT external_id AS "externalId" FROM participants WHERE id = $1',
        [participantId],
      )
    ).externalId;

  const state = (participantId: string, groupId: number) =>
    t.one<MembershipState>(
      `SELECT privacy_level AS "privacyLevel", raised_in AS "raisedIn",
              level_before_raise AS "levelBeforeRaise", consented_at IS NOT NULL AS consented,
              link_version AS "linkVersion"
         FROM memberships WHERE participant_id = $1 AND group_id = $2`,
      [participantId, groupId],
    );

  const answers = async (participantId: string, groupId: number): Promise<string[]> =>
    (
      await t.rows<{ browserHash: string }>(
        `SELECT browser_hash AS "browserHash" FROM membership_raise_answers
          WHERE participant_id = $1 AND group_id = $2 ORDER BY browser_hash`,
        [participantId, groupId],
      )
    ).map((row) => row.browserHash);

  /** An enterprise, a group of it and a participant who is a member. */
  const member = async () => {
    const enterpriseId = await t.enterprise();
    const groupId = await t.group(enterpriseId);
    const participantId = await t.participant(enterpriseId);
    await memberships.insert(participantId, groupId);
    return { enterpriseId, groupId, participantId };
  };

  describe('the enterprise API (ParticipantsService)', () => {
    it('answers a participant with their memberships, oldest first, dates in ISO 8601 UTC', async () => {
      const enterpriseId = await t.enterprise('Reader');
      const [first, second] = [await t.group(enterpriseId), await t.group(enterpriseId)];
      const participantId = await t.participant(enterpriseId);
      await t.rows(
        `INSERT INTO memberships (participant_id, group_id, join_date, privacy_level)
         VALUES ($1, $2, '2026-02-03T04:05:06.789Z', 4), ($1, $3, '2026-01-02T03:04:05.678+02:00', 1)`,
        [participantId, first, second],
      );
      const externalId = await externalIdOf(participantId);

      expect(await participants.get(enterpriseId, externalId)).toEqual({
        externalID: externalId,
        userGroups: [
          {
            externalID: externalId,
            groupID: second,
            joinDate: '2026-01-02T01:04:05.678Z',
            privacyLevel: 1,
          },
          {
            externalID: externalId,
            groupID: first,
            joinDate: '2026-02-03T04:05:06.789Z',
            privacyLevel: 4,
          },
        ],
      });
    });

    it('answers a participant without groups with an empty list', async () => {
      const enterpriseId = await t.enterprise('Loner');
      const externalId = await externalIdOf(await t.participant(enterpriseId));
      expect(await participants.get(enterpriseId, externalId)).toEqual({
        externalID: externalId,
        userGroups: [],
      });
      expect(await participants.listSessions(enterpriseId, externalId)).toEqual([]);
      expect(await participants.listConsents(enterpriseId, externalId)).toEqual([]);
    });

    it("answers another enterprise's participant as Participant not found, for every read", async () => {
      const { enterpriseId, groupId, participantId } = await member();
      await t.session(enterpriseId, participantId, groupId);
      const externalId = await externalIdOf(participantId);
      const globex = await t.enterprise('Globex');

      expect(await refusalOf(participants.get(globex, externalId))).toEqual(NOT_FOUND);
      expect(await refusalOf(participants.listSessions(globex, externalId))).toEqual(NOT_FOUND);
      expect(await refusalOf(participants.listConsents(globex, externalId))).toEqual(NOT_FOUND);
      expect((await participants.listSessions(enterpriseId, externalId)).length).toBe(1);
    });

    it.each([
      ['an unknown external ID', `ok_${'0'.repeat(48)}`],
      ['an upper-case one', `ok_${'A'.repeat(48)}`],
      ['one too short', `ok_${'0'.repeat(47)}`],
      ['an SQL fragment', "ok_' OR '1'='1"],
      ['an empty one', ''],
    ])('answers %s as Participant not found', async (_, externalId) => {
      const { enterpriseId } = await member();
      expect(await refusalOf(participants.get(enterpriseId, externalId))).toEqual(NOT_FOUND);
    });

    it("lists the participant's sessions oldest first, in the enterprise only", async () => {
      const { enterpriseId, groupId, participantId } = await member();
      // Session ids in the reverse of the creation order, so that neither order passes for the other.
      const [older, newer] = [`ses_${'z'.repeat(24)}`, `ses_${'0'.repeat(24)}`];
      for (const [sessionId, age] of [
        [older, '2 hours'],
        [newer, '1 hour'],
      ]) {
        const created = await t.session(enterpriseId, participantId, groupId);
        await t.rows(
          `UPDATE sessions SET session_id = $2, created_at = now() - $3::interval
            WHERE session_id = $1`,
          [created, sessionId, age],
        );
      }
      expect(
        await participants.listSessions(enterpriseId, await externalIdOf(participantId)),
      ).toEqual([older, newer]);
    });

    it('answers the consent ledger oldest first, times in ISO 8601 UTC', async () => {
      const { enterpriseId, groupId, participantId } = await member();
      const base = { enterpriseId, participantId };
      await ledger.append([
        {
          ...base,
          groupId,
          sessionId: null,
          change: 'consent',
          from: false,
          to: true,
          via: 'settings',
        },
      ]);
      await ledger.append([
        {
          ...base,
          groupId: null,
          sessionId: null,
          change: 'checkinReminder',
          from: true,
          to: false,
          via: 'unsubscribe',
        },
      ]);
      await t.rows(
        `UPDATE consent_ledger SET at = '2026-03-04T05:06:07.890Z' WHERE participant_id = $1`,
        [participantId],
      );

      expect(
        await participants.listConsents(enterpriseId, await externalIdOf(participantId)),
      ).toEqual([
        {
          groupID: groupId,
          sessionID: null,
          change: 'consent',
          from: false,
          to: true,
          at: '2026-03-04T05:06:07.890Z',
          via: 'settings',
        },
        {
          groupID: null,
          sessionID: null,
          change: 'checkinReminder',
          from: true,
          to: false,
          at: '2026-03-04T05:06:07.890Z',
          via: 'unsubscribe',
        },
      ]);
    });
  });

  describe('joining', () => {
    it('joins a group once, at level 0, without consent', async () => {
      const enterpriseId = await t.enterprise();
      const groupId = await t.group(enterpriseId);
      const participantId = await t.participant(enterpriseId);
      expect(await memberships.insert(participantId, groupId)).toBe(true);
      expect(await memberships.insert(participantId, groupId)).toBe(false);
      expect(await state(participantId, groupId)).toEqual({
        privacyLevel: 0,
        raisedIn: null,
        levelBeforeRaise: null,
        consented: false,
        linkVersion: 0,
      });
      expect(await memberships.listForEnterprise(enterpriseId, participantId)).toHaveLength(1);
    });

    it("lists a participant's memberships for their own enterprise only", async () => {
      const { enterpriseId, participantId } = await member();
      const globex = await t.enterprise('Globex');
      expect(await memberships.listForEnterprise(globex, participantId)).toEqual([]);
      expect(await memberships.listForEnterprise(enterpriseId, participantId)).toHaveLength(1);
    });

    it('keeps a level within 0–5', async () => {
      const { groupId, participantId } = await member();
      for (const level of [6, -1]) {
        await expect(
          memberships.setPrivacyLevel(participantId, groupId, level, browser()),
        ).rejects.toMatchObject({ code: '23514', constraint: 'memberships_privacy_level_range' });
      }
      expect(await memberships.setPrivacyLevel(participantId, groupId, 5, browser())).toBe(0);
      expect((await state(participantId, groupId)).privacyLevel).toBe(5);
    });

    it('answers null for a membership that is gone', async () => {
      const enterpriseId = await t.enterprise();
      const groupId = await t.group(enterpriseId);
      const stranger = await t.participant(enterpriseId);
      expect(await memberships.setPrivacyLevel(stranger, groupId, 3, browser())).toBeNull();
      expect(await memberships.setConsent(stranger, groupId, true)).toBeNull();
      expect(await memberships.bumpLinkVersions(stranger)).toEqual([]);
    });
  });

  describe('consent', () => {
    it('the first consent counts; giving it again changes nothing', async () => {
      const { groupId, participantId } = await member();
      expect(await memberships.setConsent(participantId, groupId, true)).toEqual({
        consented: false,
        privacyLevel: 0,
        linkVersion: 0,
      });
      await t.rows(
        `UPDATE memberships SET consented_at = '2026-01-01T00:00:00Z' WHERE participant_id = $1`,
        [participantId],
      );
      expect(await memberships.setConsent(participantId, groupId, true)).toEqual({
        consented: true,
        privacyLevel: 0,
        linkVersion: 0,
      });
      const { consentedAt } = await t.one<{ consentedAt: Date }>(
        'SELECT consented_at AS "consentedAt" FROM memberships WHERE participant_id = $1',
        [participantId],
      );
      expect(consentedAt.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    });

    it('withdrawing sets the level to 0 and revokes earlier links; only once', async () => {
      const { groupId, participantId } = await member();
      await memberships.setConsent(participantId, groupId, true);
      await memberships.setPrivacyLevel(participantId, groupId, 3, browser());

      expect(await memberships.setConsent(participantId, groupId, false)).toEqual({
        consented: true,
        privacyLevel: 3,
        linkVersion: 1,
      });
      expect(await state(participantId, groupId)).toMatchObject({
        privacyLevel: 0,
        consented: false,
        linkVersion: 1,
      });

      // Withdrawing what is not given revokes nothing more.
      expect(await memberships.setConsent(participantId, groupId, false)).toEqual({
        consented: false,
        privacyLevel: 0,
        linkVersion: 1,
      });
    });

    it("changes only that membership's consent", async () => {
      const { enterpriseId, groupId, participantId } = await member();
      const otherGroup = await t.group(enterpriseId);
      await memberships.insert(participantId, otherGroup);
      await memberships.setConsent(participantId, otherGroup, true);
      await memberships.setPrivacyLevel(participantId, otherGroup, 2, browser());
      await memberships.setConsent(participantId, groupId, true);
      await memberships.setConsent(participantId, groupId, false);
      expect(await state(participantId, otherGroup)).toMatchObject({
        privacyLevel: 2,
        consented: true,
        linkVersion: 0,
      });
    });

    it('signing out bumps every link version of the participant, and no one else’s', async () => {
      const { enterpriseId, groupId, participantId } = await member();
      const otherGroup = await t.group(enterpriseId);
      await memberships.insert(participantId, otherGroup);
      const neighbour = await t.participant(enterpriseId);
      await memberships.insert(neighbour, groupId);
      await memberships.setConsent(participantId, groupId, true);
      await memberships.setConsent(participantId, groupId, false);

      const bumped = await memberships.bumpLinkVersions(participantId);
      expect(bumped.sort((a, b) => a.groupId - b.groupId)).toEqual(
        [
          { groupId, linkVersion: 2 },
          { groupId: otherGroup, linkVersion: 1 },
        ].sort((a, b) => a.groupId - b.groupId),
      );
      expect((await state(neighbour, groupId)).linkVersion).toBe(0);
    });
  });

  describe('raises of the level and their answers', () => {
    it('a raise records the browser and the level before; its later raises keep that level', async () => {
      const { groupId, participantId } = await member();
      const laptop = browser();
      expect(await memberships.setPrivacyLevel(participantId, groupId, 2, laptop)).toBe(0);
      expect(await state(participantId, groupId)).toMatchObject({
        privacyLevel: 2,
        raisedIn: laptop,
        levelBeforeRaise: 0,
      });
      expect(await memberships.setPrivacyLevel(participantId, groupId, 4, laptop)).toBe(2);
      expect(await state(participantId, groupId)).toMatchObject({
        privacyLevel: 4,
        raisedIn: laptop,
        levelBeforeRaise: 0,
      });
    });

    it("another browser's raise starts from the level it found", async () => {
      const { groupId, participantId } = await member();
      const [laptop, phone] = [browser(), browser()];
      await memberships.setPrivacyLevel(participantId, groupId, 2, laptop);
      await memberships.setPrivacyLevel(participantId, groupId, 3, phone);
      expect(await state(participantId, groupId)).toMatchObject({
        privacyLevel: 3,
        raisedIn: phone,
        levelBeforeRaise: 2,
      });
    });

    it('a new raise clears the "Keep" answers; answering twice is one answer', async () => {
      const { groupId, participantId } = await member();
      const [laptop, phone, tablet] = [browser(), browser(), browser()];
      await memberships.setPrivacyLevel(participantId, groupId, 2, laptop);
      await memberships.keepRaise(participantId, groupId, phone, 0);
      await memberships.keepRaise(participantId, groupId, phone, 0);
      await memberships.keepRaise(participantId, groupId, tablet, 0);
      expect(await answers(participantId, groupId)).toEqual([phone, tablet].sort());

      await memberships.setPrivacyLevel(participantId, groupId, 3, laptop);
      expect(await answers(participantId, groupId)).toEqual([]);
    });

    it('a lowering above the level before the raise keeps the raise and its answers', async () => {
      const { groupId, participantId } = await member();
      const [laptop, phone] = [browser(), browser()];
      await memberships.setPrivacyLevel(participantId, groupId, 1, laptop);
      await memberships.setPrivacyLevel(participantId, groupId, 4, laptop);
      await memberships.keepRaise(participantId, groupId, phone, 0);

      expect(await memberships.setPrivacyLevel(participantId, groupId, 2, phone)).toBe(4);
      expect(await state(participantId, groupId)).toMatchObject({
        privacyLevel: 2,
        raisedIn: laptop,
        levelBeforeRaise: 0,
      });
      expect(await answers(participantId, groupId)).toEqual([phone]);
    });

    it.each([0, 1])(
      'a lowering to %i (at or below the level before the raise) leaves nothing pending',
      async (lowered) => {
        const { groupId, participantId } = await member();
        const [laptop, phone] = [browser(), browser()];
        await memberships.setPrivacyLevel(participantId, groupId, 1, phone);
        await memberships.setPrivacyLevel(participantId, groupId, 3, laptop);
        await memberships.keepRaise(participantId, groupId, phone, 0);

        expect(await memberships.setPrivacyLevel(participantId, groupId, lowered, phone)).toBe(3);
        expect(await state(participantId, groupId)).toMatchObject({
          privacyLevel: lowered,
          raisedIn: null,
          levelBeforeRaise: null,
        });
        expect(await answers(participantId, groupId)).toEqual([]);
      },
    );

    it("a replaced browser identity carries its raises and answers, and no one else's", async () => {
      const first = await member();
      const second = await member();
      const [before, after, other] = [browser(), browser(), browser()];
      await memberships.setPrivacyLevel(first.participantId, first.groupId, 3, before);
      await memberships.setPrivacyLevel(second.participantId, second.groupId, 2, other);
      await memberships.keepRaise(second.participantId, second.groupId, before, 0);

      await t.db.transaction((sql) => memberships.moveBrowser(before, after, sql));

      expect((await state(first.participantId, first.groupId)).raisedIn).toBe(after);
      expect((await state(second.participantId, second.groupId)).raisedIn).toBe(other);
      expect(await answers(second.participantId, second.groupId)).toEqual([after]);
    });
  });

  describe('the consent ledger', () => {
    const entry = (
      world: { enterpriseId: string; participantId: string; groupId: number },
      change: Partial<ConsentEntry>,
    ): ConsentEntry => ({
      enterpriseId: world.enterpriseId,
      participantId: world.participantId,
      groupId: world.groupId,
      sessionId: null,
      change: 'privacyLevel',
      from: 0,
      to: 3,
      via: 'checkin',
      ...change,
    });

    it('appends only changes, in the order given, numbers and booleans as they are', async () => {
      const world = await member();
      const sessionId = await t.session(world.enterpriseId, world.participantId, world.groupId);
      await ledger.append([
        entry(world, { change: 'consent', from: false, to: true, sessionId }),
        entry(world, { change: 'privacyLevel', from: 2, to: 2 }),
        entry(world, { change: 'privacyLevel', from: 0, to: 3, sessionId }),
        entry(world, { change: 'privacyRequest', from: true, to: true, via: 'settings' }),
        entry(world, { change: 'checkinReminder', from: true, to: false, via: 'settings' }),
      ]);
      const records = await ledger.list(world.enterpriseId, world.participantId);
      expect(records.map(({ at: _at, ...record }) => record)).toEqual([
        {
          groupID: world.groupId,
          sessionID: sessionId,
          change: 'consent',
          from: false,
          to: true,
          via: 'checkin',
        },
        {
          groupID: world.groupId,
          sessionID: sessionId,
          change: 'privacyLevel',
          from: 0,
          to: 3,
          via: 'checkin',
        },
        {
          groupID: world.groupId,
          sessionID: null,
          change: 'checkinReminder',
          from: true,
          to: false,
          via: 'settings',
        },
      ]);
      expect(records.every((record) => record.at instanceof Date)).toBe(true);
    });

    it('writes nothing for a batch without a change', async () => {
      const world = await member();
      const before = await t.one('SELECT count(*)::int AS n FROM consent_ledger');
      await ledger.append([]);
      await ledger.append([
        entry(world, { from: 4, to: 4 }),
        entry(world, { from: false, to: false }),
      ]);
      expect(await t.one('SELECT count(*)::int AS n FROM consent_ledger')).toEqual(before);
    });

    it('a later change is a new row: earlier rows are never rewritten', async () => {
      const world = await member();
      await ledger.append([entry(world, { from: 0, to: 3 })]);
      const [first] = await t.rows('SELECT * FROM consent_ledger WHERE participant_id = $1', [
        world.participantId,
      ]);
      await ledger.append([entry(world, { from: 3, to: 1, via: 'settings' })]);
      const rows = await t.rows(
        'SELECT * FROM consent_ledger WHERE participant_id = $1 ORDER BY id',
        [world.participantId],
      );
      expect(rows).toHaveLength(2);
      expect(rows[0]).toEqual(first);
    });

    it('is read per participant, within the enterprise', async () => {
      const world = await member();
      const neighbour = await t.participant(world.enterpriseId);
      await memberships.insert(neighbour, world.groupId);
      await ledger.append([
        entry(world, { from: 0, to: 1 }),
        entry({ ...world, participantId: neighbour }, { from: 0, to: 5 }),
      ]);
      const globex = await t.enterprise('Globex');
      expect(
        (await ledger.list(world.enterpriseId, world.participantId)).map((record) => record.to),
      ).toEqual([1]);
      expect(await ledger.list(globex, world.participantId)).toEqual([]);
    });

    it("an erasure's row names nobody and is in no participant's history", async () => {
      const world = await member();
      await ledger.append([entry(world, { from: 0, to: 2 })]);
      await ledger.appendErasure(world.enterpriseId);
      expect(
        await t.rows(
          `SELECT participant_id AS "participantId", group_id AS "groupId", session_id AS "sessionId",
                  change, from_value AS "from", to_value AS "to", via
             FROM consent_ledger WHERE enterprise_id = $1 AND change = 'erasure'`,
          [world.enterpriseId],
        ),
      ).toEqual([
        {
          participantId: null,
          groupId: null,
          sessionId: null,
          change: 'erasure',
          from: null,
          to: null,
          via: 'erasure',
        },
      ]);
      expect(
        (await ledger.list(world.enterpriseId, world.participantId)).map((record) => record.change),
      ).toEqual(['privacyLevel']);
    });
  });
});
