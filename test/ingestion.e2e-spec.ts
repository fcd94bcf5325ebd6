import { shareAt } from './support/levels';
import { featureBucket } from '../src/metrics/rollups/feature-buckets';
import { IngestionErrors } from '../src/ingestion/ingestion.errors';
import { CommonErrors } from '../src/common/errors/common.errors';
import { PiiCipher } from '../src/common/crypto/pii-cipher';
import { SessionErrors } from '../src/sessions/sessions.errors';
import { openJson } from '../src/sessions/transcript-codec';
import { conversation, ENGINE_TOKEN, engineResult, postResult } from './support/engine';
import { match } from './support/matchers';
import {
  SessionCreated,
  startTestApp,
  TestApp,
  TestEnterprise,
  TestGroup,
} from './support/test-app';

/** A small seeded PRNG (mulberry32): the same values on every run. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), state | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** This file's result; an override may be anything, valid or not (the validation tests). */
const result = (overrides: Record<string, unknown> = {}) => ({
  ...engineResult({
    version: 'v1.2.3',
    mhci: 70,
    subscores: { vision: 61, audio: 72, transcript: 83, assessment: 94 },
    transcript: [
      ...conversation(
        'How did you sleep this week?',
        'Badly. Work stress, deadlines, more deadlines.',
      ),
      ...conversation('Tell me about work.', 'Deadlines everywhere, but my team helps.'),
    ],
    features: { pitch: 0.5, pace: 2 },
  }),
  ...overrides,
});

