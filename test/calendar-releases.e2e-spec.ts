/**
 * Group metrics by calendar windows (docs/metrics.md, "Release windows" and "Every answer says
 * what it is worth"), through the API as an enterprise reads them: a month is released once after
 * its end and grace period, with enough participants, and answers six numbers of one
 * distribution; periods finer than the window, windows not released yet, too few participants
 * and margins above maxMargin answer null and say why with accuracy=true; a member of two groups
 * enters one release; a late result joins none. The budget and the accountant:
 * test/integration/metric-budget.spec.ts; the releases' mathematics and the intervals' coverage:
 * src/metrics/windows/*.spec.ts.
 */
import { MetricsErrors } from '../src/metrics/metrics.errors';
import { conversation, ENGINE_TOKEN, engineResult, subscores } from './support/engine';
import { startTestApp, TestApp, TestEnterprise, TestGroup } from './support/test-app';

interface CheckIn {
  who: string;
  at: string;
  mhci: number;
  words?: string;
}

type Stats = Record<string, number>;
type WithAccuracy = { value: unknown; accuracy: Record<string, unknown> };

describe('Group metrics by calendar windows', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let groups = 0;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    t = await startTestApp({ ENGINE_TOKEN });
    acme = await t.newEnterprise('Acme');
  });
  afterAll(() => t.close());

  const checkIn = async (group: TestGroup, c: CheckIn) => {
    const session = await t.completedSession(acme, group, {
      identifier: ids.get(c.who) ?? c.who,
      result: engineResult({
        mhci: c.mhci,
        subscores: subscores(1),
        transcript: conversation('How are you?', c.words ?? 'fine'),
        completedAt: c.at,
      }),
    });
    ids.set(c.who, session.userIdentifier);
    return session;
  };

  const newGroup = async (checkIns: CheckIn[]) => {
    const group = await t.newGroup(acme, `Team ${++groups}`);
    for (const c of checkIns) await checkIn(group, c);
    return group;
  };

  const metric = async (group: TestGroup, name: string, query = '') => {
    const response = await t.request('GET', `/metrics/groups/${group.groupID}/${name}${query}`, {
      apiKey: acme.apiKey,
    });
    expect(response.status).toBe(200);
    return response.body as Record<string, unknown>;
  };

  /**
   * n people checking in once in a month of 2026 (February unless said), scores spread over
   * 30–90, as `name.i`. Windows are the enterprise's: once a read released a month, later
   * results for it are late, so each case below has a month of its own.
   */
  const month = (
    name: string,
    n: number,
    options: { month?: string; words?: (i: number) => string } = {},
  ): CheckIn[] =>
    Array.from({ length: n }, (_, i) => ({
      who: `${name}.${i}@example.com`,
      at: `2026-${options.month ?? '02'}-${String(1 + (i % 28)).padStart(2, '0')}T09:00:00Z`,
      mhci: 30 + ((i * 37) % 61),
      words: options.words?.(i),
    }));

  const expectConsistent = (stats: Stats) => {
    expect(Object.keys(stats).sort()).toEqual([
      'avgMhci',
      'maxMhci',
      'minMhci',
      'percentile25Mhci',
      'percentile50Mhci',
      'percentile75Mhci',
    ]);
    expect(stats.minMhci).toBeLessThanOrEqual(stats.percentile25Mhci);
    expect(stats.percentile25Mhci).toBeLessThanOrEqual(stats.percentile50Mhci);
    expect(stats.percentile50Mhci).toBeLessThanOrEqual(stats.percentile75Mhci);
    expect(stats.percentile75Mhci).toBeLessThanOrEqual(stats.maxMhci);
    expect(stats.avgMhci).toBeGreaterThanOrEqual(stats.minMhci);
    expect(stats.avgMhci).toBeLessThanOrEqual(stats.maxMhci);
    for (const value of Object.values(stats)) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(100);
    }
  };

  describe('a month of 120 participants', () => {
    let group: TestGroup;
    const checkIns = month('feb', 120, { words: (i) => (i < 80 ? 'tired tired' : 'fine fine') });
    const truth = checkIns.reduce((sum, c) => sum + c.mhci, 0) / checkIns.length;

    beforeAll(async () => {
      group = await newGroup(checkIns);
    });

    it('answers six numbers of one distribution, the spec shape without accuracy', async () => {
      const { all } = (await metric(group, 'mhci')) as { all: Stats };
      expectConsistent(all);
      expect(await metric(group, 'mhci', '?groupBy=month')).toEqual({ '2026-02': all });
      // Released once: every read is the same answer.
      expect(await metric(group, 'mhci')).toEqual({ all });
    });

    it('with accuracy=true says what it is worth, and its interval holds the truth', async () => {
      const { all } = (await metric(group, 'mhci', '?accuracy=true')) as { all: WithAccuracy };
      expect(all.value).toEqual(((await metric(group, 'mhci')) as { all: Stats }).all);
      expect(all.accuracy).toMatchObject({
        participants: 120,
        windows: 1,
        windowsNotReleased: 0,
        legacyCells: 0,
        resultsLeftOut: 0,
        lateResults: 0,
        reason: null,
        maxMargin: 10,
      });
      const accuracy = all.accuracy as { margin: number; rho: number; budgetShare: number };
      // 1.96 σ / n, σ of the sum ≈ 204 points at the default monthly release (docs/metrics.md).
      expect(accuracy.margin).toBeGreaterThan(2.5);
      expect(accuracy.margin).toBeLessThan(4.5);
      // One release of 24 a year (12 windows × 2 series).
      expect(accuracy.budgetShare).toBeCloseTo(1 / 24, 5);
      const [low, high] = (all.accuracy.intervals as Record<string, [number, number]>).avgMhci;
      // Fails a correct build 5 % of the time were it random; the noise is drawn once per
      // window, so this is one fixed draw per run: a loose check that the shape is right.
      expect(high - low).toBeCloseTo(2 * accuracy.margin, 0);
      expect(truth).toBeGreaterThan(low - 3 * accuracy.margin);
      expect(truth).toBeLessThan(high + 3 * accuracy.margin);
    });

    it('a period finer than the window answers null and says so', async () => {
      const days = await metric(group, 'mhci', '?groupBy=day');
      expect(Object.keys(days)).toHaveLength(28);
      expect(new Set(Object.values(days))).toEqual(new Set([null]));
      const weeks = (await metric(group, 'mhci', '?groupBy=week&accuracy=true')) as Record<
        string,
        WithAccuracy
      >;
      for (const week of Object.values(weeks)) {
        expect(week.value).toBeNull();
        expect(week.accuracy.reason).toBe('finer-than-window');
      }
      // A range that cuts the month: no window inside it.
      expect(
        await metric(group, 'mhci', '?from=2026-02-01&to=2026-02-27&accuracy=true'),
      ).toMatchObject({ all: { value: null, accuracy: { reason: 'finer-than-window' } } });
    });

    it('words: a word 80 of 120 said shows, one 40 said cannot pass; the cloud says what a word needs', async () => {
      const { all } = (await metric(group, 'wordcloud', '?accuracy=true')) as {
        all: WithAccuracy;
      };
      expect(all.value).toEqual({ tired: 1 });
      expect(all.accuracy.speakersNeeded).toBeGreaterThan(40);
      expect(all.accuracy.speakersNeeded).toBeLessThan(80);
      expect(await metric(group, 'wordcloud')).toEqual({ all: { tired: 1 } });
    });

    it('a late result joins no release: count moves, mhci does not, accuracy counts it', async () => {
      const before = await metric(group, 'mhci');
      const count = (await metric(group, 'count')) as { all: number };
      await checkIn(group, { who: 'late@example.com', at: '2026-02-10T10:00:00Z', mhci: 0 });
      expect(await metric(group, 'count')).toEqual({ all: count.all + 1 });
      expect(await metric(group, 'mhci')).toEqual(before);
      const { all } = (await metric(group, 'mhci', '?accuracy=true')) as { all: WithAccuracy };
      expect(all.accuracy.lateResults).toBe(1);
    });
  });

  it('too few participants, a margin above maxMargin and a window not released yet answer null with their reason', async () => {
    const tiny = await newGroup(month('tiny', 3, { month: '03' }));
    expect(await metric(tiny, 'mhci')).toEqual({ all: null });
    expect(await metric(tiny, 'mhci', '?accuracy=true')).toMatchObject({
      all: { value: null, accuracy: { reason: 'too-few-participants', participants: 0 } },
    });

    const small = await newGroup(month('small', 12, { month: '04' }));
    expect(await metric(small, 'mhci')).toEqual({ all: null });
    const withheld = (await metric(small, 'mhci', '?accuracy=true')) as { all: WithAccuracy };
    expect(withheld.all.value).toBeNull();
    expect(withheld.all.accuracy).toMatchObject({
      reason: 'margin-above-bound',
      participants: 12,
      maxMargin: 10,
    });
    expect(withheld.all.accuracy.margin as number).toBeGreaterThan(10);
    expect(await metric(small, 'wordcloud', '?accuracy=true')).toMatchObject({
      all: { value: null, accuracy: { reason: 'too-small-for-words' } },
    });

    const today = new Date().toISOString().slice(0, 10);
    const current = await newGroup(
      Array.from({ length: 6 }, (_, i) => ({
        who: `now.${i}@example.com`,
        at: `${today}T00:0${i}:00Z`,
        mhci: 50,
      })),
    );
    expect(await metric(current, 'mhci', '?accuracy=true')).toMatchObject({
      all: { value: null, accuracy: { reason: 'not-released-yet', windowsNotReleased: 1 } },
    });
  });

  it('a member of two groups in one window enters one release: the group with most of her check-ins', async () => {
    const january = (name: string, i: number, day = 5): CheckIn => ({
      who: `${name}.${i}@example.com`,
      at: `2026-01-${String(day).padStart(2, '0')}T09:00:00Z`,
      mhci: 40 + i,
    });
    const a = await newGroup(Array.from({ length: 5 }, (_, i) => january('a', i)));
    const b = await newGroup(Array.from({ length: 5 }, (_, i) => january('b', i)));
    const both = { who: 'both@example.com', at: '2026-01-05T09:00:00Z', mhci: 99 };
    await checkIn(a, both);
    await checkIn(a, { ...both, at: '2026-01-06T09:00:00Z' });
    // Her first check-in in b names her by email, which makes her a member there.
    ids.delete(both.who);
    await checkIn(b, both);
    const range = '?from=2026-01-01&to=2026-01-31&accuracy=true';
    expect(await metric(a, 'mhci', range)).toMatchObject({
      all: { accuracy: { participants: 6, resultsLeftOut: 0 } },
    });
    expect(await metric(b, 'mhci', range)).toMatchObject({
      all: { accuracy: { participants: 5, resultsLeftOut: 1 } },
    });
  });

  it('refuses a bad accuracy value before anything is read', async () => {
    const group = await t.newGroup(acme, 'Refusals');
    for (const value of ['yes', '1', 'TRUE', '']) {
      const response = await t.request(
        'GET',
        `/metrics/groups/${group.groupID}/mhci?accuracy=${value}`,
        { apiKey: acme.apiKey },
      );
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: MetricsErrors.AccuracyInvalid });
    }
  });
});
