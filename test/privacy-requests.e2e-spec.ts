import { GroupErrors } from '../src/groups/groups.errors';
import { ParticipantErrors } from '../src/participants/participants.errors';
import { PrivacyErrors } from '../src/privacy/privacy.errors';
import {
  SessionCreated,
  startTestApp,
  TestApp,
  TestEnterprise,
  TestGroup,
} from './support/test-app';

describe('Privacy requests', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let globex: TestEnterprise;
  let group: TestGroup;
  let participant: SessionCreated;

  beforeAll(async () => {
    t = await startTestApp();
    acme = await t.newEnterprise('Acme');
    globex = await t.newEnterprise('Globex');
    group = await t.newGroup(acme, 'Night shift');
    participant = (await t.createSession(acme, group, 'p1@example.com')).body as SessionCreated;
  });
  afterAll(() => t.close());

  const post = (path: string, body: unknown, apiKey = acme.apiKey) =>
    t.request('POST', path, { apiKey, body });
  const groupPath = (id: number | string = group.groupID) => `/configure/groups/${id}/privacy`;
  const participantPath = (id = participant.userIdentifier) =>
    `/configure/participants/${id}/privacy`;

  it('uses the spec strings byte for byte', () => {
    expect(PrivacyErrors.RequestedPrivacyLevelMissing).toBe(
      'You are missing the body parameter requestedPrivacyLevel',
    );
    expect(PrivacyErrors.RequestedPrivacyLevelInvalid).toBe(
      "Invalid requestedPrivacyLevel. Should be an array with elements in ['mhci', 'groupPerecntiles', 'userPercentiles', 'transcript', 'features'].",
    );
    expect(GroupErrors.NotAssociated).toBe("Group doesn't exist in associated groups");
  });

  describe('POST /configure/groups/{groupID}/privacy', () => {
    it('stores the request (deduplicated, canonical order) and echoes it on the group', async () => {
      const response = await post(groupPath(), {
        requestedPrivacyLevel: ['transcript', 'mhci', 'groupPerecntiles', 'mhci'],
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ message: 'success' });
      const groups = (await t.request('GET', '/groups', { apiKey: acme.apiKey })).body as {
        groupID: number;
        requestedPrivacyLevel: string[];
      }[];
      expect(groups.find((g) => g.groupID === group.groupID)?.requestedPrivacyLevel).toEqual([
        'mhci',
        'groupPerecntiles',
        'transcript',
      ]);
      expect((await post(groupPath(), { requestedPrivacyLevel: [] })).status).toBe(200);
      const cleared = (await t.request('GET', '/groups', { apiKey: acme.apiKey })).body as {
        requestedPrivacyLevel: string[];
      }[];
      expect(cleared[0].requestedPrivacyLevel).toEqual([]);
    });

    it.each([
      ['absent', {}, PrivacyErrors.RequestedPrivacyLevelMissing],
      ['null', { requestedPrivacyLevel: null }, PrivacyErrors.RequestedPrivacyLevelMissing],
      ['a string', { requestedPrivacyLevel: 'mhci' }, PrivacyErrors.RequestedPrivacyLevelInvalid],
      [
        'an unknown name',
        { requestedPrivacyLevel: ['groupPercentiles'] },
        PrivacyErrors.RequestedPrivacyLevelInvalid,
      ],
      [
        'a number element',
        { requestedPrivacyLevel: [1] },
        PrivacyErrors.RequestedPrivacyLevelInvalid,
      ],
      [
        'an object',
        { requestedPrivacyLevel: { mhci: true } },
        PrivacyErrors.RequestedPrivacyLevelInvalid,
      ],
    ])('refuses requestedPrivacyLevel %s, changing nothing', async (_, body, message) => {
      await post(groupPath(), { requestedPrivacyLevel: ['features'] });
      const response = await post(groupPath(), body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: message });
      const stored = await t.db.query<{ requested_privacy: string[] }>(
        'SELECT requested_privacy FROM groups WHERE group_id = $1',
        [group.groupID],
      );
      expect(stored.rows[0].requested_privacy).toEqual(['features']);
    });

    it('path errors come first, then the body, then the group', async () => {
      expect((await post('/configure/groups//privacy', {})).body).toEqual({
        error: GroupErrors.GroupIdMissing,
      });
      expect((await post(groupPath('x'), {})).body).toEqual({
        error: GroupErrors.GroupIdNotNumber,
      });
      expect((await post(groupPath(999999), {})).body).toEqual({
        error: PrivacyErrors.RequestedPrivacyLevelMissing,
      });
      const missing = await post(groupPath(999999), { requestedPrivacyLevel: [] });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ error: GroupErrors.NotFound });
    });

    it("another enterprise's group: Group doesn't exist in associated groups, unchanged", async () => {
      const theirs = await t.newGroup(globex, 'Theirs');
      const response = await post(groupPath(theirs.groupID), {
        requestedPrivacyLevel: ['features'],
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: GroupErrors.NotAssociated });
      const stored = await t.db.query<{ requested_privacy: string[] }>(
        'SELECT requested_privacy FROM groups WHERE group_id = $1',
        [theirs.groupID],
      );
      expect(stored.rows[0].requested_privacy).toEqual([]);
    });
  });

  describe('POST /configure/participants/{externalID}/privacy', () => {
    it('errors: missing externalID, body, unknown and foreign participants', async () => {
      expect((await post('/configure/participants//privacy', {})).body).toEqual({
        error: ParticipantErrors.ExternalIdMissing,
      });
      expect((await post(participantPath(), {})).body).toEqual({
        error: PrivacyErrors.RequestedPrivacyLevelMissing,
      });
      expect((await post(participantPath(), { requestedPrivacyLevel: ['nope'] })).body).toEqual({
        error: PrivacyErrors.RequestedPrivacyLevelInvalid,
      });
      for (const [id, apiKey] of [
        [`ok_${'2'.repeat(48)}`, acme.apiKey],
        ['garbage', acme.apiKey],
        [participant.userIdentifier, globex.apiKey],
      ]) {
        const response = await post(participantPath(id), { requestedPrivacyLevel: [] }, apiKey);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: ParticipantErrors.NotFound });
      }
    });
  });
});
