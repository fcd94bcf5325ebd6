import { createHash } from 'node:crypto';
import { PiiCipher } from '../src/common/crypto/pii-cipher';
import { ParticipantErrors } from '../src/participants/participants.errors';
import { SESSION_CREATED_MESSAGE, SessionErrors } from '../src/sessions/sessions.errors';
import { match } from './support/matchers';
import {
  SessionCreated,
  startTestApp,
  TestApp,
  TestEnterprise,
  TestGroup,
} from './support/test-app';

const EXTERNAL_ID = /^ok_[0-9a-f]{48}$/;
const SESSION_ID = /^ses_[0-9A-Za-z]{24}$/;

describe('Sessions and participants', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let globex: TestEnterprise;
  let group: TestGroup;
  let otherGroup: TestGroup;
  let email = 0;
  const nextEmail = () => `person${++email}@example.com`;

  beforeAll(async () => {
    t = await startTestApp();
    acme = await t.newEnterprise('Acme');
    globex = await t.newEnterprise('Globex');
    group = await t.newGroup(acme, 'Night shift');
    otherGroup = await t.newGroup(acme, 'Day shift');
  });
  afterAll(() => t.close());

  const first = async (identifier = nextEmail(), target = group) => {
    const response = await t.createSession(acme, target, identifier);
    expect(response.status).toBe(200);
    return response.body as SessionCreated;
  };

  describe('POST /session/create', () => {
    it('creates a participant from an email and answers the spec body', async () => {
      const response = await t.createSession(acme, group, nextEmail());
      expect(response.status).toBe(200);
      const body = response.body as SessionCreated;
      expect(Object.keys(body)).toEqual([
        'success',
        'message',
        'userIdentifier',
        'redirectUrl',
        'sessionID',
      ]);
      expect(body).toEqual({
        success: true,
        message: SESSION_CREATED_MESSAGE,
        userIdentifier: match.stringMatching(EXTERNAL_ID),
        redirectUrl: match.stringMatching(
          /^http:\/\/127\.0\.0\.1\/checkin\/k0\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/,
        ),
        sessionID: match.stringMatching(SESSION_ID),
      });
      expect(SESSION_CREATED_MESSAGE).toBe('Redirect URL generated successfully.');
    });

    it('writes user.created for a new identity, in the outbox, without the email in clear', async () => {
      const address = nextEmail();
      const created = await first(address);
      const events = await t.db.query(
        `SELECT type, group_id, payload, encrypted_pii FROM events WHERE payload->>'userIdentifier' = $1`,
        [created.userIdentifier],
      );
      expect(events.rows).toEqual([
        {
          type: 'user.created',
          group_id: String(group.groupID),
          payload: { groupID: group.groupID, userIdentifier: created.userIdentifier },
          encrypted_pii: match.stringMatching(/^v2\.k0\./),
        },
      ]);
      expect(JSON.stringify(events.rows)).not.toContain(address);
    });

    it('stores no email in clear anywhere', async () => {
      const address = 'Secret.Person@Example.com';
      await first(address);
      const dump = await t.db.query<{ row: string }>(
        `SELECT row_to_json(p)::text AS row FROM participants p
         UNION ALL SELECT row_to_json(e)::text FROM events e`,
      );
      const text = dump.rows
        .map((row) => row.row)
        .join('\n')
        .toLowerCase();
      expect(text).not.toContain('secret.person@example.com');
      expect(text).not.toContain('secret.person');
    });

    it('an email already in the group is refused with its external ID, creating nothing', async () => {
      const address = nextEmail();
      const created = await first(address);
      const sessionsBefore = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM sessions',
      );
      for (const variant of [address, address.toUpperCase(), `  ${address} `]) {
        const again = await t.createSession(acme, group, variant);
        expect(again.status).toBe(400);
        expect(again.body).toEqual({ error: SessionErrors.AlreadyExists(created.userIdentifier) });
      }
      expect(SessionErrors.AlreadyExists('ok_x')).toBe(
        'This user already exists for the email and groupID provided, their externalID is ok_x',
      );
      const sessionsAfter = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM sessions',
      );
      expect(sessionsAfter.rows[0].n).toBe(sessionsBefore.rows[0].n);
    });

    it('refuses an external ID that is not in the group', async () => {
      const created = await first(nextEmail(), otherGroup);
      const response = await t.createSession(acme, group, created.userIdentifier);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: SessionErrors.NotInGroup(created.userIdentifier, group.groupID),
      });
      expect(SessionErrors.NotInGroup('ok_x', 3)).toBe('User ok_x is not part of group 3');
    });

    it.each([
      ['an unknown external ID', `ok_${'0'.repeat(48)}`],
      ['a malformed external ID', 'ok_123'],
      ['neither email nor id', 'just a name'],
      ['an empty string', ''],
    ])('refuses %s', async (_, identifier) => {
      const response = await t.createSession(acme, group, identifier);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: SessionErrors.IdentifierInvalid });
    });

    const valid = () => ({
      groupID: group.groupID,
      groupKey: group.key,
      userIdentifier: nextEmail(),
      returnURL: 'https://app.example.com/done',
    });

    it.each([
      ['groupID absent', { groupID: undefined }, SessionErrors.GroupIdMissing],
      ['groupID a string', { groupID: '12' }, SessionErrors.GroupIdNotNumber],
      ['groupID null', { groupID: null }, SessionErrors.GroupIdMissing],
      ['groupKey absent', { groupKey: undefined }, SessionErrors.GroupKeyMissing],
      ['groupKey a number', { groupKey: 5 }, SessionErrors.GroupKeyNotString],
      ['userIdentifier absent', { userIdentifier: undefined }, SessionErrors.UserIdentifierMissing],
      ['userIdentifier a number', { userIdentifier: 5 }, SessionErrors.UserIdentifierNotString],
      ['returnURL absent', { returnURL: undefined }, SessionErrors.ReturnUrlMissing],
      ['returnURL an object', { returnURL: {} }, SessionErrors.ReturnUrlNotString],
      [
        'returnURL http',
        { returnURL: 'http://app.example.com/done' },
        SessionErrors.ReturnUrlNotHttps,
      ],
      [
        'returnURL localhost',
        { returnURL: 'https://localhost/done' },
        SessionErrors.ReturnUrlNotHttps,
      ],
      [
        'returnURL private',
        { returnURL: 'https://192.168.0.2/done' },
        SessionErrors.ReturnUrlNotHttps,
      ],
      ['groupID unknown', { groupID: 987654 }, SessionErrors.GroupNotFound],
      ['groupID fractional', { groupID: 1.5 }, SessionErrors.GroupNotFound],
      ['groupKey wrong', { groupKey: 'gk_wrong' }, SessionErrors.InvalidGroupKey],
    ])('%s → %s', async (_, change, message) => {
      const body = { ...valid(), ...change };
      const response = await t.request('POST', '/session/create', { apiKey: acme.apiKey, body });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: message });
    });

    it('refuses every identifier that is not one plain email address, changing nothing (docs/security.md)', async () => {
      const counts = async () =>
        (
          await t.db.query<{ counts: string }>(
            `SELECT concat_ws(',', (SELECT count(*) FROM participants),
                    (SELECT count(*) FROM memberships), (SELECT count(*) FROM sessions),
                    (SELECT count(*) FROM events)) AS counts`,
          )
        ).rows[0].counts;
      const before = await counts();
      for (const identifier of [
        'Boss <boss@example.com>',
        '<boss@example.com>',
        'a,b@example.com',
        'a;b@example.com',
        'ana@example.com, eve@example.com',
        'ana@example.com,eve@example.com',
        'team: ana@example.com, eve@example.com;',
        'team:ana@example.com;',
        'ana@example.com (boss)',
        '"ana eve"@example.com',
        'ana@example.com\nBcc: eve@example.com',
        'ana@exa\r\nmple.com',
        'ana\u0000@example.com',
        'ana@example.com\u0000',
        'ana\u200b@example.com',
        'ana@[127.0.0.1]',
        'ok_not-an-id',
      ]) {
        const response = await t.createSession(acme, group, identifier);
        expect({ identifier, status: response.status, body: response.body }).toEqual({
          identifier,
          status: 400,
          body: { error: SessionErrors.IdentifierInvalid },
        });
      }
      expect(await counts()).toBe(before);
    });

    it.each([
      'https://198.18.0.1/done',
      'https://198.19.255.254/done',
      'https://240.0.0.1/done',
      'https://255.255.255.255/done',
      'https://192.0.2.1/done',
      'https://[::127.0.0.1]/done',
      'https://[::8.8.8.8]/done',
      'https://[::ffff:127.0.0.1]/done',
      'https://[::ffff:10.1.2.3]/done',
      'https://[64:ff9b::a00:1]/done',
      'https://[2002:c0a8:1::1]/done',
      'https://[fd00::1]/done',
      'https://app.example.com/a\nb',
      'https://app.example.com/done\r\nSet-Cookie: a=b',
      'https://app.example.com/\u0000',
    ])('refuses returnURL %j with the returnURL message', async (returnURL) => {
      const response = await t.createSession(acme, group, nextEmail(), { returnURL });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: SessionErrors.ReturnUrlNotHttps });
    });

    it('checks fields in the spec order: groupID, groupKey, userIdentifier, returnURL', async () => {
      const response = await t.request('POST', '/session/create', {
        apiKey: acme.apiKey,
        body: { returnURL: 1, userIdentifier: 1, groupKey: 1 },
      });
      expect(response.body).toEqual({ error: SessionErrors.GroupIdMissing });
      const second = await t.request('POST', '/session/create', {
        apiKey: acme.apiKey,
        body: { groupID: 1, returnURL: 1, userIdentifier: 1 },
      });
      expect(second.body).toEqual({ error: SessionErrors.GroupKeyMissing });
    });

    it("another enterprise's group is Group not found, even with its key", async () => {
      const theirGroup = await t.newGroup(globex, 'Theirs 3');
      const response = await t.request('POST', '/session/create', {
        apiKey: acme.apiKey,
        body: { ...valid(), groupID: theirGroup.groupID, groupKey: theirGroup.key },
      });
      expect(response.body).toEqual({ error: SessionErrors.GroupNotFound });
    });

    it('20 parallel first sessions for one email: one participant, one user.created, no 5xx', async () => {
      const address = nextEmail();
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => t.createSession(acme, group, address)),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status >= 500)).toEqual([]);
      const winners = responses.filter((response) => response.status === 200);
      expect(winners).toHaveLength(1);
      const externalId = (winners[0].body as SessionCreated).userIdentifier;
      for (const loser of responses.filter((response) => response.status !== 200)) {
        expect(loser.body).toEqual({ error: SessionErrors.AlreadyExists(externalId) });
      }
      const events = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM events WHERE type = 'user.created' AND payload->>'userIdentifier' = $1`,
        [externalId],
      );
      expect(events.rows[0].n).toBe(1);
    });

    it('20 parallel first sessions for one email in 20 groups: one identity, 20 memberships', async () => {
      const address = nextEmail();
      const groups = await Promise.all(
        Array.from({ length: 20 }, (_, index) => t.newGroup(acme, `Parallel ${index}`)),
      );
      const responses = await Promise.all(
        groups.map((target) => t.createSession(acme, target, address)),
      );
      expect(responses.map((response) => response.status)).toEqual(groups.map(() => 200));
      const ids = new Set(
        responses.map((response) => (response.body as SessionCreated).userIdentifier),
      );
      expect(ids.size).toBe(1);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first response for the same key and body', async () => {
      const address = nextEmail();
      const headers = { 'Idempotency-Key': `key-${address}` };
      const firstResponse = await t.createSession(acme, group, address, { headers });
      const replay = await t.createSession(acme, group, address, { headers });
      expect(firstResponse.status).toBe(200);
      expect(replay.status).toBe(200);
      expect(replay.text).toBe(firstResponse.text);
      const sessions = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM sessions s JOIN participants p ON p.id = s.participant_id
          WHERE p.external_id = $1`,
        [(firstResponse.body as SessionCreated).userIdentifier],
      );
      expect(sessions.rows[0].n).toBe(1);
    });

    it('keeps the first answer sealed: no link, id or address in clear, and the request keyed', async () => {
      const address = nextEmail();
      const headers = { 'Idempotency-Key': `sealed-${address}` };
      const created = await t.createSession(acme, group, address, { headers });
      const session = created.body as SessionCreated;
      const { rows } = await t.db.query<Record<string, string>>(
        `SELECT request_hash, response_ciphertext, external_id FROM idempotency_keys
          WHERE key = $1`,
        [headers['Idempotency-Key']],
      );
      expect(rows).toHaveLength(1);
      const stored = JSON.stringify(rows[0]);
      const checkinToken = new URL(session.redirectUrl).pathname.split('/').pop() as string;
      for (const secret of [
        session.redirectUrl,
        checkinToken,
        session.sessionID,
        address,
        'checkin',
      ]) {
        expect({ secret, found: stored.includes(secret) }).toEqual({ secret, found: false });
      }
      // Sealed with the data keys: the service opens it, and a replay is byte for byte.
      expect(t.app.get(PiiCipher).decrypt(rows[0].response_ciphertext)).toBe(created.text);
      expect(rows[0].external_id).toBe(session.userIdentifier);
      // A keyed fingerprint, not the plain SHA-256 a guess could be tested against.
      const request = JSON.stringify([
        group.groupID,
        group.key,
        address,
        'https://app.example.com/done',
      ]);
      expect(rows[0].request_hash).not.toBe(createHash('sha256').update(request).digest('hex'));
      expect((await t.createSession(acme, group, address, { headers })).text).toBe(created.text);
    });

    it('answers 409 when the key is reused with a different body', async () => {
      const headers = { 'Idempotency-Key': 'reused-key' };
      expect((await t.createSession(acme, group, nextEmail(), { headers })).status).toBe(200);
      const conflict = await t.createSession(acme, group, nextEmail(), { headers });
      expect(conflict.status).toBe(409);
      expect(conflict.body).toEqual({ error: SessionErrors.IdempotencyKeyReused });
    });
  });

  describe('GET /sessions/{sessionID}', () => {
    it('shows the level-0 fields of a pending session', async () => {
      const created = await first();
      const response = await t.request('GET', `/sessions/${created.sessionID}`, {
        apiKey: acme.apiKey,
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        externalID: created.userIdentifier,
        sessionID: created.sessionID,
        timestamp: match.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        groupID: group.groupID,
        version: 'v0.0.0',
      });
    });

    it("answers Session not found for unknown, malformed and other enterprises' sessions", async () => {
      const created = await first();
      for (const [apiKey, id] of [
        [acme.apiKey, 'ses_AAAAAAAAAAAAAAAAAAAAAAAA'],
        [acme.apiKey, 'nope'],
        [globex.apiKey, created.sessionID],
      ]) {
        const response = await t.request('GET', `/sessions/${id}`, { apiKey });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: SessionErrors.NotFound });
      }
    });

    it('GET /sessions/ → You are missing the path parameter sessionID', async () => {
      for (const path of ['/sessions/', '/sessions']) {
        const response = await t.request('GET', path, { apiKey: acme.apiKey });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: 'You are missing the path parameter sessionID' });
      }
    });
  });

  describe('participants', () => {
    it('GET /participants/{externalID} answers the Participant object', async () => {
      const created = await first();
      const response = await t.request('GET', `/participants/${created.userIdentifier}`, {
        apiKey: acme.apiKey,
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        externalID: created.userIdentifier,
        userGroups: [
          {
            externalID: created.userIdentifier,
            groupID: group.groupID,
            joinDate: match.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
            privacyLevel: 0,
          },
        ],
      });
    });

    it("GET /participants/{externalID}/sessions lists the participant's session IDs, oldest first", async () => {
      const created = await first();
      const later = (await t.createSession(acme, group, created.userIdentifier))
        .body as SessionCreated;
      const response = await t.request('GET', `/participants/${created.userIdentifier}/sessions`, {
        apiKey: acme.apiKey,
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([created.sessionID, later.sessionID]);
    });

    it('GET /groups/{groupID}/participants lists external IDs in joining order', async () => {
      const fresh = await t.newGroup(acme, 'Fresh');
      const a = await first(nextEmail(), fresh);
      const b = await first(nextEmail(), fresh);
      const response = await t.request('GET', `/groups/${fresh.groupID}/participants`, {
        apiKey: acme.apiKey,
      });
      expect(response.body).toEqual([a.userIdentifier, b.userIdentifier]);
    });

    it('errors: missing externalID, unknown and foreign participants', async () => {
      const created = await first();
      for (const path of ['/participants/', '/participants//sessions']) {
        const response = await t.request('GET', path, { apiKey: acme.apiKey });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ error: ParticipantErrors.ExternalIdMissing });
      }
      for (const [apiKey, id] of [
        [acme.apiKey, `ok_${'1'.repeat(48)}`],
        [acme.apiKey, 'bogus'],
        [globex.apiKey, created.userIdentifier],
      ]) {
        for (const suffix of ['', '/sessions']) {
          const response = await t.request('GET', `/participants/${id}${suffix}`, { apiKey });
          expect(response.status).toBe(400);
          expect(response.body).toEqual({ error: ParticipantErrors.NotFound });
        }
      }
      expect(ParticipantErrors.ExternalIdMissing).toBe(
        'You are missing the path parameter externalID',
      );
    });
  });

  it('deleting a group removes its memberships and sessions, not the identity', async () => {
    const doomed = await t.newGroup(acme, 'Doomed');
    const created = await first(nextEmail(), doomed);
    await first(created.userIdentifier === '' ? nextEmail() : nextEmail(), group);
    expect(
      (await t.request('DELETE', `/groups/${doomed.groupID}`, { apiKey: acme.apiKey })).status,
    ).toBe(200);
    const sessions = await t.request('GET', `/participants/${created.userIdentifier}/sessions`, {
      apiKey: acme.apiKey,
    });
    expect(sessions.body).toEqual([]);
    const gone = await t.request('GET', `/sessions/${created.sessionID}`, { apiKey: acme.apiKey });
    expect(gone.body).toEqual({ error: SessionErrors.NotFound });
  });
});
