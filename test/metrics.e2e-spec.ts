import { shareAt } from './support/levels';
import { GroupErrors } from '../src/groups/groups.errors';
import { MetricsErrors } from '../src/metrics/metrics.errors';
import { ParticipantErrors } from '../src/participants/participants.errors';
import { conversation, ENGINE_TOKEN, engineResult, postResult, subscores } from './support/engine';
import {
  SessionCreated,
  startTestApp,
  TestApp,
  TestEnterprise,
  TestGroup,
} from './support/test-app';

/** Known data: completion day, MHCI and the participant's words (assistant turns must not count). */
const DATA: [string, number, string][] = [
  ['2025-12-29T10:00:00Z', 10, 'I sleep badly'],
  ['2026-01-02T23:59:59Z', 20, 'sleep and work'],
  ['2026-01-31T12:00:00Z', 30, 'work work'],
  ['2026-02-01T00:00:00Z', 40, 'the team helps'],
  ['2026-02-01T08:30:00Z', 50, 'sleep'],
];

describe('Metrics', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let globex: TestEnterprise;
  let group: TestGroup;
  let empty: TestGroup;
  let large: TestGroup;
  let varied: TestGroup;
  let person: string;

  const ingest = (sessionId: string, completedAt: string, mhci: number, words: string) =>
    postResult(
      t,
      sessionId,
      engineResult({
        mhci,
        subscores: subscores(1),
        transcript: conversation('assistant chatter never counted', words),
        features: { pitch: mhci },
        completedAt,
      }),
    );

  beforeAll(async () => {
    t = await startTestApp({ ENGINE_TOKEN });
    acme = await t.newEnterprise('Acme');
    // Floors at 1 and the widest budget and margin: each month releases whoever checked in, a
    // month of 80 answers close to its data, and a word needs 20 speakers (the releases
    // themselves: release-windows.e2e-spec.ts; what an answer is worth: calendar-releases; the
    // mathematics: src/metrics/windows/).
    await t.setPrivacyFloor(acme, 1, 1, { speakers: 1, budget: 100, maxMargin: 100 });
    globex = await t.newEnterprise('Globex');
    group = await t.newGroup(acme, 'Metrics');
    empty = await t.newGroup(acme, 'Empty');
    let index = 0;
    for (const [completedAt, mhci, words] of DATA) {
      const session = (await t.createSession(acme, group, `metric${index++}@example.com`))
        .body as SessionCreated;
      expect((await ingest(session.sessionID, completedAt, mhci, words)).status).toBe(200);
    }
    // A pending session never counts.
    await t.createSession(acme, group, 'pending@example.com');
    // One participant with two completed sessions, for privacy gating.
    const first = (await t.createSession(acme, group, 'gated@example.com')).body as SessionCreated;
    person = first.userIdentifier;
    await ingest(first.sessionID, '2026-03-01T10:00:00Z', 60, 'private thoughts');
    const second = (await t.createSession(acme, group, person)).body as SessionCreated;
    await ingest(second.sessionID, '2026-03-02T10:00:00Z', 80, 'private words');
    // A larger group: 80 participants in January, MHCI 30 … 69 twice. Each gives a release her
    // most frequent word: 45 "sleep", 35 "work"; "team", said by all once, is nobody's.
    large = await t.newGroup(acme, 'Large');
    for (let i = 0; i < 80; i++) {
      const session = (await t.createSession(acme, large, `large${i}@example.com`))
        .body as SessionCreated;
      const words = i < 45 ? 'the sleep sleep team' : 'work work team';
      const day = `2026-01-${String(5 + (i % 20)).padStart(2, '0')}T09:00:00Z`;
      expect((await ingest(session.sessionID, day, 30 + (i % 40), words)).status).toBe(200);
    }
    // 24 participants in January, each saying a word nobody else says.
    varied = await t.newGroup(acme, 'Varied');
    for (let i = 0; i < 24; i++) {
      const session = (await t.createSession(acme, varied, `varied${i}@example.com`))
        .body as SessionCreated;
      const word = `word${String.fromCharCode(97 + i)}`;
      expect((await ingest(session.sessionID, '2026-01-20T09:00:00Z', 50, word)).status).toBe(200);
    }
  });
  afterAll(() => t.close());

  const get = async (path: string, apiKey = acme.apiKey) => {
    const response = await t.request('GET', path, { apiKey });
    return { status: response.status, body: response.body };
  };
  const group_ = (metric: string, query = '') =>
    get(`/metrics/groups/${group.groupID}/${metric}${query}`);
  const upTo = '?to=2026-02-28';

  describe('count', () => {
    it('counts completed sessions, inclusive dates in UTC', async () => {
      expect(await group_('count', upTo)).toEqual({ status: 200, body: { all: 5 } });
      expect(await group_('count')).toEqual({ status: 200, body: { all: 7 } });
      expect(await group_('count', '?from=2026-01-02&to=2026-02-01')).toEqual({
        status: 200,
        body: { all: 4 },
      });
      expect(await group_('count', '?from=2026-01-03&to=2026-01-30')).toEqual({
        status: 200,
        body: { all: 0 },
      });
    });

    it('groups by day, ISO week (across the year) and month, listing only periods with sessions', async () => {
      expect((await group_('count', `${upTo}&groupBy=day`)).body).toEqual({
        '2025-12-29': 1,
        '2026-01-02': 1,
        '2026-01-31': 1,
        '2026-02-01': 2,
      });
      expect((await group_('count', `${upTo}&groupBy=week`)).body).toEqual({
        '2025-12-29': 2,
        '2026-01-26': 3,
      });
      expect((await group_('count', `${upTo}&groupBy=month`)).body).toEqual({
        '2025-12': 1,
        '2026-01': 2,
        '2026-02': 2,
      });
      expect((await get(`/metrics/groups/${empty.groupID}/count?groupBy=day`)).body).toEqual({});
    });
  });

  describe('mhci', () => {
    const ordered = (stats: Record<string, number>) => {
      expect(Object.keys(stats).sort()).toEqual([
        'avgMhci',
        'maxMhci',
        'minMhci',
        'percentile25Mhci',
        'percentile50Mhci',
        'percentile75Mhci',
      ]);
      for (const value of Object.values(stats)) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(100);
      }
      expect(stats.minMhci).toBeLessThanOrEqual(stats.percentile25Mhci);
      expect(stats.percentile25Mhci).toBeLessThanOrEqual(stats.percentile50Mhci);
      expect(stats.percentile50Mhci).toBeLessThanOrEqual(stats.percentile75Mhci);
      expect(stats.percentile75Mhci).toBeLessThanOrEqual(stats.maxMhci);
    };

    it('answers six ordered numbers in [0, 100] for the range, and for each month whose margin maxMargin allows; the same on every read', async () => {
      const all = (await group_('mhci', upTo)).body as { all: Record<string, number> };
      ordered(all.all);
      const monthly = (await group_('mhci', `${upTo}&groupBy=month`)).body as Record<
        string,
        Record<string, number> | null
      >;
      expect(Object.keys(monthly)).toEqual(['2025-12', '2026-01', '2026-02']);
      // December released one participant: a 95 % margin of about 140 points, above even the
      // widest maxMargin (100). January and February released two each (about 70 points).
      expect(monthly['2025-12']).toBeNull();
      ordered(monthly['2026-01']!);
      ordered(monthly['2026-02']!);
      expect((await group_('mhci', `${upTo}&groupBy=month&accuracy=true`)).body).toMatchObject({
        '2025-12': { value: null, accuracy: { reason: 'margin-above-bound', participants: 1 } },
        '2026-01': { accuracy: { reason: null, participants: 2 } },
        '2026-02': { accuracy: { reason: null, participants: 2 } },
      });
      expect((await group_('mhci', upTo)).body).toEqual(all);
      expect((await group_('mhci', `${upTo}&groupBy=month`)).body).toEqual(monthly);
    });

    it('a month of 80 participants at ε_year = 100 answers close to its data (fails with probability below 10⁻⁵)', async () => {
      // MHCI 30 … 69 twice: mean and median 49.5. The average is off by the sum's noise ÷ 80, σ
      // ≈ 71 points ÷ 80 = 0.9: beyond 5 with probability below 10⁻⁷. The median sits in the
      // middle of eight 5-point bins of four each, each bin with noise of σ ≈ 1: moving it 15
      // points takes the cumulative counts 12 off, over five standard deviations.
      const { all } = (await get(`/metrics/groups/${large.groupID}/mhci`)).body as {
        all: Record<string, number>;
      };
      ordered(all);
      expect(Math.abs(all.avgMhci - 49.5)).toBeLessThan(5);
      expect(Math.abs(all.percentile50Mhci - 49.5)).toBeLessThan(15);
    });

    it('answers {"all": null} when no session matches', async () => {
      expect((await get(`/metrics/groups/${empty.groupID}/mhci`)).body).toEqual({ all: null });
    });
  });

  describe('wordcloud', () => {
    const cloudOf = async (query = '', of = large) =>
      (await get(`/metrics/groups/${of.groupID}/wordcloud${query}`)).body as Record<
        string,
        Record<string, number>
      >;

    it('shares of the released words: participant words only, stopwords removed, each participant’s most frequent, summing to 1, most said first', async () => {
      // 45 and 35 speakers, each released with its noisy count (scale 1 at ε_year = 100; a
      // threshold of 20) — withheld, or in the other order, with probability below 10⁻⁶.
      const { all } = await cloudOf();
      expect(Object.keys(all)).toEqual(['sleep', 'work']);
      expect(Object.values(all).reduce((sum, share) => sum + share, 0)).toBeCloseTo(1, 12);
      const released = await t.db.query<{ word: string; count: number }>(
        `SELECT w.word, w.count FROM metric_release_words w
           JOIN metric_releases r ON r.id = w.release_id
          WHERE r.group_id = $1`,
        [large.groupID],
      );
      const counts = Object.fromEntries(released.rows.map((row) => [row.word, Number(row.count)]));
      expect(Object.keys(counts).sort()).toEqual(['sleep', 'work']);
      expect(all.work).toBeCloseTo(counts.work / (counts.sleep + counts.work), 12);
      // "team" was said by every one of them, but was nobody's most frequent word.
      for (const word of ['assistant', 'the', 'team']) expect(Object.keys(all)).not.toContain(word);
    });

    it('honours top (shares stay shares of all words) and groupBy', async () => {
      const { all } = await cloudOf();
      expect(await cloudOf('?top=1')).toEqual({ all: { sleep: all.sleep } });
      expect(await cloudOf('?top=200')).toEqual({ all });
      expect(await cloudOf('?groupBy=month&top=1')).toEqual({ '2026-01': { sleep: all.sleep } });
    });

    it('{} when a release let no word through; null when no month was large enough for a word; a group range without sessions is {"all": null}, as mhci', async () => {
      // 24 speakers, one word each: enough for a word to pass (20), none did.
      expect(await cloudOf('', varied)).toEqual({ all: {} });
      expect(await cloudOf('?accuracy=true', varied)).toMatchObject({
        all: { value: {}, accuracy: { reason: null, participants: 24, speakersNeeded: 20 } },
      });
      // One or two participants a month: no word could pass.
      expect((await group_('wordcloud', upTo)).body).toEqual({ all: null });
      expect((await group_('wordcloud', `${upTo}&groupBy=month`)).body).toEqual({
        '2025-12': null,
        '2026-01': null,
        '2026-02': null,
      });
      expect((await group_('wordcloud', `${upTo}&accuracy=true`)).body).toMatchObject({
        all: { value: null, accuracy: { reason: 'too-small-for-words', participants: 5 } },
      });
      const emptyCloud = (query: string) =>
        get(`/metrics/groups/${empty.groupID}/wordcloud${query}`);
      expect(await emptyCloud('')).toEqual({ status: 200, body: { all: null } });
      expect(await emptyCloud('?groupBy=week')).toEqual({ status: 200, body: {} });
    });
  });

  describe('participant metrics respect the privacy level', () => {
    const setLevel = (level: number) => shareAt(t.db, { externalId: person }, level);
    const mine = (metric: string) => get(`/metrics/participants/${person}/${metric}`);

    it('level 0: count only', async () => {
      await setLevel(0);
      expect((await mine('count')).body).toEqual({ all: 2 });
      expect((await mine('mhci')).body).toEqual({ all: null });
      expect((await mine('wordcloud')).body).toEqual({ all: {} });
    });

    it('level 1: count and mhci, no words', async () => {
      await setLevel(1);
      expect((await mine('mhci')).body).toEqual({
        all: {
          minMhci: 60,
          maxMhci: 80,
          avgMhci: 70,
          percentile25Mhci: 65,
          percentile50Mhci: 70,
          percentile75Mhci: 75,
        },
      });
      expect((await mine('wordcloud')).body).toEqual({ all: {} });
    });

    it('level 4: words too', async () => {
      await setLevel(4);
      expect((await mine('wordcloud')).body).toEqual({
        all: { private: 0.5, thoughts: 0.25, words: 0.25 },
      });
    });
  });

  describe('errors', () => {
    it.each([
      ['?from=2026-02-30', MetricsErrors.FromInvalid],
      ['?from=2026/01/01', MetricsErrors.FromInvalid],
      ['?from=20260101', MetricsErrors.FromInvalid],
      ['?to=2026-13-01', MetricsErrors.ToInvalid],
      ['?from=2026-01-01&to=yesterday', MetricsErrors.ToInvalid],
      ['?groupBy=year', MetricsErrors.GroupByInvalid],
      ['?top=0', MetricsErrors.TopInvalid],
      ['?top=-1', MetricsErrors.TopInvalid],
      ['?top=1.5', MetricsErrors.TopInvalid],
      ['?top=many', MetricsErrors.TopInvalid],
      ['?top=201', MetricsErrors.TopInvalid],
      ['?top=999999', MetricsErrors.TopInvalid],
      ['?top=0200', MetricsErrors.TopInvalid],
      ['?from=2026-02-01&to=2026-01-01', MetricsErrors.RangeInvalid],
      ['?from=x&groupBy=year', MetricsErrors.FromInvalid],
    ])('%s → %s', async (query, message) => {
      expect(await group_('wordcloud', query)).toEqual({ status: 400, body: { error: message } });
    });

    it('path errors, unknown groups and participants, and tenancy', async () => {
      for (const metric of ['count', 'mhci', 'wordcloud']) {
        expect(await get(`/metrics/groups//${metric}`)).toEqual({
          status: 400,
          body: { error: GroupErrors.GroupIdMissing },
        });
        expect(await get(`/metrics/groups/x/${metric}`)).toEqual({
          status: 400,
          body: { error: GroupErrors.GroupIdNotNumber },
        });
        expect(await get(`/metrics/groups/999999/${metric}`)).toEqual({
          status: 400,
          body: { error: GroupErrors.NotFound },
        });
        expect(await get(`/metrics/participants//${metric}`)).toEqual({
          status: 400,
          body: { error: ParticipantErrors.ExternalIdMissing },
        });
        expect(await get(`/metrics/participants/ok_${'4'.repeat(48)}/${metric}`)).toEqual({
          status: 400,
          body: { error: ParticipantErrors.NotFound },
        });
        expect(await get(`/metrics/groups/${group.groupID}/${metric}`, globex.apiKey)).toEqual({
          status: 400,
          body: { error: GroupErrors.NotFound },
        });
        expect(await get(`/metrics/participants/${person}/${metric}`, globex.apiKey)).toEqual({
          status: 400,
          body: { error: ParticipantErrors.NotFound },
        });
      }
      expect((await get(`/metrics/groups/${group.groupID}/average`)).status).toBe(404);
    });
  });
});
