/**
 * Groups (GroupsService over the real GroupsRepository) against real PostgreSQL:
 * - a new group has the spec's defaults (no privacy request, consent not required, 0 credits),
 *   a `gk_` key and an invite code of its own; names are not unique, keys and codes are;
 * - every read and write is scoped by the calling enterprise: another enterprise's group is
 *   `Group not found` and stays as it was (list, rename, consent, delete, participants, privacy
 *   request);
 * - an update changes only what is sent; a deletion takes the group's memberships, sessions and
 *   webhook endpoints with it, not its participants;
 * - the participant list is the group's members of the enterprise, in the order they joined;
 * - credits go down one per completed check-in and may go below zero.
 */
import { ApiError } from '../../src/common/errors/api-error';
import { GroupErrors } from '../../src/groups/groups.errors';
import { GroupsRepository } from '../../src/groups/groups.repository';
import { GroupsService } from '../../src/groups/groups.service';
import { match } from '../support/matchers';
import { TestDatabase } from './support';

/** What a refusal answers the client: its status and message. */
async function refusalOf(promise: Promise<unknown>): Promise<{ status: number; error: string }> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return { status: (error as ApiError).status, error: (error as ApiError).message };
  }
  throw new Error('expected a refusal, got an answer');
}

const NOT_FOUND = { status: 400, error: GroupErrors.NotFound };

