/**
 * IngestionService below HTTP, with its real repositories and outbox on PostgreSQL
 * (docs/checkin-flow.md "Result ingestion", docs/metrics.md). It pins down:
 * - a result completes a pending session exactly once: stored with its transcript, features and
 *   word counts sealed, words counted from the participant's turns only, the check-in's own level
 *   kept (or the member's level when never handed off), one credit deducted, the session in its
 *   enterprise's release window (made then if it is the window's first result) and pending there
 *   — or counted late when that window was already released — and counted in its UTC day, and
 *   `user.session.result` in the outbox — all in one transaction (an outbox failing after its
 *   write leaves nothing, not even the window it made);
 * - `completedAt`: stored as given (absent: now), part of what makes a result "the same"; the
 *   result body accepts it from 2000-01-01 to 5 minutes ahead of the clock, else
 *   `Invalid completedAt`;
 * - the same result again (also concurrently) changes nothing; a different one is 409; an unknown
 *   or malformed session is 400; a sandbox's session (unless synthetic) and a member without
 *   consent where the group requires it are 409 — each refusal storing nothing;
 * - features join the group comparisons only when the session is shown at level 5 (the lower of
 *   its own and the member's level), and percentiles compare only with sessions shown at level 5.
 */
import { PiiCipher } from '../../src/common/crypto/pii-cipher';
import { SpecValidationPipe } from '../../src/common/validation/spec-validation.pipe';
import { IngestionErrors } from '../../src/ingestion/ingestion.errors';
import type { IngestionService } from '../../src/ingestion/ingestion.service';
import { SessionResultDto } from '../../src/ingestion/session-result.dto';
import { openJson, openTranscript } from '../../src/sessions/transcript-codec';
import { conversation, engineResult, EngineResult, userSays } from '../support/engine';
import { match } from '../support/matchers';
import {
  FailingAfterInsertEvents,
  handedOffAndConfirmed,
  ingestionServiceOn,
  newCipher,
  refusal,
  rowCounts,
  setSharedLevel,
  subscribedEndpoint,
  windowReleaserOn,
} from './service-fixtures';
import { TestDatabase } from './support';

const TRANSCRIPT = [
  ...conversation('How did you sleep this week?', 'Badly. Work stress, deadlines, more deadlines.'),
  ...conversation('Tell me about work.', 'Deadlines everywhere, but my team helps.'),
  ...userSays("I don't sleep; 2x A"),
];
/** The participant's turns above, counted: letters only, no stopwords, no single letters. */
const WORDS = {
  badly: 1,
  deadlines: 3,
  dont: 1,
  everywhere: 1,
  helps: 1,
  sleep: 1,
  stress: 1,
  team: 1,
  work: 1,
};

/** This file's result; each test overrides only what it is about. */
const result = (overrides: Partial<EngineResult> = {}): EngineResult =>
  engineResult({
    version: 'v1.2.3',
    mhci: 70,
    subscores: { vision: 61, audio: 72, transcript: 83, assessment: 94 },
    transcript: TRANSCRIPT,
    features: { pitch: 0.5, pace: 2 },
    completedAt: '2026-11-20T10:00:00Z',
    ...overrides,
  });

interface StoredSession {
  status: string;
  completedAt: Date | null;
  version: string | null;
  mhci: number | null;
  subscores: unknown;
  transcript: string | null;
  features: string | null;
  wordCounts: string | null;
  countedWords: number | null;
  groupPercentiles: unknown;
  userPercentiles: unknown;
  resultHash: string | null;
  synthetic: boolean;
  sharedLevel: number | null;
  featuresShared: boolean;
}