describe('Result ingestion', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let group: TestGroup;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp({ ENGINE_TOKEN });
    acme = await t.newEnterprise('Acme');
    group = await t.newGroup(acme, 'Night shift');
  });
  afterAll(() => t.close());

  const newSession = async (identifier = `p${++n}@example.com`, target = group) => {
    const response = await t.createSession(acme, target, identifier);
    expect(response.status).toBe(200);
    return response.body as SessionCreated;
  };
  const ingest = (sessionId: string, body: unknown, token?: string) =>
    postResult(t, sessionId, body, token);
  const read = async (sessionId: string) =>
    (await t.request('GET', `/sessions/${sessionId}`, { apiKey: acme.apiKey })).body as Record<
      string,
      unknown
    >;
  const setLevel = (externalId: string, level: number) => shareAt(t.db, { externalId }, level);

  it('refuses a missing or wrong engine token, and enterprise API keys', async () => {
    const session = await newSession();
    for (const token of ['', 'wrong-token', acme.apiKey]) {
      const response = await ingest(session.sessionID, result(), token);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: CommonErrors.Unauthorized });
    }
    const withApiKey = await t.request('POST', `/internal/sessions/${session.sessionID}/result`, {
      apiKey: acme.apiKey,
      body: result(),
    });
    expect(withApiKey.status).toBe(401);
  });

  it('completes the session: level 5 shows every field; with nothing to compare, percentiles are {}', async () => {
    const session = await newSession();
    const response = await ingest(
      session.sessionID,
      result({ completedAt: '2026-11-20T10:00:00Z' }),
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'success' });
    await setLevel(session.userIdentifier, 5);
    expect(await read(session.sessionID)).toEqual({
      externalID: session.userIdentifier,
      sessionID: session.sessionID,
      timestamp: '2026-11-20T10:00:00.000Z',
      groupID: group.groupID,
      version: 'v1.2.3',
      mhci: 70,
      subscores: { vision: 61, audio: 72, transcript: 83, assessment: 94 },
      groupPercentiles: {},
      userPercentiles: {},
      transcript: result().transcript,
      features: { pitch: 0.5, pace: 2 },
    });
  });

  it('each privacy level shows exactly its cumulative fields; lowering it hides past sessions', async () => {
    const session = await newSession();
    await ingest(session.sessionID, result());
    const fields = [
      ['externalID', 'sessionID', 'timestamp', 'groupID', 'version'],
      ['mhci', 'subscores'],
      ['groupPercentiles'],
      ['userPercentiles'],
      ['transcript'],
      ['features'],
    ];
    for (const level of [0, 1, 2, 3, 4, 5, 2, 0]) {
      await setLevel(session.userIdentifier, level);
      expect(Object.keys(await read(session.sessionID))).toEqual(fields.slice(0, level + 1).flat());
    }
  });

  /** A new session of a member who shares at level 5 (what the comparisons may use). */
  const openSession = async (identifier: string, target: TestGroup) => {
    const session = await newSession(identifier, target);
    await setLevel(session.userIdentifier, 5);
    return session;
  };

  it('computes mid-rank percentiles against the group and against the participant, from sessions shown at level 5', async () => {
    const fresh = await t.newGroup(acme, 'Percentiles');
    const alice = await openSession('alice@example.com', fresh);
    const bob = await openSession('bob@example.com', fresh);
    const carol = await openSession('carol@example.com', fresh);
    await ingest(alice.sessionID, result({ features: { x: 1 } }));
    await ingest(bob.sessionID, result({ features: { x: 2 } }));
    await ingest(carol.sessionID, result({ features: { x: 2 } }));
    const alice2 = (await t.createSession(acme, fresh, alice.userIdentifier))
      .body as SessionCreated;
    await ingest(alice2.sessionID, result({ features: { x: 3 } }));
    const stored = await t.db.query<{
      session_id: string;
      group_percentiles: Record<string, number>;
      user_percentiles: Record<string, number>;
    }>('SELECT session_id, group_percentiles, user_percentiles FROM sessions WHERE group_id = $1', [
      fresh.groupID,
    ]);
    const byId = Object.fromEntries(stored.rows.map((row) => [row.session_id, row]));
    // The group's other sessions at each completion, and the session itself: nothing → {};
    // [1] and 2 → (1 + 0.5)/2; [1,2] and 2 → (1 + 1)/3; [1,2,2] and 3 → 3/4 + 0.5/4.
    expect(byId[alice.sessionID].group_percentiles).toEqual({});
    expect(byId[bob.sessionID].group_percentiles).toEqual({ x: 0.75 });
    expect(byId[carol.sessionID].group_percentiles.x).toBeCloseTo(2 / 3, 12);
    expect(byId[alice2.sessionID].group_percentiles).toEqual({ x: 0.875 });
    // Alice's own other sessions: none, then [1] and 3.
    expect(byId[alice.sessionID].user_percentiles).toEqual({});
    expect(byId[alice2.sessionID].user_percentiles).toEqual({ x: 0.75 });
  });

  it('concurrent ingestions into one group, with shared words in different orders, all succeed', async () => {
    const busy = await t.newGroup(acme, 'Concurrent');
    const sessions = [];
    for (let i = 0; i < 24; i++) sessions.push(await newSession(`busy${i}@example.com`, busy));
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
    const answers = await Promise.all(
      sessions.map((session, i) => {
        // Each transcript names the shared words in its own rotation and direction.
        const rotated = [...words.slice(i % 8), ...words.slice(0, i % 8)];
        const ordered = i % 2 ? rotated.reverse() : rotated;
        return ingest(
          session.sessionID,
          result({
            transcript: [{ role: 'user', content: ordered.join(' ') }],
            features: { a: i, b: 24 - i, c: i % 3 },
          }),
        );
      }),
    );
    expect(answers.map((answer) => answer.status)).toEqual(sessions.map(() => 200));
    // Every session waits in both series for its window's release, and the day counts them all.
    const pending = await t.db.query(
      `SELECT series, count(*)::int AS sessions FROM cohort_pending WHERE group_id = $1
        GROUP BY series ORDER BY series`,
      [busy.groupID],
    );
    expect(pending.rows).toEqual([
      { series: 'scores', sessions: sessions.length },
      { series: 'words', sessions: sessions.length },
    ]);
    const counted = await t.db.query(
      'SELECT sum(sessions)::int AS sessions FROM group_day_counts WHERE group_id = $1',
      [busy.groupID],
    );
    expect(counted.rows).toEqual([{ sessions: sessions.length }]);
  });

  it('the SQL bucket function and its TypeScript twin agree on any float', async () => {
    const random = mulberry32(11);
    const view = new DataView(new ArrayBuffer(8));
    const values: number[] = [0, -0, 5e-324, -5e-324, Number.MAX_VALUE, -Number.MAX_VALUE];
    while (values.length < 5000) {
      view.setUint32(0, Math.floor(random() * 2 ** 32));
      view.setUint32(4, Math.floor(random() * 2 ** 32));
      const value = view.getFloat64(0);
      if (Number.isFinite(value)) values.push(value);
    }
    const buckets = await t.db.query<{ bucket: number }>(
      'SELECT feature_bucket(v) AS bucket FROM unnest($1::float8[]) WITH ORDINALITY AS u(v, i) ORDER BY i',
      [values.map((value) => (Object.is(value, -0) ? '-0' : String(value)))],
    );
    expect(buckets.rows.map((row) => row.bucket)).toEqual(values.map(featureBucket));
  });

  it('is idempotent for the same result, and refuses a different one with 409', async () => {
    const session = await newSession();
    const credits = async () =>
      (
        await t.db.query<{ credits: number }>('SELECT credits FROM groups WHERE group_id = $1', [
          group.groupID,
        ])
      ).rows[0].credits;
    const before = await credits();
    expect((await ingest(session.sessionID, result())).status).toBe(200);
    expect((await ingest(session.sessionID, result())).status).toBe(200);
    expect(await credits()).toBe(before - 1);
    const events = await t.db.query(
      `SELECT payload FROM events WHERE type = 'user.session.result' AND payload->>'sessionID' = $1`,
      [session.sessionID],
    );
    expect(events.rows).toEqual([
      {
        payload: {
          groupID: group.groupID,
          sessionID: session.sessionID,
          externalUserID: session.userIdentifier,
          timestamp: match.stringMatching(/Z$/),
        },
      },
    ]);
    const different = await ingest(session.sessionID, result({ mhci: 12 }));
    expect(different.status).toBe(409);
    expect(different.body).toEqual({ error: IngestionErrors.DifferentResult });
    await setLevel(session.userIdentifier, 1);
    expect((await read(session.sessionID)).mhci).toBe(70);
  });

  it('records word counts of participant turns only, per session; the session waits for the release of its window and counts in its day', async () => {
    const fresh = await t.newGroup(acme, 'Words');
    const session = await newSession('words@example.com', fresh);
    await ingest(session.sessionID, result({ completedAt: '2026-11-19T23:59:00Z' }));
    // Stored with the session, encrypted like its transcript (docs/data-at-rest.md).
    const stored = await t.db.query<{ words: string; counted: number }>(
      'SELECT word_counts AS words, counted_words AS counted FROM sessions WHERE session_id = $1',
      [session.sessionID],
    );
    expect(stored.rows[0].words).toMatch(/^v2\./);
    expect(stored.rows[0].counted).toBe(9);
    expect(openJson(t.app.get(PiiCipher), stored.rows[0].words)).toEqual({
      badly: 1,
      deadlines: 3,
      everywhere: 1,
      helps: 1,
      stress: 1,
      team: 1,
      work: 1,
    });
    // No group table keeps them in clear: the session waits for the release of its window, made
    // as the result arrived (docs/metrics.md, "Release windows").
    const counted = await t.db.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, sessions FROM group_day_counts
        WHERE group_id = $1`,
      [fresh.groupID],
    );
    expect(counted.rows).toEqual([{ day: '2026-11-19', sessions: 1 }]);
    const pending = await t.db.query(
      'SELECT series FROM cohort_pending WHERE session_id = $1 ORDER BY series',
      [session.sessionID],
    );
    expect(pending.rows).toEqual([{ series: 'scores' }, { series: 'words' }]);
    const windows = await t.db.query(
      `SELECT kind, first_day::text, last_day::text FROM metric_windows
        WHERE enterprise_id = $1 AND '2026-11-19' BETWEEN first_day AND last_day`,
      [acme.enterpriseId],
    );
    expect(windows.rows).toEqual([
      { kind: 'month', first_day: '2026-11-01', last_day: '2026-11-30' },
    ]);
  });

  it.each([
    ['version absent', { version: undefined }, IngestionErrors.VersionMissing],
    ['version a number', { version: 1 }, IngestionErrors.VersionNotString],
    ['version malformed', { version: '1.2.3' }, IngestionErrors.VersionFormat],
    ['mhci absent', { mhci: undefined }, IngestionErrors.MhciMissing],
    ['mhci above 100', { mhci: 100.5 }, IngestionErrors.MhciInvalid],
    ['mhci negative', { mhci: -1 }, IngestionErrors.MhciInvalid],
    ['mhci a string', { mhci: '50' }, IngestionErrors.MhciInvalid],
    ['subscores absent', { subscores: undefined }, IngestionErrors.SubscoresMissing],
    [
      'a subscore missing',
      { subscores: { vision: 1, audio: 1, transcript: 1 } },
      IngestionErrors.SubscoresInvalid,
    ],
    [
      'a subscore out of range',
      { subscores: { vision: 1, audio: 1, transcript: 1, assessment: 101 } },
      IngestionErrors.SubscoresInvalid,
    ],
    [
      'an extra subscore',
      { subscores: { vision: 1, audio: 1, transcript: 1, assessment: 1, x: 1 } },
      IngestionErrors.SubscoresInvalid,
    ],
    ['transcript absent', { transcript: undefined }, IngestionErrors.TranscriptMissing],
    [
      'a transcript role unknown',
      { transcript: [{ role: 'system', content: 'x' }] },
      IngestionErrors.TranscriptInvalid,
    ],
    [
      'transcript content not a string',
      { transcript: [{ role: 'user', content: 5 }] },
      IngestionErrors.TranscriptInvalid,
    ],
    ['features absent', { features: undefined }, IngestionErrors.FeaturesMissing],
    ['a feature not a number', { features: { pitch: 'high' } }, IngestionErrors.FeaturesInvalid],
    ['a feature name with spaces', { features: { 'a b': 1 } }, IngestionErrors.FeaturesInvalid],
    ['features an array', { features: [1] }, IngestionErrors.FeaturesInvalid],
    ['completedAt not a date', { completedAt: 'yesterday' }, IngestionErrors.CompletedAtInvalid],
    [
      'completedAt in the future',
      { completedAt: '2999-01-01T00:00:00Z' },
      IngestionErrors.CompletedAtInvalid,
    ],
  ])('refuses %s and changes nothing', async (_, change, message) => {
    const session = await newSession();
    const response = await ingest(session.sessionID, result(change));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: message });
    const stored = await t.db.query<{ status: string }>(
      'SELECT status FROM sessions WHERE session_id = $1',
      [session.sessionID],
    );
    expect(stored.rows[0].status).toBe('created');
  });

  it('answers Session not found for unknown sessions, and the missing-parameter message', async () => {
    for (const id of ['ses_AAAAAAAAAAAAAAAAAAAAAAAA', 'nope']) {
      const response = await ingest(id, result());
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: IngestionErrors.SessionNotFound });
    }
    const missing = await ingest('', result());
    expect(missing.body).toEqual({ error: SessionErrors.SessionIdMissing });
  });
});
