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
    // With the floor at 1 every day with a hidden participant seals into a cell of its own; at
    // ε = 10 a cell of 40 participants answers close to its data (the cells themselves:
    // sealed-cells.e2e-spec.ts; the releases' mathematics: src/metrics/releases/).
    await t.setPrivacyFloor(acme, 1, 1, 1, 10);
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
    // A larger group: 40 participants on one day, MHCI 30 … 69, saying what they say.
    large = await t.newGroup(acme, 'Large');
    for (let i = 0; i < 40; i++) {
      const session = (await t.createSession(acme, large, `large${i}@example.com`))
        .body as SessionCreated;
      const words = ['the sleep', i < 30 ? 'work' : '', i < 20 ? 'team' : ''].join(' ');
      expect((await ingest(session.sessionID, '2026-01-10T09:00:00Z', 30 + i, words)).status).toBe(
        200,
      );
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

    it('answers six ordered numbers in [0, 100] for the range and for each period, the same on every read', async () => {
      const all = (await group_('mhci', upTo)).body as { all: Record<string, number> };
      ordered(all.all);
      const monthly = (await group_('mhci', `${upTo}&groupBy=month`)).body as Record<
        string,
        Record<string, number>
      >;
      expect(Object.keys(monthly)).toEqual(['2025-12', '2026-01', '2026-02']);
      for (const stats of Object.values(monthly)) ordered(stats);
      expect((await group_('mhci', upTo)).body).toEqual(all);
      expect((await group_('mhci', `${upTo}&groupBy=month`)).body).toEqual(monthly);
    });

    it('a cell of 40 participants at ε = 10 answers close to its data (fails with probability below 10⁻⁵)', async () => {
      // MHCI 30 … 69: mean and median 49.5. The average is off by the sum's noise ÷ 40, at scale
      // 10,000/(10 · 0.6) hundredths: beyond 5 with probability e^(−12) ≈ 6·10⁻⁶. The median
      // sits between the 4th and 5th of ten 10-wide bins, each with noise of scale 0.5: moving it
      // 10 points takes noise of 10 counts, probability below 10⁻⁸.
      const { all } = (await get(`/metrics/groups/${large.groupID}/mhci`)).body as {
        all: Record<string, number>;
      };
      ordered(all);
      expect(Math.abs(all.avgMhci - 49.5)).toBeLessThan(5);
      expect(Math.abs(all.percentile50Mhci - 49.5)).toBeLessThan(10);
    });

    it('answers {"all": null} when no session matches', async () => {
      expect((await get(`/metrics/groups/${empty.groupID}/mhci`)).body).toEqual({ all: null });
    });
  });

  describe('wordcloud', () => {
    const cloudOf = async (query = '') =>
      (await get(`/metrics/groups/${large.groupID}/wordcloud${query}`)).body as Record<
        string,
        Record<string, number>
      >;

    it('shares of the released words: participant words only, stopwords removed, summing to 1, most said first', async () => {
      // 40, 30 and 20 speakers: each released with its noisy count (scale 0.6 at ε = 10; a
      // threshold of 16) — withheld with probability below 10⁻⁹.
      const { all } = await cloudOf();
      expect(Object.keys(all)).toEqual(['sleep', 'work', 'team']);
      expect(Object.values(all).reduce((sum, share) => sum + share, 0)).toBeCloseTo(1, 12);
      const released = await t.db.query<{ word: string; count: string }>(
        `SELECT w.word, w.count FROM cohort_cell_words w JOIN cohort_cells c ON c.id = w.cell_id
          WHERE c.group_id = $1`,
        [large.groupID],
      );
      const counts = Object.fromEntries(released.rows.map((row) => [row.word, Number(row.count)]));
      const total = counts.sleep + counts.work + counts.team;
      expect(all.work).toBeCloseTo(counts.work / total, 12);
      expect(Object.keys(all)).not.toContain('assistant');
      expect(Object.keys(all)).not.toContain('the');
    });

    it('honours top (shares stay shares of all words) and groupBy', async () => {
      const { all } = await cloudOf();
      expect(await cloudOf('?top=2')).toEqual({ all: { sleep: all.sleep, work: all.work } });
      expect(await cloudOf('?groupBy=month&top=1')).toEqual({ '2026-01': { sleep: all.sleep } });
    });

    it('a sealed cell that releases no word answers {}; top goes up to 200; a group range without sessions is {"all": null}, as mhci', async () => {
      // One participant a cell: no word passes a threshold of 16 speakers.
      expect((await group_('wordcloud', upTo)).body).toEqual({ all: {} });
      expect((await group_('wordcloud', `${upTo}&groupBy=month`)).body).toEqual({
        '2025-12': {},
        '2026-01': {},
        '2026-02': {},
      });
      expect(await cloudOf('?top=200')).toEqual(await cloudOf());
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
