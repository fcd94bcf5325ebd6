/**
 * SessionsService below HTTP, with its real repositories and outbox on PostgreSQL
 * (docs/checkin-flow.md, docs/privacy.md). It pins down:
 * - creation: the answer (an ok_ id, a ses_ id, a signed link naming the session); a first email
 *   is a new identity (email sealed), a membership at level 0 and a pending session, with
 *   `user.created` in the outbox in the same transaction; a known email joins another group as the
 *   same identity; later sessions by ok_ id; every refusal, in the spec's order, changes nothing;
 * - Idempotency-Key: the same key and request answer the first answer and create nothing more, a
 *   different request is 409, keys are per enterprise, last 24 hours, are not held by a refused
 *   request, and are 1–255 visible ASCII characters;
 * - reading: exactly the fields of the level shown, which is the lower of the check-in's own level
 *   and the member's level now; a pending session at level 0; another enterprise's session, an
 *   unknown and a malformed id are all `Session not found`.
 */
import { sha256Hex } from '../../src/common/crypto/secrets';
import type { ParticipantLinks } from '../../src/participant-links/participant-links';
import type { CreateSessionDto } from '../../src/sessions/dto/create-session.dto';
import { SESSION_CREATED_MESSAGE, SessionErrors } from '../../src/sessions/sessions.errors';
import { SessionsRepository, StoredResult } from '../../src/sessions/sessions.repository';
import type { SessionsService } from '../../src/sessions/sessions.service';
import { sealJson, sealTranscript } from '../../src/sessions/transcript-codec';
import { match } from '../support/matchers';
import {
  FailingAfterInsertEvents,
  groupKey,
  newCipher,
  PUBLIC_BASE_URL,
  refusal,
  rowCounts,
  sessionsServiceOn,
  setMemberLevel,
  setSharedLevel,
  subscribedEndpoint,
} from './service-fixtures';
import { TestDatabase } from './support';

const EXTERNAL_ID = /^ok_[0-9a-f]{48}$/;
const SESSION_ID = /^ses_[0-9A-Za-z]{24}$/;
const RETURN_URL = 'https://app.example.com/done';

/** The fields each level adds (spec "Session"), written out here rather than read from the code. */
const FIELDS_BY_LEVEL = [
  ['externalID', 'sessionID', 'timestamp', 'groupID', 'version'],
  ['mhci', 'subscores'],
  ['groupPercentiles'],
  ['userPercentiles'],
  ['transcript'],
  ['features'],
];
const fieldsAt = (level: number): string[] => FIELDS_BY_LEVEL.slice(0, level + 1).flat();

const TURNS = [
  { role: 'assistant' as const, content: 'How have you been sleeping?' },
  { role: 'user' as const, content: 'Badly — "deadlines"\nagain' },
];