describe('IngestionService (PostgreSQL)', () => {
  let t: TestDatabase;
  const cipher: PiiCipher = newCipher();
  let ingestion: IngestionService;
  let acme: string;
  let night: number;

  beforeAll(async () => {
    t = await TestDatabase.create();
    ingestion = ingestionServiceOn(t.db, cipher);
    acme = await t.enterprise('Acme');
    night = await t.group(acme, { name: 'Night shift' });
  });
  afterAll(() => t.close());

  /** A participant of the group at `level` with a pending session. */
  const pending = async (
    groupId = night,
    level = 0,
    enterpriseId = acme,
    options: { handedOff?: boolean } = {},
  ) => {
    const participantId = await t.participant(enterpriseId);
    await t.membership(participantId, groupId, level);
    return {
      participantId,
      ...(await anotherSession(participantId, groupId, enterpriseId, options)),
    };
  };
  /**
   * Another pending session of the participant (a member of the group), handed off from its page
   * at the member's level and confirmed by that browser (docs/checkin-flow.md, "Hand-off"),
   * unless `handedOff: false`.
   */
  const anotherSession = async (
    participantId: string,
    groupId: number,
    enterpriseId = acme,
    options: { handedOff?: boolean } = {},
  ) => {
    const sessionId = await t.session(enterpriseId, participantId, groupId);
    if (options.handedOff ?? true) await handedOffAndConfirmed(t, sessionId);
    const { externalId } = await t.one<{ externalId: string }>(
      'SELECT external_id AS "externalId" FROM participants WHERE id = $1',
      [participantId],
    );
    return { sessionId, externalId };
  };

  const stored = (sessionId: string) =>
    t.one<StoredSession>(
      `SELECT status, completed_at AS "completedAt", version, mhci, subscores, transcript, features,
              word_counts AS "wordCounts", counted_words AS "countedWords",
              group_percentiles AS "groupPercentiles", user_percentiles AS "userPercentiles",
              result_hash AS "resultHash", synthetic, shared_level AS "sharedLevel",
              features_shared AS "featuresShared"
         FROM sessions WHERE session_id = $1`,
      [sessionId],
    );
  const credits = async (groupId: number) =>
    (await t.one<{ credits: number }>('SELECT credits FROM groups WHERE group_id = $1', [groupId]))
      .credits;
  const resultEvents = (sessionId: string) =>
    t.rows<{ id: string; enterpriseId: string; groupId: number; payload: unknown; pii: unknown }>(
      `SELECT id, enterprise_id AS "enterpriseId", group_id AS "groupId", payload,
              encrypted_pii AS pii
         FROM events WHERE type = 'user.session.result' AND payload->>'sessionID' = $1`,
      [sessionId],
    );
  const newGroup = async (name: string, options: { consentRequired?: boolean } = {}) => {
    const groupId = await t.group(acme, { name });
    if (options.consentRequired) {
      await t.rows('UPDATE groups SET consent_required = true WHERE group_id = $1', [groupId]);
    }
    return groupId;
  };

  describe('completing a pending session', () => {
    it('stores the result once, sealed, with the words of the participant turns counted', async () => {
      const session = await pending(night, 3);
      expect(await ingestion.ingest(session.sessionId, result())).toBe('completed');
      const row = await stored(session.sessionId);
      expect(row).toEqual({
        status: 'completed',
        completedAt: new Date('2026-11-20T10:00:00Z'),
        version: 'v1.2.3',
        mhci: 70,
        subscores: { vision: 61, audio: 72, transcript: 83, assessment: 94 },
        transcript: match.stringMatching(/^v2\.k0\./),
        features: match.stringMatching(/^v2\.k0\./),
        wordCounts: match.stringMatching(/^v2\.k0\./),
        countedWords: 11,
        groupPercentiles: {},
        userPercentiles: {},
        resultHash: match.stringMatching(/^[0-9a-f]{64}$/),
        synthetic: false,
        // Handed off from its page at the member's level, and confirmed.
        sharedLevel: 3,
        featuresShared: false,
      });
      expect(openTranscript(cipher, row.transcript as string)).toEqual(TRANSCRIPT);
      expect(openJson(cipher, row.features as string)).toEqual({ pitch: 0.5, pace: 2 });
      const words = openJson<Record<string, number>>(cipher, row.wordCounts as string);
      expect(words).toEqual(WORDS);
      expect(Object.keys(words)).toEqual(Object.keys(WORDS));
      const everything = JSON.stringify(
        await t.rows('SELECT * FROM sessions WHERE session_id = $1', [session.sessionId]),
      );
      for (const plain of ['deadlines', 'Badly', 'pitch']) expect(everything).not.toContain(plain);
    });

    it('records a check-in no page handed off (or never confirmed) at level 0, pinned there; a sandbox’s made-up result at the member’s level', async () => {
      const direct = await pending(night, 5, acme, { handedOff: false });
      await ingestion.ingest(direct.sessionId, result());
      expect((await stored(direct.sessionId)).sharedLevel).toBe(0);
      expect(
        await t.rows('SELECT level_pinned FROM sessions WHERE session_id = $1', [direct.sessionId]),
      ).toEqual([{ level_pinned: true }]);
      // Handed off (a level recorded, a token) but never confirmed: 0 as well.
      const unconfirmed = await pending(night, 4, acme, { handedOff: false });
      await t.rows(
        "UPDATE sessions SET shared_level = 4, handoff_token_hash = 'h' WHERE session_id = $1",
        [unconfirmed.sessionId],
      );
      await ingestion.ingest(unconfirmed.sessionId, result());
      expect((await stored(unconfirmed.sessionId)).sharedLevel).toBe(0);
    });

    it("keeps the level the check-in was handed off at, though the member's level changed since", async () => {
      const session = await pending(night, 5);
      await setSharedLevel(t, session.sessionId, 2);
      await ingestion.ingest(session.sessionId, result());
      expect((await stored(session.sessionId)).sharedLevel).toBe(2);
    });

    it("deducts one credit (going negative), and adds the session to its window, pending, and its UTC day's count", async () => {
      const enterprise = await t.enterprise('Windows');
      const group = await t.group(enterprise, { name: 'Credits' });
      const session = await pending(group, 0, enterprise);
      await ingestion.ingest(
        session.sessionId,
        result({ completedAt: '2026-11-19T23:30:00-01:00' }),
      );
      expect(await credits(group)).toBe(-1);
      // Its day is 20 November (UTC): the enterprise's first result of November makes its month.
      expect(
        await t.rows(
          `SELECT kind, first_day::text AS "firstDay", last_day::text AS "lastDay",
                  epsilon_year::float8 AS "epsilonYear", released_at AS "releasedAt"
             FROM metric_windows WHERE enterprise_id = $1`,
          [enterprise],
        ),
      ).toEqual([
        {
          kind: 'month',
          firstDay: '2026-11-01',
          lastDay: '2026-11-30',
          epsilonYear: 24,
          releasedAt: null,
        },
      ]);
      expect(
        await t.rows(
          'SELECT series, group_id AS "groupId" FROM cohort_pending WHERE session_id = $1 ORDER BY series',
          [session.sessionId],
        ),
      ).toEqual([
        { series: 'scores', groupId: group },
        { series: 'words', groupId: group },
      ]);
      expect(
        await t.rows(
          `SELECT to_char(day, 'YYYY-MM-DD') AS day, sessions FROM group_day_counts
            WHERE group_id = $1`,
          [group],
        ),
      ).toEqual([{ day: '2026-11-20', sessions: 1 }]);
    });

    it("a result for a window already released joins no release: not pending, counted late in its group's release, and in its day", async () => {
      const enterprise = await t.enterprise('Late');
      const group = await t.group(enterprise, { name: 'Late' });
      const first = await pending(group, 0, enterprise);
      await ingestion.ingest(first.sessionId, result({ completedAt: '2026-06-10T10:00:00Z' }));
      const releaser = windowReleaserOn(t.db, cipher);
      expect(await releaser.releaseEnterprise(enterprise, new Date('2026-07-05T00:00:00Z'))).toBe(
        1,
      );

      const late = await pending(group, 0, enterprise);
      expect(
        await ingestion.ingest(late.sessionId, result({ completedAt: '2026-06-20T10:00:00Z' })),
      ).toBe('completed');
      expect(
        await t.rows('SELECT series FROM cohort_pending WHERE session_id = $1', [late.sessionId]),
      ).toEqual([]);
      expect(
        await t.rows(
          `SELECT series, participants, late_results AS "lateResults" FROM metric_releases
            WHERE group_id = $1 ORDER BY series`,
          [group],
        ),
      ).toEqual([
        { series: 'scores', participants: 1, lateResults: 1 },
        { series: 'words', participants: 1, lateResults: 1 },
      ]);
      expect(
        await t.rows(
          `SELECT to_char(day, 'YYYY-MM-DD') AS day, sessions FROM group_day_counts
            WHERE group_id = $1 ORDER BY day`,
          [group],
        ),
      ).toEqual([
        { day: '2026-06-10', sessions: 1 },
        { day: '2026-06-20', sessions: 1 },
      ]);
    });

    it('writes user.session.result to the outbox, with one delivery per endpoint taking it', async () => {
      const group = await newGroup('Outbox');
      const taking = await subscribedEndpoint(t, acme, group, ['user.session.result']);
      await subscribedEndpoint(t, acme, group, ['user.created']);
      const session = await pending(group);
      await ingestion.ingest(session.sessionId, result());
      const events = await resultEvents(session.sessionId);
      expect(events).toEqual([
        {
          id: match.stringMatching(/^evt_[0-9a-f]{48}$/),
          enterpriseId: acme,
          groupId: group,
          payload: {
            groupID: group,
            sessionID: session.sessionId,
            externalUserID: session.externalId,
            timestamp: '2026-11-20T10:00:00.000Z',
          },
          pii: null,
        },
      ]);
      expect(
        await t.rows(
          'SELECT endpoint_id AS "endpointId", status FROM webhook_deliveries WHERE event_id = $1',
          [events[0].id],
        ),
      ).toEqual([{ endpointId: taking, status: 'pending' }]);
    });

    it('is one transaction: an outbox failing after its write leaves the session pending and nothing stored', async () => {
      const group = await newGroup('Atomic');
      const session = await pending(group, 5, acme, { handedOff: false });
      const failing = ingestionServiceOn(t.db, cipher, new FailingAfterInsertEvents(t.db, cipher));
      const before = await rowCounts(t);
      // The first result of its month: the window it made goes with the rest.
      const atomic = result({ completedAt: '2026-02-11T10:00:00Z' });
      await expect(failing.ingest(session.sessionId, atomic)).rejects.toThrow(
        FailingAfterInsertEvents.failure,
      );
      expect(await rowCounts(t)).toEqual(before);
      expect(await stored(session.sessionId)).toMatchObject({
        status: 'created',
        completedAt: null,
        resultHash: null,
        sharedLevel: null,
        featuresShared: false,
      });
      expect(await credits(group)).toBe(0);
      // And it completes once the outbox works, in its window.
      expect(await ingestion.ingest(session.sessionId, atomic)).toBe('completed');
      expect(
        await t.rows(
          `SELECT first_day::text AS "firstDay" FROM metric_windows
            WHERE enterprise_id = $1 AND '2026-02-11' BETWEEN first_day AND last_day`,
          [acme],
        ),
      ).toEqual([{ firstDay: '2026-02-01' }]);
      expect(await resultEvents(session.sessionId)).toHaveLength(1);
    });

    it('without completedAt, completes now', async () => {
      const session = await pending();
      const before = Date.now();
      await ingestion.ingest(session.sessionId, result({ completedAt: undefined }));
      const after = Date.now();
      const { completedAt } = await stored(session.sessionId);
      expect((completedAt as Date).getTime()).toBeGreaterThanOrEqual(before);
      expect((completedAt as Date).getTime()).toBeLessThanOrEqual(after);
      const [event] = await resultEvents(session.sessionId);
      expect(event.payload).toMatchObject({ timestamp: (completedAt as Date).toISOString() });
    });
  });

  describe('exactly once', () => {
    it('the same result again is a no-op: no second completion, event or credit', async () => {
      const group = await newGroup('Twice');
      const session = await pending(group, 5);
      await ingestion.ingest(session.sessionId, result());
      const rowBefore = await stored(session.sessionId);
      const countsBefore = await rowCounts(t);
      expect(await ingestion.ingest(session.sessionId, result())).toBe('already-recorded');
      expect(await stored(session.sessionId)).toEqual(rowBefore);
      expect(await rowCounts(t)).toEqual(countsBefore);
      expect(await credits(group)).toBe(-1);
      expect(await resultEvents(session.sessionId)).toHaveLength(1);
    });

    it.each([
      ['without completedAt, later', { completedAt: undefined }, { completedAt: undefined }],
      [
        'completedAt at the same instant in another offset',
        {},
        { completedAt: '2026-11-20T11:00:00+01:00' },
      ],
      ['features in another order', {}, { features: { pace: 2, pitch: 0.5 } }],
    ])(
      'the same result (%s) is the same',
      async (_, first: Partial<EngineResult>, again: Partial<EngineResult>) => {
        const session = await pending();
        await ingestion.ingest(session.sessionId, result(first));
        expect(await ingestion.ingest(session.sessionId, result(again))).toBe('already-recorded');
      },
    );

    it.each([
      ['another mhci', { mhci: 12 }],
      ['another version', { version: 'v1.2.4' }],
      [
        'another subscore',
        { subscores: { vision: 61, audio: 72, transcript: 83, assessment: 95 } },
      ],
      ['another turn', { transcript: [...TRANSCRIPT, ...userSays('one more')] }],
      [
        'a turn of the other role',
        { transcript: TRANSCRIPT.map((turn, i) => (i === 0 ? { ...turn, role: 'user' } : turn)) },
      ],
      ['another feature value', { features: { pitch: 0.5, pace: 2.5 } }],
      ['one more feature', { features: { pitch: 0.5, pace: 2, tone: 1 } }],
      ['another completedAt', { completedAt: '2026-11-20T10:00:01Z' }],
      ['no completedAt', { completedAt: undefined }],
    ] as [string, Partial<EngineResult>][])(
      'a different result (%s) is 409 and changes nothing',
      async (_, change) => {
        const session = await pending(night, 5);
        await ingestion.ingest(session.sessionId, result());
        const rowBefore = await stored(session.sessionId);
        const countsBefore = await rowCounts(t);
        expect(await refusal(ingestion.ingest(session.sessionId, result(change)))).toEqual({
          status: 409,
          error: IngestionErrors.DifferentResult,
        });
        expect(await stored(session.sessionId)).toEqual(rowBefore);
        expect(await rowCounts(t)).toEqual(countsBefore);
      },
    );

    it('posted concurrently on separate connections, a result completes once', async () => {
      // A connection more than posts: a statement wrongly run outside its transaction fails the
      // test instead of waiting forever for a connection.
      const concurrent = ingestionServiceOn(await t.openDatabase(5), cipher);
      const group = await newGroup('Concurrent');
      const session = await pending(group, 5);
      const outcomes = await Promise.all(
        Array.from({ length: 4 }, () => concurrent.ingest(session.sessionId, result())),
      );
      expect([...outcomes].sort()).toEqual([
        'already-recorded',
        'already-recorded',
        'already-recorded',
        'completed',
      ]);
      expect(await resultEvents(session.sessionId)).toHaveLength(1);
      expect(await credits(group)).toBe(-1);
      expect(
        await t.rows('SELECT count FROM group_feature_values WHERE group_id = $1', [group]),
      ).toEqual([{ count: 1 }, { count: 1 }]);
    });
  });

  describe('refusals', () => {
    it.each([
      ['an unknown session', 'ses_AAAAAAAAAAAAAAAAAAAAAAAA'],
      ['a malformed id', 'nope'],
      ['an id with a space', 'ses_AAAAAAAAAAAAAAAAAAAAAAA '],
      ['an empty id', ''],
    ])('%s is 400 Session not found, storing nothing', async (_, sessionId) => {
      const before = await rowCounts(t);
      expect(await refusal(ingestion.ingest(sessionId, result()))).toEqual({
        status: 400,
        error: IngestionErrors.SessionNotFound,
      });
      expect(await rowCounts(t)).toEqual(before);
    });

    it("a sandbox enterprise's session is 409 for the engine; a synthetic result completes it", async () => {
      const sandbox = await t.enterprise('Sandbox', { sandbox: true });
      const group = await t.group(sandbox);
      const session = await pending(group, 0, sandbox);
      const before = await rowCounts(t);
      const sandboxRefusal = { status: 409, error: IngestionErrors.SandboxSession };
      expect(await refusal(ingestion.ingest(session.sessionId, result()))).toEqual(sandboxRefusal);
      expect(await rowCounts(t)).toEqual(before);
      expect((await stored(session.sessionId)).status).toBe('created');
      expect(await ingestion.ingest(session.sessionId, result(), { synthetic: true })).toBe(
        'completed',
      );
      expect(await stored(session.sessionId)).toMatchObject({
        status: 'completed',
        synthetic: true,
      });
      expect(await resultEvents(session.sessionId)).toHaveLength(1);
      // Even the same result, from the engine, stays refused.
      expect(await refusal(ingestion.ingest(session.sessionId, result()))).toEqual(sandboxRefusal);
    });

    it("a synthetic result for an ordinary enterprise's session is stored flagged synthetic", async () => {
      const session = await pending();
      await ingestion.ingest(session.sessionId, result(), { synthetic: true });
      expect((await stored(session.sessionId)).synthetic).toBe(true);
    });

    it.each([
      ['neither the member nor the check-in consented', false, false, false],
      ['the member consented, not to this check-in', true, false, false],
      ['the check-in consented, the member withdrew since', false, true, false],
      ['both consented', true, true, true],
    ])(
      'where the group requires consent: %s',
      async (_, memberConsented, checkinConsented, completes) => {
        const group = await newGroup('Consent', { consentRequired: true });
        const session = await pending(group);
        if (memberConsented) {
          await t.rows(
            'UPDATE memberships SET consented_at = now() WHERE participant_id = $1 AND group_id = $2',
            [session.participantId, group],
          );
        }
        if (checkinConsented) {
          await t.rows('UPDATE sessions SET consented_at = now() WHERE session_id = $1', [
            session.sessionId,
          ]);
        }
        const before = await rowCounts(t);
        if (completes) {
          expect(await ingestion.ingest(session.sessionId, result())).toBe('completed');
          return;
        }
        expect(await refusal(ingestion.ingest(session.sessionId, result()))).toEqual({
          status: 409,
          error: IngestionErrors.ConsentMissing,
        });
        expect(await rowCounts(t)).toEqual(before);
        expect((await stored(session.sessionId)).status).toBe('created');
        expect(await credits(group)).toBe(0);
      },
    );

    it('a group that does not require consent takes a result without any', async () => {
      const session = await pending(await newGroup('No consent'));
      expect(await ingestion.ingest(session.sessionId, result())).toBe('completed');
    });
  });

  describe('the group comparisons: level 5 only', () => {
    const groupValues = (groupId: number) =>
      t.rows<{ name: string; value: number; count: number }>(
        'SELECT name, value, count FROM group_feature_values WHERE group_id = $1 ORDER BY name',
        [groupId],
      );
    const histogramTotal = async (groupId: number) =>
      (
        await t.one<{ total: number }>(
          'SELECT coalesce(sum(count), 0)::int AS total FROM group_feature_histograms WHERE group_id = $1',
          [groupId],
        )
      ).total;

    it.each([
      // Own level null: no page handed the check-in off, so it is recorded at 0 (docs/privacy.md).
      [5, null, false],
      [4, null, false],
      [0, null, false],
      [5, 5, true],
      [5, 4, false],
      [3, 5, false],
    ])("member at %p, check-in's own level %p: features shared %p", async (member, own, shared) => {
      const group = await newGroup(`Shared ${member} ${own}`);
      const session = await pending(group, member);
      await setSharedLevel(t, session.sessionId, own);
      await ingestion.ingest(session.sessionId, result());
      expect((await stored(session.sessionId)).featuresShared).toBe(shared);
      expect(await groupValues(group)).toEqual(
        shared
          ? [
              { name: 'pace', value: 2, count: 1 },
              { name: 'pitch', value: 0.5, count: 1 },
            ]
          : [],
      );
      expect(await histogramTotal(group)).toBe(shared ? 2 : 0);
    });

    it("group percentiles compare with the group's sessions shown at level 5 only, per feature", async () => {
      const group = await newGroup('Percentiles');
      const shown = await pending(group, 5);
      const hidden = await pending(group, 4);
      await ingestion.ingest(shown.sessionId, result({ features: { x: 1 } }));
      await ingestion.ingest(hidden.sessionId, result({ features: { x: 2 } }));
      // Compared with [1] (the hidden 2 is not counted): (1 below + ½·(0 equal + 1)) / (1 + 1).
      const third = await pending(group, 0);
      await ingestion.ingest(third.sessionId, result({ features: { x: 2, y: 7 } }));
      expect((await stored(third.sessionId)).groupPercentiles).toEqual({ x: 0.75 });
      expect((await stored(hidden.sessionId)).groupPercentiles).toEqual({ x: 0.75 });
      expect((await stored(shown.sessionId)).groupPercentiles).toEqual({});
    });

    it("user percentiles compare with the participant's own sessions shown at level 5, in every group", async () => {
      const first = await newGroup('Mine A');
      const second = await newGroup('Mine B');
      const hiddenGroup = await newGroup('Mine hidden');
      const me = await pending(first, 5);
      await t.membership(me.participantId, second, 5);
      await t.membership(me.participantId, hiddenGroup, 4);
      await ingestion.ingest(me.sessionId, result({ features: { x: 1 } }));
      const hidden = await anotherSession(me.participantId, hiddenGroup);
      await ingestion.ingest(hidden.sessionId, result({ features: { x: 0 } }));
      // Someone else's session at level 5 in the same group: not mine.
      const colleague = await pending(second, 5);
      await ingestion.ingest(colleague.sessionId, result({ features: { x: 5 } }));
      const later = await anotherSession(me.participantId, second);
      await ingestion.ingest(later.sessionId, result({ features: { x: 3, y: 1 } }));
      // Mine shown at level 5: [1]; and 3: (1 below + ½·1) / 2.
      expect((await stored(later.sessionId)).userPercentiles).toEqual({ x: 0.75 });
      expect((await stored(me.sessionId)).userPercentiles).toEqual({});
      // The hidden one compared with [1] too: 0 is below it → (0 + ½) / 2.
      expect((await stored(hidden.sessionId)).userPercentiles).toEqual({ x: 0.25 });
    });
  });

  describe('completedAt in the result body', () => {
    const NOW = Date.parse('2026-11-20T12:00:00Z');
    const pipe = new SpecValidationPipe();
    const validate = async (completedAt: unknown): Promise<string | null> => {
      const now = jest.spyOn(Date, 'now').mockReturnValue(NOW);
      try {
        await pipe.transform(
          { ...result({ completedAt: undefined }), completedAt },
          { type: 'body', metatype: SessionResultDto },
        );
        return null;
      } catch (error) {
        return (error as Error).message;
      } finally {
        now.mockRestore();
      }
    };

    it.each([
      '2000-01-01T00:00:00Z',
      '2000-01-01T01:00:00+01:00',
      '2026-11-20T12:05:00Z',
      '2026-11-20T13:04:59+01:00',
      '2026-11-20T12:00:00.123456789Z',
      '2026-11-20T12:00Z',
    ])('accepts %s', async (completedAt) => {
      expect(await validate(completedAt)).toBeNull();
    });

    it('accepts a result without it', async () => {
      expect(await validate(undefined)).toBeNull();
    });

    it.each([
      ['before 2000', '1999-12-31T23:59:59.999Z'],
      ['before 2000 in another offset', '2000-01-01T00:30:00+01:00'],
      ['more than 5 minutes ahead', '2026-11-20T12:05:00.001Z'],
      ['without a time zone', '2026-11-20T12:00:00'],
      ['a date only', '2026-11-20'],
      ['not a date', 'yesterday'],
      ['a number', NOW],
    ])('refuses %s: Invalid completedAt', async (_, completedAt) => {
      expect(await validate(completedAt)).toBe(IngestionErrors.CompletedAtInvalid);
    });
  });
});
