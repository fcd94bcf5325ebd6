import { CommonErrors } from '../src/common/errors/common.errors';
import { GroupErrors } from '../src/groups/groups.errors';
import { match } from './support/matchers';
import { startTestApp, TestApp, TestEnterprise } from './support/test-app';

const GROUP_SHAPE = {
  groupID: match.any(Number),
  groupName: match.any(String),
  requestedPrivacyLevel: [],
  inviteCode: match.stringMatching(/^[0-9a-z]{13}$/),
  key: match.stringMatching(/^gk_[0-9A-Za-z]{32}$/),
  consentRequired: 'false',
  credits: 0,
};

describe('Groups', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let globex: TestEnterprise;

  beforeAll(async () => {
    t = await startTestApp();
    acme = await t.newEnterprise('Acme');
    globex = await t.newEnterprise('Globex');
  });
  afterAll(() => t.close());

  const as = (enterprise: TestEnterprise) => ({
    get: (path: string) => t.request('GET', path, { apiKey: enterprise.apiKey }),
    post: (path: string, body?: unknown) =>
      t.request('POST', path, { apiKey: enterprise.apiKey, body }),
    put: (path: string, body?: unknown) =>
      t.request('PUT', path, { apiKey: enterprise.apiKey, body }),
    delete: (path: string) => t.request('DELETE', path, { apiKey: enterprise.apiKey }),
  });

  const createGroup = async (enterprise: TestEnterprise, groupName: string) => {
    const response = await as(enterprise).post('/groups', { groupName });
    expect(response.status).toBe(200);
    return response.body as { groupID: number; key: string; inviteCode: string };
  };

  describe('POST /groups', () => {
    it('creates a group with the spec defaults, exactly these fields in this order', async () => {
      const response = await as(acme).post('/groups', { groupName: 'Night shift' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ ...GROUP_SHAPE, groupName: 'Night shift' });
      expect(Object.keys(response.body as object)).toEqual([
        'groupID',
        'groupName',
        'requestedPrivacyLevel',
        'inviteCode',
        'key',
        'consentRequired',
        'credits',
      ]);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    });

    it.each([
      ['absent', {}, GroupErrors.GroupNameMissing],
      ['null', { groupName: null }, GroupErrors.GroupNameMissing],
      ['a number', { groupName: 12 }, GroupErrors.GroupNameNotString],
      ['an array', { groupName: ['x'] }, GroupErrors.GroupNameNotString],
      ['blank', { groupName: '   ' }, GroupErrors.GroupNameEmpty],
      ['too long', { groupName: 'x'.repeat(201) }, GroupErrors.GroupNameTooLong],
    ])('refuses a groupName that is %s', async (_, body, message) => {
      const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM groups');
      const response = await as(acme).post('/groups', body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: message });
      const after = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM groups');
      expect(after.rows[0].n).toBe(before.rows[0].n);
    });

    it('uses the spec strings byte for byte', () => {
      expect(GroupErrors.GroupNameMissing).toBe('You are missing the path parameter groupName');
      expect(GroupErrors.GroupNameNotString).toBe('groupName must be a string');
      expect(GroupErrors.NotFound).toBe('Group not found');
      expect(GroupErrors.GroupIdMissing).toBe('You are missing the path parameter groupID');
      expect(GroupErrors.GroupIdNotNumber).toBe('groupID must be a number');
    });

    it('reports a missing groupName for an absent body, and Invalid JSON body for JSON that is not an object', async () => {
      expect((await as(acme).post('/groups')).body).toEqual({
        error: GroupErrors.GroupNameMissing,
      });
      for (const rawBody of ['[]', '"str"', '42', 'null', 'true', '[{"groupName":"x"}]']) {
        const answer = await t.request('POST', '/groups', { apiKey: acme.apiKey, rawBody });
        expect({ rawBody, status: answer.status, body: answer.body }).toEqual({
          rawBody,
          status: 400,
          body: { error: CommonErrors.InvalidJsonBody },
        });
      }
    });

    it('ignores unknown fields and never stores them', async () => {
      const response = await as(acme).post('/groups', {
        groupName: 'Extra',
        credits: 99,
        key: 'gk_x',
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ groupName: 'Extra', credits: 0 });
      expect((response.body as { key: string }).key).not.toBe('gk_x');
    });
  });

  describe('GET /groups', () => {
    it("lists only the caller's groups, in creation order", async () => {
      const fresh = await t.newEnterprise('Fresh');
      expect((await as(fresh).get('/groups')).body).toEqual([]);
      const first = await createGroup(fresh, 'First');
      const second = await createGroup(fresh, 'Second');
      await createGroup(globex, 'Not yours');
      const response = await as(fresh).get('/groups');
      expect(response.status).toBe(200);
      expect(response.body).toEqual([
        {
          ...GROUP_SHAPE,
          groupID: first.groupID,
          groupName: 'First',
          key: first.key,
          inviteCode: first.inviteCode,
        },
        {
          ...GROUP_SHAPE,
          groupID: second.groupID,
          groupName: 'Second',
          key: second.key,
          inviteCode: second.inviteCode,
        },
      ]);
    });

    it('answers the same list with a trailing slash', async () => {
      const response = await as(acme).get('/groups/');
      expect(response.status).toBe(200);
      expect(response.body).toEqual((await as(acme).get('/groups')).body);
    });
  });

  describe('PUT /groups/{groupID}', () => {
    it('renames, sets consentRequired, and keeps what is not sent', async () => {
      const group = await createGroup(acme, 'Before');
      const renamed = await as(acme).put(`/groups/${group.groupID}`, { groupName: 'After' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({
        ...GROUP_SHAPE,
        groupID: group.groupID,
        groupName: 'After',
        key: group.key,
        inviteCode: group.inviteCode,
      });

      const consent = await as(acme).put(`/groups/${group.groupID}`, { consentRequired: 'true' });
      expect(consent.body).toMatchObject({ groupName: 'After', consentRequired: 'true' });

      const both = await as(acme).put(`/groups/${group.groupID}`, {
        groupName: 'Both',
        consentRequired: 'false',
      });
      expect(both.body).toMatchObject({ groupName: 'Both', consentRequired: 'false' });

      const nothing = await as(acme).put(`/groups/${group.groupID}`, {});
      expect(nothing.status).toBe(200);
      expect(nothing.body).toEqual(both.body);

      expect((await as(acme).get('/groups')).body).toContainEqual(both.body);
    });

    it.each([
      ['a number groupName', { groupName: 5 }, GroupErrors.GroupNameNotString],
      ['a null groupName', { groupName: null }, GroupErrors.GroupNameNotString],
      ['a blank groupName', { groupName: '' }, GroupErrors.GroupNameEmpty],
      ['a boolean consentRequired', { consentRequired: true }, GroupErrors.ConsentRequiredInvalid],
      [
        'a consentRequired of "yes"',
        { consentRequired: 'yes' },
        GroupErrors.ConsentRequiredInvalid,
      ],
      [
        'both wrong: groupName is reported first',
        { groupName: 1, consentRequired: 1 },
        GroupErrors.GroupNameNotString,
      ],
    ])('refuses %s and changes nothing', async (_, body, message) => {
      const group = await createGroup(acme, 'Unchanged');
      const response = await as(acme).put(`/groups/${group.groupID}`, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: message });
      const stored = await t.db.query(
        'SELECT name, consent_required FROM groups WHERE group_id = $1',
        [group.groupID],
      );
      expect(stored.rows[0]).toEqual({ name: 'Unchanged', consent_required: false });
    });

    it('checks the path before the body, and the body before existence', async () => {
      expect((await as(acme).put('/groups/abc', { groupName: 5 })).body).toEqual({
        error: GroupErrors.GroupIdNotNumber,
      });
      expect((await as(acme).put('/groups/', { groupName: 5 })).body).toEqual({
        error: GroupErrors.GroupIdMissing,
      });
      expect((await as(acme).put('/groups/999999', { groupName: 5 })).body).toEqual({
        error: GroupErrors.GroupNameNotString,
      });
      const missing = await as(acme).put('/groups/999999', { groupName: 'x' });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ error: GroupErrors.NotFound });
    });
  });

  describe('DELETE /groups/{groupID}', () => {
    it('deletes the group', async () => {
      const group = await createGroup(acme, 'Doomed');
      const response = await as(acme).delete(`/groups/${group.groupID}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ message: 'success' });
      expect((await as(acme).get('/groups')).body).not.toContainEqual(
        expect.objectContaining({ groupID: group.groupID }),
      );
      const again = await as(acme).delete(`/groups/${group.groupID}`);
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ error: GroupErrors.NotFound });
    });
  });

  describe('GET /groups/{groupID}/participants', () => {
    it('answers an empty list for a group without participants', async () => {
      const group = await createGroup(acme, 'Empty');
      const response = await as(acme).get(`/groups/${group.groupID}/participants`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual([]);
    });

    it('answers Group not found for a group that does not exist', async () => {
      const response = await as(acme).get('/groups/424242/participants');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: GroupErrors.NotFound });
    });
  });

  describe('path parameter groupID', () => {
    const routes: [string, string][] = [
      ['PUT', '/groups/{id}'],
      ['DELETE', '/groups/{id}'],
      ['GET', '/groups/{id}/participants'],
    ];

    it.each(routes)(
      '%s %s: absent → missing, not digits → must be a number',
      async (method, template) => {
        for (const [id, message] of [
          ['', GroupErrors.GroupIdMissing],
          ['abc', GroupErrors.GroupIdNotNumber],
          ['-1', GroupErrors.GroupIdNotNumber],
          ['1.5', GroupErrors.GroupIdNotNumber],
          ['1e3', GroupErrors.GroupIdNotNumber],
          ['%20', GroupErrors.GroupIdNotNumber],
        ]) {
          const response = await t.request(method, template.replace('{id}', id), {
            apiKey: acme.apiKey,
            body: method === 'PUT' ? {} : undefined,
          });
          expect({ id, status: response.status, body: response.body }).toEqual({
            id,
            status: 400,
            body: { error: message },
          });
        }
      },
    );

    it.each(routes)(
      '%s %s: a huge id is a number that matches no group',
      async (method, template) => {
        const response = await t.request(
          method,
          template.replace('{id}', '99999999999999999999999'),
          { apiKey: acme.apiKey, body: method === 'PUT' ? {} : undefined },
        );
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: GroupErrors.NotFound });
      },
    );
  });

  describe('tenancy', () => {
    it('another enterprise can neither see nor change nor delete a group', async () => {
      const group = await createGroup(acme, 'Private');
      const other = as(globex);
      expect((await other.get('/groups')).body).not.toContainEqual(
        expect.objectContaining({ groupID: group.groupID }),
      );
      for (const response of [
        await other.put(`/groups/${group.groupID}`, { groupName: 'Hijacked' }),
        await other.delete(`/groups/${group.groupID}`),
        await other.get(`/groups/${group.groupID}/participants`),
      ]) {
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: GroupErrors.NotFound });
      }
      const stored = await t.db.query('SELECT name FROM groups WHERE group_id = $1', [
        group.groupID,
      ]);
      expect(stored.rows).toEqual([{ name: 'Private' }]);
    });
  });

  describe('malformed requests', () => {
    it('answers 400 Invalid JSON body and creates nothing', async () => {
      const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM groups');
      const response = await t.request('POST', '/groups', {
        apiKey: acme.apiKey,
        rawBody: '{"groupName":',
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: CommonErrors.InvalidJsonBody });
      const after = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM groups');
      expect(after.rows[0].n).toBe(before.rows[0].n);
    });

    it('refuses prototype pollution attempts as invalid JSON', async () => {
      const response = await t.request('POST', '/groups', {
        apiKey: acme.apiKey,
        rawBody: '{"groupName":"x","__proto__":{"admin":true}}',
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: CommonErrors.InvalidJsonBody });
    });
  });
});