describe('SessionsService (PostgreSQL)', () => {
  let t: TestDatabase;
  const cipher = newCipher();
  let service: SessionsService;
  let links: ParticipantLinks;
  let sessions: SessionsRepository;
  let acme: string;
  let globex: string;
  /** Acme's groups, and one of Globex's. */
  let night: number;
  let day: number;
  let theirs: number;
  const keys = new Map<number, string>();
  let emails = 0;
  const nextEmail = () => `person${++emails}@example.com`;

  const request = (
    groupId: number,
    userIdentifier: string,
    overrides: Partial<CreateSessionDto> = {},
  ): CreateSessionDto => ({
    groupID: groupId,
    groupKey: keys.get(groupId) as string,
    userIdentifier,
    returnURL: RETURN_URL,
    ...overrides,
  });

  beforeAll(async () => {
    t = await TestDatabase.create();
    ({ service, links } = sessionsServiceOn(t.db, cipher));
    sessions = new SessionsRepository(t.db);
    acme = await t.enterprise('Acme');
    globex = await t.enterprise('Globex');
    night = await t.group(acme, { name: 'Night shift' });
    day = await t.group(acme, { name: 'Day shift' });
    theirs = await t.group(globex, { name: 'Theirs' });
    for (const groupId of [night, day, theirs]) keys.set(groupId, await groupKey(t, groupId));
  });
  afterAll(() => t.close());

  const participantOf = (externalId: string) =>
    t.one<{ id: string; enterpriseId: string; emailCiphertext: string; emailHash: string }>(
      `SELECT id, enterprise_id AS "enterpriseId", email_ciphertext AS "emailCiphertext",
              email_hash AS "emailHash"
         FROM participants WHERE external_id = $1`,
      [externalId],
    );
  const membershipsOf = (externalId: string) =>
    t.rows<{ groupId: number; privacyLevel: number; consentedAt: Date | null }>(
      `SELECT m.group_id AS "groupId", m.privacy_level AS "privacyLevel",
              m.consented_at AS "consentedAt"
         FROM memberships m JOIN participants p ON p.id = m.participant_id
        WHERE p.external_id = $1 ORDER BY m.group_id`,
      [externalId],
    );
  const userCreatedEvents = (externalId: string) =>
    t.rows<{ id: string; enterpriseId: string; groupId: number; payload: unknown; pii: string }>(
      `SELECT id, enterprise_id AS "enterpriseId", group_id AS "groupId", payload,
              encrypted_pii AS pii
         FROM events WHERE type = 'user.created' AND payload->>'userIdentifier' = $1`,
      [externalId],
    );
  const sessionCountOf = async (externalId: string) =>
    (
      await t.one<{ n: number }>(
        `SELECT count(*)::int AS n FROM sessions s JOIN participants p ON p.id = s.participant_id
          WHERE p.external_id = $1`,
        [externalId],
      )
    ).n;

  describe('create', () => {
    it('a new email: the spec answer, whose link names the session', async () => {
      const answer = await service.create(acme, request(night, nextEmail()));
      expect(Object.keys(answer)).toEqual([
        'success',
        'message',
        'userIdentifier',
        'redirectUrl',
        'sessionID',
      ]);
      expect(answer).toEqual({
        success: true,
        message: SESSION_CREATED_MESSAGE,
        userIdentifier: match.stringMatching(EXTERNAL_ID),
        redirectUrl: match.stringMatching(
          /^https:\/\/checkin\.example\.com\/checkin\/k1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/,
        ),
        sessionID: match.stringMatching(SESSION_ID),
      });
      const token = answer.redirectUrl.slice(`${PUBLIC_BASE_URL}/checkin/`.length);
      expect(links.sessionOf(token)).toBe(answer.sessionID);
    });

    it('a new email: a sealed identity, a membership at level 0, a pending session, one user.created', async () => {
      const answer = await service.create(
        acme,
        request(night, '  Ana.Person+tag@Example.ORG ', {
          returnURL: 'HTTPS://Bücher.Example/a/../done',
        }),
      );
      const participant = await participantOf(answer.userIdentifier);
      expect(participant.enterpriseId).toBe(acme);
      expect(cipher.decrypt(participant.emailCiphertext)).toBe('ana.person+tag@example.org');
      expect(participant.emailHash).toBe(cipher.emailLookupHash('ana.person+tag@example.org'));
      expect(await membershipsOf(answer.userIdentifier)).toEqual([
        { groupId: night, privacyLevel: 0, consentedAt: null },
      ]);
      expect(
        await t.rows(
          `SELECT enterprise_id AS "enterpriseId", participant_id AS "participantId",
                  group_id AS "groupId", status, return_url AS "returnUrl",
                  shared_level AS "sharedLevel", completed_at AS "completedAt", mhci,
                  consented_at AS "consentedAt"
             FROM sessions WHERE session_id = $1`,
          [answer.sessionID],
        ),
      ).toEqual([
        {
          enterpriseId: acme,
          participantId: participant.id,
          groupId: night,
          status: 'created',
          returnUrl: 'https://xn--bcher-kva.example/done',
          sharedLevel: null,
          completedAt: null,
          mhci: null,
          consentedAt: null,
        },
      ]);
      const events = await userCreatedEvents(answer.userIdentifier);
      expect(events).toEqual([
        {
          id: match.stringMatching(/^evt_[0-9a-f]{48}$/),
          enterpriseId: acme,
          groupId: night,
          payload: { groupID: night, userIdentifier: answer.userIdentifier },
          pii: match.stringMatching(/^v2\.k0\./),
        },
      ]);
      expect(JSON.parse(cipher.decrypt(events[0].pii))).toEqual({
        email: 'ana.person+tag@example.org',
      });
    });

    it("user.created is written to the outbox with one delivery per endpoint taking it, in the creation's transaction", async () => {
      const group = await t.group(acme, { name: 'Outbox' });
      keys.set(group, await groupKey(t, group));
      const taking = await subscribedEndpoint(t, acme, group, ['user.created']);
      await subscribedEndpoint(t, acme, group, ['user.session.result']);
      const answer = await service.create(acme, request(group, nextEmail()));
      const [event] = await userCreatedEvents(answer.userIdentifier);
      expect(
        await t.rows(
          'SELECT endpoint_id AS "endpointId", status FROM webhook_deliveries WHERE event_id = $1',
          [event.id],
        ),
      ).toEqual([{ endpointId: taking, status: 'pending' }]);

      // An outbox that fails after writing takes the identity, membership and session with it.
      const failing = sessionsServiceOn(
        t.db,
        cipher,
        new FailingAfterInsertEvents(t.db, cipher),
      ).service;
      const before = await rowCounts(t);
      await expect(failing.create(acme, request(group, nextEmail()))).rejects.toThrow(
        FailingAfterInsertEvents.failure,
      );
      expect(await rowCounts(t)).toEqual(before);
    });

    it('a later session by ok_ id: the same participant, a new pending session, no second user.created', async () => {
      const first = await service.create(acme, request(night, nextEmail()));
      const later = await service.create(acme, request(night, ` ${first.userIdentifier} `));
      expect(later).toEqual({
        ...first,
        redirectUrl: match.stringMatching(/^https:\/\/checkin\.example\.com\/checkin\/k1\./),
        sessionID: match.stringMatching(SESSION_ID),
      });
      expect(later.sessionID).not.toBe(first.sessionID);
      const token = later.redirectUrl.slice(`${PUBLIC_BASE_URL}/checkin/`.length);
      expect(links.sessionOf(token)).toBe(later.sessionID);
      expect(await sessionCountOf(first.userIdentifier)).toBe(2);
      expect(await userCreatedEvents(first.userIdentifier)).toHaveLength(1);
    });

    it("a known email joins another group as the same identity, at level 0 whatever its other groups' levels", async () => {
      const address = nextEmail();
      const first = await service.create(acme, request(night, address));
      await setMemberLevel(t, first.sessionID, 5);
      const joined = await service.create(acme, request(day, address.toUpperCase()));
      expect(joined.userIdentifier).toBe(first.userIdentifier);
      expect(await membershipsOf(first.userIdentifier)).toEqual([
        { groupId: night, privacyLevel: 5, consentedAt: null },
        { groupId: day, privacyLevel: 0, consentedAt: null },
      ]);
      expect(await userCreatedEvents(first.userIdentifier)).toHaveLength(1);
    });

    it('the same email in another enterprise is another identity, with its own user.created', async () => {
      const address = nextEmail();
      const ours = await service.create(acme, request(night, address));
      const theirsAnswer = await service.create(globex, request(theirs, address));
      expect(theirsAnswer.userIdentifier).toEqual(match.stringMatching(EXTERNAL_ID));
      expect(theirsAnswer.userIdentifier).not.toBe(ours.userIdentifier);
      expect((await participantOf(theirsAnswer.userIdentifier)).enterpriseId).toBe(globex);
      expect(await userCreatedEvents(theirsAnswer.userIdentifier)).toEqual([
        match.objectContaining({ enterpriseId: globex, groupId: theirs }),
      ]);
    });

    /** A refusal: what is asked (built once the world exists) and the 400 message it answers. */
    type Refused = [string, () => Promise<{ asked: CreateSessionDto; error: string }>];
    const refused = (asked: CreateSessionDto, error: string) => Promise.resolve({ asked, error });
    const refusals: Refused[] = [
      [
        'an email already in the group (any case, spaces around)',
        async () => {
          const address = nextEmail();
          const { userIdentifier } = await service.create(acme, request(night, address));
          return {
            asked: request(night, `  ${address.toUpperCase()} `),
            error: SessionErrors.AlreadyExists(userIdentifier),
          };
        },
      ],
      [
        'an ok_ id of the enterprise that is not in the group',
        async () => {
          const { userIdentifier } = await service.create(acme, request(night, nextEmail()));
          return {
            asked: request(day, userIdentifier),
            error: SessionErrors.NotInGroup(userIdentifier, day),
          };
        },
      ],
      [
        'an unknown ok_ id',
        () => refused(request(night, `ok_${'0'.repeat(48)}`), SessionErrors.IdentifierInvalid),
      ],
      [
        "another enterprise's ok_ id",
        async () => {
          const { userIdentifier } = await service.create(globex, request(theirs, nextEmail()));
          return { asked: request(night, userIdentifier), error: SessionErrors.IdentifierInvalid };
        },
      ],
      ...[
        'just a name',
        '',
        'ok_123',
        'Boss <boss@example.com>',
        'a@example.com, b@example.com',
      ].map((identifier): Refused => [
        `the identifier ${JSON.stringify(identifier)}`,
        () => refused(request(night, identifier), SessionErrors.IdentifierInvalid),
      ]),
      [
        'an unknown group',
        () =>
          refused(request(night, nextEmail(), { groupID: 987_654 }), SessionErrors.GroupNotFound),
      ],
      [
        "another enterprise's group, with its key",
        () => refused(request(theirs, nextEmail()), SessionErrors.GroupNotFound),
      ],
      ...[0, -1, 1.5, Number.MAX_SAFE_INTEGER + 2].map((groupID): Refused => [
        `groupID ${groupID}`,
        () => refused(request(night, nextEmail(), { groupID }), SessionErrors.GroupNotFound),
      ]),
      [
        'a wrong group key',
        () =>
          refused(
            request(night, nextEmail(), { groupKey: 'gk_wrong' }),
            SessionErrors.InvalidGroupKey,
          ),
      ],
      [
        "another group's key",
        () =>
          refused(
            request(night, nextEmail(), { groupKey: keys.get(day) }),
            SessionErrors.InvalidGroupKey,
          ),
      ],
      ...['http://app.example.com/done', 'https://localhost/done', 'https://10.0.0.1/done'].map(
        (returnURL): Refused => [
          `returnURL ${returnURL}`,
          () =>
            refused(request(night, nextEmail(), { returnURL }), SessionErrors.ReturnUrlNotHttps),
        ],
      ),
      // The spec's order: group, key, identifier, returnURL.
      [
        'an unknown group with a wrong key, a bad identifier and an http returnURL',
        () =>
          refused(
            request(night, 'nobody', {
              groupID: 987_654,
              groupKey: 'gk_wrong',
              returnURL: 'http://x.example',
            }),
            SessionErrors.GroupNotFound,
          ),
      ],
      [
        'a wrong key, a bad identifier and an http returnURL',
        () =>
          refused(
            request(night, 'nobody', { groupKey: 'gk_wrong', returnURL: 'http://x.example' }),
            SessionErrors.InvalidGroupKey,
          ),
      ],
      [
        'a bad identifier and an http returnURL',
        () =>
          refused(
            request(night, 'nobody', { returnURL: 'http://x.example' }),
            SessionErrors.IdentifierInvalid,
          ),
      ],
    ];

    it.each(refusals)('refuses %s with 400, changing nothing', async (_, build) => {
      const { asked, error } = await build();
      const before = await rowCounts(t);
      expect(await refusal(service.create(acme, asked))).toEqual({ status: 400, error });
      expect(await rowCounts(t)).toEqual(before);
    });
  });

  describe('Idempotency-Key', () => {
    const idempotencyRow = (key: string, enterpriseId = acme) =>
      t.one<{ requestHash: string; response: string; externalId: string }>(
        `SELECT request_hash AS "requestHash", response_ciphertext AS response,
                external_id AS "externalId"
           FROM idempotency_keys WHERE enterprise_id = $1 AND key = $2`,
        [enterpriseId, key],
      );

    it('the same key and request answer the first answer, creating nothing more', async () => {
      const address = nextEmail();
      const first = await service.create(acme, request(night, address), 'same-request');
      const before = await rowCounts(t);
      const replay = await service.create(acme, request(night, address), 'same-request');
      expect(JSON.stringify(replay)).toBe(JSON.stringify(first));
      expect(await rowCounts(t)).toEqual(before);
      expect(await sessionCountOf(first.userIdentifier)).toBe(1);
      // Kept sealed, with the participant it names (for erasure); the request keyed, not hashed.
      const stored = await idempotencyRow('same-request');
      expect(JSON.parse(cipher.decrypt(stored.response))).toEqual(first);
      expect(stored.externalId).toBe(first.userIdentifier);
      const requestText = JSON.stringify([night, keys.get(night), address, RETURN_URL]);
      expect(stored.requestHash).toMatch(/^[0-9a-f]{64}$/);
      expect(stored.requestHash).not.toBe(sha256Hex(requestText));
      expect(JSON.stringify(stored)).not.toContain(address);
      expect(JSON.stringify(stored)).not.toContain(first.sessionID);
    });

    it('a later session by ok_ id is replayed too', async () => {
      const first = await service.create(acme, request(night, nextEmail()));
      const later = await service.create(acme, request(night, first.userIdentifier), 'later');
      expect(await service.create(acme, request(night, first.userIdentifier), 'later')).toEqual(
        later,
      );
      expect(await sessionCountOf(first.userIdentifier)).toBe(2);
    });

    it.each([
      ['another email', () => ({ userIdentifier: nextEmail() })],
      ['another returnURL', () => ({ returnURL: 'https://app.example.com/other' })],
      ['another group of the enterprise', () => ({ groupID: day, groupKey: keys.get(day) })],
    ])(
      'the same key with %s is 409 and changes nothing',
      async (_, change: () => Partial<CreateSessionDto>) => {
        const key = `reused-${emails}`;
        await service.create(acme, request(night, nextEmail()), key);
        const before = await rowCounts(t);
        expect(
          await refusal(service.create(acme, request(night, nextEmail(), change()), key)),
        ).toEqual({ status: 409, error: SessionErrors.IdempotencyKeyReused });
        expect(await rowCounts(t)).toEqual(before);
      },
    );

    it('keys are per enterprise: the same key elsewhere is a request of its own', async () => {
      const ours = await service.create(acme, request(night, nextEmail()), 'shared-key');
      const theirsAnswer = await service.create(globex, request(theirs, nextEmail()), 'shared-key');
      expect(theirsAnswer.sessionID).not.toBe(ours.sessionID);
      expect(theirsAnswer.userIdentifier).not.toBe(ours.userIdentifier);
      expect((await idempotencyRow('shared-key', globex)).externalId).toBe(
        theirsAnswer.userIdentifier,
      );
      expect((await idempotencyRow('shared-key', acme)).externalId).toBe(ours.userIdentifier);
    });

    it('a refused request does not hold its key', async () => {
      const member = await service.create(acme, request(night, nextEmail()));
      const asked = request(day, member.userIdentifier);
      expect(await refusal(service.create(acme, asked, 'after-refusal'))).toEqual({
        status: 400,
        error: SessionErrors.NotInGroup(member.userIdentifier, day),
      });
      expect(
        await t.rows('SELECT key FROM idempotency_keys WHERE key = $1', ['after-refusal']),
      ).toEqual([]);
      const { id } = await participantOf(member.userIdentifier);
      await t.membership(id, day);
      const created = await service.create(acme, asked, 'after-refusal');
      expect(created.userIdentifier).toBe(member.userIdentifier);
      expect(await service.create(acme, asked, 'after-refusal')).toEqual(created);
    });

    it('a key is kept 24 hours: then another request may use it', async () => {
      await service.create(acme, request(night, nextEmail()), 'day-old');
      const age = (interval: string) =>
        t.rows(
          `UPDATE idempotency_keys SET created_at = now() - $2::interval
            WHERE enterprise_id = $1 AND key = 'day-old'`,
          [acme, interval],
        );
      await age('23 hours 59 minutes');
      expect(await refusal(service.create(acme, request(night, nextEmail()), 'day-old'))).toEqual({
        status: 409,
        error: SessionErrors.IdempotencyKeyReused,
      });
      await age('24 hours 1 second');
      const address = nextEmail();
      const fresh = await service.create(acme, request(night, address), 'day-old');
      expect((await idempotencyRow('day-old')).externalId).toBe(fresh.userIdentifier);
      expect(await service.create(acme, request(night, address), 'day-old')).toEqual(fresh);
    });

    it.each([
      ['empty', ''],
      ['256 characters', '~'.repeat(256)],
      ['with a space', 'a key'],
      ['with a tab', 'a\tkey'],
      ['non-ASCII', 'clé'],
    ])('a key %s is refused first, changing nothing', async (_, key) => {
      const before = await rowCounts(t);
      expect(
        await refusal(service.create(acme, request(theirs, 'nobody', { groupKey: 'x' }), key)),
      ).toEqual({ status: 400, error: SessionErrors.IdempotencyKeyInvalid });
      expect(await rowCounts(t)).toEqual(before);
    });

    it('keys of 1 and 255 visible ASCII characters are accepted', async () => {
      for (const key of ['!', `${'~'.repeat(254)}!`]) {
        const answer = await service.create(acme, request(night, nextEmail()), key);
        expect((await idempotencyRow(key)).externalId).toBe(answer.userIdentifier);
      }
    });

    it('concurrent requests with one key, each in its own transaction, create one session', async () => {
      // A connection more than requests: a statement wrongly run outside its transaction fails the
      // test instead of waiting forever for a connection.
      const concurrent = sessionsServiceOn(await t.openDatabase(6), cipher).service;
      const address = nextEmail();
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          concurrent.create(acme, request(night, address), 'concurrent'),
        ),
      );
      expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
      expect(await sessionCountOf(answers[0].userIdentifier)).toBe(1);
      expect(await userCreatedEvents(answers[0].userIdentifier)).toHaveLength(1);
    });
  });

  describe('get', () => {
    const COMPLETED_AT = new Date('2026-11-20T10:00:00Z');
    const result = (): StoredResult => ({
      completedAt: COMPLETED_AT,
      version: 'v1.2.3',
      mhci: 71.5,
      subscores: { vision: 61, audio: 72, transcript: 83, assessment: 94 },
      sealedTranscript: sealTranscript(cipher, TURNS),
      sealedFeatures: sealJson(cipher, { speech_rate: 2.7, pause: 0.125 }),
      sealedWordCounts: sealJson(cipher, { badly: 1, deadlines: 1 }),
      countedWords: 2,
      groupPercentiles: { zeta: 0.25, alpha: 0.75 },
      userPercentiles: { pause: 0.5 },
      resultHash: 'hash',
      synthetic: false,
    });

    /** A completed session of a new participant of Night shift; its levels as given. */
    const completed = async (member: number, own: number | null) => {
      const created = await service.create(acme, request(night, nextEmail()));
      await sessions.complete(created.sessionID, result(), 'memberLevel');
      await setMemberLevel(t, created.sessionID, member);
      await setSharedLevel(t, created.sessionID, own);
      return created;
    };

    /** Everything a session shows at level 5, in answer order. */
    const everything = (created: { userIdentifier: string; sessionID: string }) => ({
      externalID: created.userIdentifier,
      sessionID: created.sessionID,
      timestamp: '2026-11-20T10:00:00.000Z',
      groupID: night,
      version: 'v1.2.3',
      mhci: 71.5,
      subscores: { vision: 61, audio: 72, transcript: 83, assessment: 94 },
      groupPercentiles: { alpha: 0.75, zeta: 0.25 },
      userPercentiles: { pause: 0.5 },
      transcript: TURNS,
      features: { pause: 0.125, speech_rate: 2.7 },
    });
    const limitedTo = (view: Record<string, unknown>, level: number) =>
      Object.fromEntries(fieldsAt(level).map((field) => [field, view[field]]));

    it('a pending session shows the level-0 fields, whatever the levels', async () => {
      const created = await service.create(acme, request(night, nextEmail()));
      await setMemberLevel(t, created.sessionID, 5);
      await setSharedLevel(t, created.sessionID, 5);
      const { createdAt } = await t.one<{ createdAt: Date }>(
        'SELECT created_at AS "createdAt" FROM sessions WHERE session_id = $1',
        [created.sessionID],
      );
      const view = await service.get(acme, created.sessionID);
      expect(Object.keys(view)).toEqual(fieldsAt(0));
      expect(view).toEqual({
        externalID: created.userIdentifier,
        sessionID: created.sessionID,
        timestamp: createdAt.toISOString(),
        groupID: night,
        version: 'v0.0.0',
      });
    });

    it.each([0, 1, 2, 3, 4, 5])(
      'level %i shows exactly its fields and those below, in answer order',
      async (level) => {
        const created = await completed(level, level);
        const view = (await service.get(acme, created.sessionID)) as unknown as Record<
          string,
          unknown
        >;
        expect(Object.keys(view)).toEqual(fieldsAt(level));
        expect(view).toEqual(limitedTo(everything(created), level));
        if (level >= 1)
          expect(Object.keys(view.subscores as object)).toEqual([
            'vision',
            'audio',
            'transcript',
            'assessment',
          ]);
        if (level >= 2)
          expect(Object.keys(view.groupPercentiles as object)).toEqual(['alpha', 'zeta']);
        if (level === 5)
          expect(Object.keys(view.features as object)).toEqual(['pause', 'speech_rate']);
      },
    );

    it.each([
      [5, 2, 2],
      [1, 5, 1],
      [3, 4, 3],
      [0, 5, 0],
      [4, 0, 0],
      [5, null, 0],
    ])(
      "the member's level %p now and the check-in's own %p: shown at %p (the lower)",
      async (member, own, shown) => {
        const created = await completed(member, own);
        const view = await service.get(acme, created.sessionID);
        expect(view).toEqual(limitedTo(everything(created), shown));
      },
    );

    it('after retention removed transcript and features: an empty conversation and no features', async () => {
      const created = await completed(5, 5);
      await sessions.clearDetails([created.sessionID], t.db);
      expect(await service.get(acme, created.sessionID)).toEqual({
        ...everything(created),
        transcript: [],
        features: {},
      });
    });

    it("another enterprise's, an unknown and a malformed session are all Session not found", async () => {
      const created = await completed(5, 5);
      expect(await service.get(acme, created.sessionID)).toEqual(everything(created));
      for (const [enterpriseId, sessionId] of [
        [globex, created.sessionID],
        [acme, 'ses_AAAAAAAAAAAAAAAAAAAAAAAA'],
        [acme, created.sessionID.slice(0, -1)],
        [acme, `${created.sessionID} `],
        [acme, 'nope'],
      ]) {
        for (const read of [
          () => service.get(enterpriseId, sessionId),
          () => service.findOwned(enterpriseId, sessionId),
        ]) {
          expect({ sessionId, answer: await refusal(read()) }).toEqual({
            sessionId,
            answer: { status: 400, error: SessionErrors.NotFound },
          });
        }
      }
    });
  });
});