describe('GroupsService (PostgreSQL)', () => {
  let t: TestDatabase;
  let repository: GroupsRepository;
  let groups: GroupsService;

  beforeAll(async () => {
    t = await TestDatabase.create();
    repository = new GroupsRepository(t.db);
    groups = new GroupsService(repository);
  });
  afterAll(() => t.close());

  const storedGroup = (groupId: number) =>
    t.one<{ enterpriseId: string; name: string; consentRequired: boolean; credits: number }>(
      `SELECT enterprise_id AS "enterpriseId", name, consent_required AS "consentRequired", credits
         FROM groups WHERE group_id = $1`,
      [groupId],
    );

  describe('create and list', () => {
    it("creates a group with the spec's defaults and a key and invite code of its own", async () => {
      const acme = await t.enterprise('Acme');
      const created = await groups.create(acme, 'Night shift');
      expect(created).toEqual({
        groupID: match.any(Number),
        groupName: 'Night shift',
        requestedPrivacyLevel: [],
        inviteCode: match.stringMatching(/^[0-9a-z]{13}$/),
        key: match.stringMatching(/^gk_[0-9A-Za-z]{32}$/),
        consentRequired: 'false',
        credits: 0,
      });
      expect(await storedGroup(created.groupID)).toEqual({
        enterpriseId: acme,
        name: 'Night shift',
        consentRequired: false,
        credits: 0,
      });
    });

    it('allows two groups of one name; each has its own id, key and invite code', async () => {
      const acme = await t.enterprise('Twins');
      const first = await groups.create(acme, 'Team');
      const second = await groups.create(acme, 'Team');
      expect(second.groupID).not.toBe(first.groupID);
      expect(second.key).not.toBe(first.key);
      expect(second.inviteCode).not.toBe(first.inviteCode);
      expect((await groups.list(acme)).map((group) => group.groupName)).toEqual(['Team', 'Team']);
    });

    it('refuses a key or invite code that another group already has (the database says so)', async () => {
      const acme = await t.enterprise('Clash');
      const globex = await t.enterprise('Clash Globex');
      const taken = await groups.create(acme, 'Original');
      for (const values of [
        { name: 'Copy', key: taken.key, inviteCode: 'aaaaaaaaaaaaa' },
        { name: 'Copy', key: `gk_${'Z'.repeat(32)}`, inviteCode: taken.inviteCode },
      ]) {
        await expect(repository.insertForEnterprise(globex, values)).rejects.toMatchObject({
          code: '23505',
        });
      }
      expect(await groups.list(globex)).toEqual([]);
    });

    it("lists the caller's groups only, oldest first", async () => {
      const acme = await t.enterprise('Lister');
      const globex = await t.enterprise('Lister Globex');
      const a = await groups.create(acme, 'A');
      await groups.create(globex, 'Theirs');
      const b = await groups.create(acme, 'B');
      expect(await groups.list(acme)).toEqual([a, b]);
      expect(await groups.list(await t.enterprise('Empty'))).toEqual([]);
    });
  });

  describe('update', () => {
    it('changes only what is sent and answers the group as stored', async () => {
      const acme = await t.enterprise('Updater');
      const group = await groups.create(acme, 'Before');

      const renamed = await groups.update(acme, group.groupID, { groupName: 'After' });
      expect(renamed).toEqual({ ...group, groupName: 'After' });

      const consent = await groups.update(acme, group.groupID, { consentRequired: 'true' });
      expect(consent).toEqual({ ...group, groupName: 'After', consentRequired: 'true' });

      const nothing = await groups.update(acme, group.groupID, {});
      expect(nothing).toEqual(consent);

      const back = await groups.update(acme, group.groupID, { consentRequired: 'false' });
      expect(back).toEqual({ ...group, groupName: 'After', consentRequired: 'false' });
      expect(await groups.list(acme)).toEqual([back]);
    });

    it('moves updated_at forward', async () => {
      const acme = await t.enterprise('Stamps');
      const group = await groups.create(acme, 'Stamped');
      await t.rows("UPDATE groups SET updated_at = now() - interval '1 day' WHERE group_id = $1", [
        group.groupID,
      ]);
      await groups.update(acme, group.groupID, {});
      const { fresh } = await t.one<{ fresh: boolean }>(
        `SELECT updated_at > now() - interval '1 minute' AS fresh FROM groups WHERE group_id = $1`,
        [group.groupID],
      );
      expect(fresh).toBe(true);
    });
  });

  describe('tenancy', () => {
    it("another enterprise can neither rename, require consent for, delete nor list a group's members", async () => {
      const acme = await t.enterprise('Owner');
      const globex = await t.enterprise('Intruder');
      const group = await groups.create(acme, 'Private');
      const member = await t.participant(acme);
      await t.membership(member, group.groupID);

      expect(
        await refusalOf(
          groups.update(globex, group.groupID, { groupName: 'Mine', consentRequired: 'true' }),
        ),
      ).toEqual(NOT_FOUND);
      expect(await refusalOf(groups.remove(globex, group.groupID))).toEqual(NOT_FOUND);
      expect(await refusalOf(groups.listParticipants(globex, group.groupID))).toEqual(NOT_FOUND);
      expect(await groups.list(globex)).toEqual([]);
      expect(await repository.findForEnterprise(globex, group.groupID)).toBeNull();
      expect(await repository.setRequestedPrivacy(globex, group.groupID, ['mhci'])).toBe(false);

      expect(await groups.list(acme)).toEqual([group]);
      expect(await groups.listParticipants(acme, group.groupID)).toHaveLength(1);
    });

    it('answers a group that exists nowhere as Group not found', async () => {
      const acme = await t.enterprise('Nowhere');
      const missing = 2 ** 40;
      expect(await refusalOf(groups.update(acme, missing, { groupName: 'x' }))).toEqual(NOT_FOUND);
      expect(await refusalOf(groups.remove(acme, missing))).toEqual(NOT_FOUND);
      expect(await refusalOf(groups.listParticipants(acme, missing))).toEqual(NOT_FOUND);
      expect(await repository.existsAnywhere(missing)).toBe(false);
    });

    it("existsAnywhere sees every enterprise's groups", async () => {
      const acme = await t.enterprise('Anywhere');
      const group = await groups.create(acme, 'Somewhere');
      expect(await repository.existsAnywhere(group.groupID)).toBe(true);
      expect(await repository.existsForEnterprise(await t.enterprise('Else'), group.groupID)).toBe(
        false,
      );
    });
  });

  describe('delete', () => {
    it('takes memberships, sessions and webhook endpoints with it; participants stay', async () => {
      const acme = await t.enterprise('Deleter');
      const doomed = await groups.create(acme, 'Doomed');
      const kept = await groups.create(acme, 'Kept');
      const participant = await t.participant(acme);
      await t.membership(participant, doomed.groupID);
      await t.membership(participant, kept.groupID);
      await t.session(acme, participant, doomed.groupID, { completedAt: '2026-01-05T10:00:00Z' });
      const keptSession = await t.session(acme, participant, kept.groupID);
      await t.endpoint(acme, doomed.groupID);

      await groups.remove(acme, doomed.groupID);

      const left = await t.one(
        `SELECT (SELECT count(*)::int FROM groups WHERE group_id = $1) AS groups,
                (SELECT count(*)::int FROM memberships WHERE group_id = $1) AS memberships,
                (SELECT count(*)::int FROM sessions WHERE group_id = $1) AS sessions,
                (SELECT count(*)::int FROM webhook_endpoints WHERE group_id = $1) AS endpoints,
                (SELECT count(*)::int FROM participants WHERE id = $2) AS participants`,
        [doomed.groupID, participant],
      );
      expect(left).toEqual({
        groups: 0,
        memberships: 0,
        sessions: 0,
        endpoints: 0,
        participants: 1,
      });
      expect(
        await t.rows('SELECT session_id FROM sessions WHERE participant_id = $1', [participant]),
      ).toEqual([{ session_id: keptSession }]);
      expect(await refusalOf(groups.remove(acme, doomed.groupID))).toEqual(NOT_FOUND);
      expect(await groups.list(acme)).toEqual([kept]);
    });
  });

  describe('participants', () => {
    it('lists the members in the order they joined (ties by external id), none of other groups', async () => {
      const acme = await t.enterprise('Joiners');
      const group = await groups.create(acme, 'Joined');
      const other = await groups.create(acme, 'Other');
      expect(await groups.listParticipants(acme, group.groupID)).toEqual([]);

      const [late, early, tieB, tieA, outsider] = await Promise.all(
        Array.from({ length: 5 }, () => t.participant(acme)),
      );
      const joined = async (participant: string, groupId: number, at: string) =>
        t.rows(
          'INSERT INTO memberships (participant_id, group_id, join_date) VALUES ($1, $2, $3)',
          [participant, groupId, at],
        );
      await joined(late, group.groupID, '2026-02-01T00:00:00Z');
      await joined(early, group.groupID, '2026-01-01T00:00:00Z');
      await joined(tieB, group.groupID, '2026-01-15T00:00:00Z');
      await joined(tieA, group.groupID, '2026-01-15T00:00:00Z');
      await joined(outsider, other.groupID, '2025-12-01T00:00:00Z');

      // External IDs in the reverse of the joining order, so that neither order passes for the other.
      const externalIdOf = new Map([
        [late, `ok_${'0'.repeat(48)}`],
        [tieA, `ok_${'1'.repeat(48)}`],
        [tieB, `ok_${'2'.repeat(48)}`],
        [early, `ok_${'f'.repeat(48)}`],
      ]);
      for (const [participant, externalId] of externalIdOf) {
        await t.rows('UPDATE participants SET external_id = $2 WHERE id = $1', [
          participant,
          externalId,
        ]);
      }
      expect(await groups.listParticipants(acme, group.groupID)).toEqual([
        `ok_${'f'.repeat(48)}`,
        `ok_${'1'.repeat(48)}`,
        `ok_${'2'.repeat(48)}`,
        `ok_${'0'.repeat(48)}`,
      ]);
    });

    it("never lists another enterprise's participant, even one wrongly made a member", async () => {
      const acme = await t.enterprise('Members');
      const globex = await t.enterprise('Members Globex');
      const group = await groups.create(acme, 'Mixed');
      const own = await t.participant(acme);
      const foreign = await t.participant(globex);
      await t.membership(own, group.groupID);
      await t.membership(foreign, group.groupID);

      const [{ externalId }] = await t.rows<{ externalId: string }>(
        'SELECT external_id AS "externalId" FROM participants WHERE id = $1',
        [own],
      );
      expect(await groups.listParticipants(acme, group.groupID)).toEqual([externalId]);
    });
  });

  describe('privacy request and credits', () => {
    it("stores the group's privacy request for its own enterprise", async () => {
      const acme = await t.enterprise('Requester');
      const group = await groups.create(acme, 'Asked');
      expect(
        await repository.setRequestedPrivacy(acme, group.groupID, ['mhci', 'transcript']),
      ).toBe(true);
      expect((await groups.list(acme))[0].requestedPrivacyLevel).toEqual(['mhci', 'transcript']);
    });

    it('deducts one credit per call, below zero too, from that group only', async () => {
      const acme = await t.enterprise('Spender');
      const group = await groups.create(acme, 'Spending');
      await groups.create(acme, 'Saving');
      await repository.deductCredit(group.groupID);
      await repository.deductCredit(group.groupID);
      expect((await groups.list(acme)).map((g) => [g.groupName, g.credits])).toEqual([
        ['Spending', -2],
        ['Saving', 0],
      ]);
    });
  });
});
