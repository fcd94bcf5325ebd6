/**
 * Group metrics released once per calendar window, never changed afterwards (docs/metrics.md,
 * "Release windows" and "The budget"), through the API as an enterprise reads them: a released
 * window does not move with a late result, a level change, an erasure or new settings (a new
 * floor, budget or window applies to later windows; maxMargin only withholds); every answer, for
 * every range and period, is computed from the releases only; a window is released once its last
 * day and the grace period have passed; and the operator's CLI. The attacks of an enterprise that
 * invents participants: group-metrics-attacks.e2e-spec.ts; what an answer says about itself
 * (accuracy=true): calendar-releases.e2e-spec.ts; the releases' mathematics:
 * src/metrics/windows/*.spec.ts and src/metrics/releases/*.spec.ts.
 *
 * Windows are an enterprise's: once a read released a month, later results for it are late. Each
 * case below so has its own enterprise, or months no other case uses.
 */
import { METRICS_BUDGET, PRIVACY_FLOOR } from '../src/common/privacy-model';
import { EnterpriseErrors } from '../src/enterprises/enterprises.errors';
import { BUDGET } from '../src/metrics/windows/budget';
import { estimateMhci, type MhciStats } from '../src/metrics/windows/window-answers';
import { WindowReleaser } from '../src/metrics/windows/window-releaser';
import { cli as runCli } from './support/cli';
import { conversation, ENGINE_TOKEN, engineResult, subscores } from './support/engine';
import { shareAt } from './support/levels';
import { match } from './support/matchers';
import { runToExit } from './support/processes';
import { startTestApp, TestApp, TestEnterprise, TestGroup } from './support/test-app';

/** One check-in: who (an email), when (UTC), the score and what they said. */
interface CheckIn {
  who: string;
  at: string;
  mhci: number;
  words: string;
}

type Answer = Record<string, unknown>;
type WithAccuracy = { value: unknown; accuracy: Record<string, unknown> };

const SECRET_WORDS = 'antidepressant divorce medication';
const DAY_MS = 86_400_000;

/** Every query of a range (each alone and with each groupBy). */
const withGroupBys = (ranges: string[]): string[] =>
  ranges.flatMap((range) =>
    ['', 'day', 'week', 'month'].map((groupBy) =>
      groupBy ? `${range}${range ? '&' : '?'}groupBy=${groupBy}` : range,
    ),
  );

/** Every range over these days: open, from one, to one, and from one to another. */
const rangesOver = (days: string[]): string[] => [
  '',
  ...days.map((day) => `?from=${day}`),
  ...days.map((day) => `?to=${day}`),
  ...days.flatMap((from) => days.filter((to) => to >= from).map((to) => `?from=${from}&to=${to}`)),
];

describe('Group metrics released once per calendar window, never changed afterwards', () => {
  let t: TestApp;
  let n = 0;
  /** Email → external ID: a second check-in of the same person is the same participant. */
  const ids = new Map<string, string>();

  beforeAll(async () => {
    // Releases come from reads, or from the releaser at a time a case chooses: no sweep between.
    t = await startTestApp({ ENGINE_TOKEN, RUN_WORKERS: 'false' });
  });
  afterAll(() => t.close());

  const checkIn = async (enterprise: TestEnterprise, group: TestGroup, c: CheckIn) => {
    const session = await t.completedSession(enterprise, group, {
      identifier: ids.get(c.who) ?? c.who,
      result: engineResult({
        mhci: c.mhci,
        subscores: subscores(1),
        transcript: conversation('How are you?', c.words),
        completedAt: c.at,
      }),
    });
    ids.set(c.who, session.userIdentifier);
    return session;
  };

  const newGroup = async (enterprise: TestEnterprise, checkIns: CheckIn[]) => {
    const group = await t.newGroup(enterprise, `Team ${++n}`);
    for (const c of checkIns) await checkIn(enterprise, group, c);
    return group;
  };

  const metric = async (
    enterprise: TestEnterprise,
    group: TestGroup,
    name: string,
    query = '',
  ): Promise<Answer> => {
    const response = await t.request('GET', `/metrics/groups/${group.groupID}/${name}${query}`, {
      apiKey: enterprise.apiKey,
    });
    expect({ query, status: response.status }).toEqual({ query, status: 200 });
    return response.body as Answer;
  };

  /** Every answer of group mhci and wordcloud to these queries, by query. */
  const everyAnswer = async (enterprise: TestEnterprise, group: TestGroup, queries: string[]) => {
    const answers: Record<string, Answer> = {};
    for (const query of queries) {
      answers[`mhci${query}`] = await metric(enterprise, group, 'mhci', query);
      const words = query ? `${query}&top=200` : '?top=200';
      answers[`wordcloud${words}`] = await metric(enterprise, group, 'wordcloud', words);
    }
    return answers;
  };

  /** A person checking in on `day` (YYYY-MM-DD), saying "tired" unless told. */
  const person = (name: string, day: string, mhci: number, words?: string): CheckIn => ({
    who: `${name}@example.com`,
    at: `${day}T09:00:00Z`,
    mhci,
    words: words ?? 'tired',
  });

  /** What the releases of a group store, per window: what a released window must keep. */
  const releasesOf = async (group: TestGroup) =>
    (
      await t.db.query(
        `SELECT w.kind, w.first_day::text, w.last_day::text, w.epsilon_year::float8,
                w.released_at, r.series, r.participants, r.released, r.left_out, r.rho,
                r.noisy_sum::float8, r.noisy_bins, r.sum_noise_variance, r.bin_noise_variance,
                r.word_threshold,
                (SELECT coalesce(json_agg(json_build_array(x.word, x.count) ORDER BY x.word), '[]')
                   FROM metric_release_words x WHERE x.release_id = r.id) AS words
           FROM metric_releases r JOIN metric_windows w ON w.id = r.window_id
          WHERE r.group_id = $1 ORDER BY w.first_day, r.series`,
        [group.groupID],
      )
    ).rows as Record<string, unknown>[];

  it('a new enterprise starts at the defaults: monthly windows, ε_year 24, maxMargin 10, floors 5 / 10 / 3', async () => {
    const fresh = await t.newEnterprise('Fresh');
    const { rows } = await t.db.query(
      `SELECT min_cohort_scores AS scores, min_cohort_words AS words,
              min_word_speakers AS speakers, metrics_window AS window,
              epsilon_year::float8 AS "epsilonYear", max_margin::float8 AS "maxMargin"
         FROM enterprises WHERE id = $1`,
      [fresh.enterpriseId],
    );
    expect(rows).toEqual([
      { scores: 5, words: 10, speakers: 3, window: 'month', epsilonYear: 24, maxMargin: 10 },
    ]);
    expect(PRIVACY_FLOOR).toMatchObject({ defaultScores: 5, defaultWords: 10, defaultSpeakers: 3 });
    expect(METRICS_BUDGET).toMatchObject({
      defaultEpsilonYear: 24,
      defaultMaxMargin: 10,
      defaultWindow: 'month',
    });
    expect(BUDGET).toMatchObject({ defaultEpsilonYear: 24, defaultMaxMargin: 10 });
    // No window before its first result.
    const windows = await t.db.query('SELECT 1 FROM metric_windows WHERE enterprise_id = $1', [
      fresh.enterpriseId,
    ]);
    expect(windows.rows).toEqual([]);
  });

  describe('every answer, for every range and period, is computed from the releases only', () => {
    let acme: TestEnterprise;
    let group: TestGroup;
    /** A group with check-ins in March only. */
    let marchOnly: TestGroup;
    /** The days the ranges start and end on: both edges of each month, and inside them. */
    const DAYS = [
      '2026-02-01',
      '2026-02-28',
      '2026-03-01',
      '2026-03-15',
      '2026-03-31',
      '2026-04-01',
      '2026-04-30',
    ];
    /** 43 ranges, each alone and by day, week and month: several hundred reads (a slow test). */
    const QUERIES = withGroupBys(rangesOver(DAYS));

    beforeAll(async () => {
      acme = await t.newEnterprise('Acme');
      // Small windows answer numbers only under a wide margin: 8 participants at the default
      // budget have a 95 % margin of about 50 points.
      await t.setPrivacyFloor(acme, 5, 10, { maxMargin: 100 });
      group = await newGroup(acme, [
        // February: three participants, under the floor of five: a window that releases nothing.
        ...[10, 20, 27].map((day, i) => person(`feb${i}`, `2026-02-${day}`, 40 + i)),
        // March: eight, T among them saying what only T says.
        ...Array.from({ length: 7 }, (_, i) =>
          person(`mar${i}`, `2026-03-${String(2 + 4 * i).padStart(2, '0')}`, 20 + 9 * i),
        ),
        person('t', '2026-03-05', 23.4, `tired ${SECRET_WORDS}`),
        // April: seven, three of them March's again.
        ...Array.from({ length: 7 }, (_, i) =>
          person(
            i < 3 ? `mar${i}` : `apr${i}`,
            `2026-04-${String(1 + 4 * i).padStart(2, '0')}`,
            35 + 8 * i,
          ),
        ),
      ]);
      marchOnly = await newGroup(
        acme,
        Array.from({ length: 6 }, (_, i) => person(`only${i}`, `2026-03-1${i}`, 30 + 10 * i)),
      );
    });

    it('twice the same; the keys are those of count; words only T said never appear', async () => {
      const answers = await everyAnswer(acme, group, QUERIES);
      expect(await everyAnswer(acme, group, QUERIES)).toEqual(answers);
      for (const query of QUERIES) {
        const count = await metric(acme, group, 'count', query);
        expect({ query, keys: Object.keys(answers[`mhci${query}`]) }).toEqual({
          query,
          keys: Object.keys(count),
        });
      }
      expect(answers['mhci']).toEqual({ all: match.any(Object) });
      expect(answers['mhci']).not.toEqual({ all: null });
      expect(JSON.stringify(answers)).not.toMatch(/antidepressant|divorce|medication/);
    }, 180_000);

    it('each period answers the statistics of the releases of the windows it holds whole, or null', async () => {
      const { rows: windows } = await t.db.query<{
        first_day: string;
        last_day: string;
        released: boolean | null;
        participants: number | null;
        noisy_sum: number | null;
        noisy_bins: number[] | null;
        sum_noise_variance: number | null;
        bin_noise_variance: number | null;
      }>(
        `SELECT w.first_day::text, w.last_day::text, r.released, r.participants,
                r.noisy_sum::float8, r.noisy_bins, r.sum_noise_variance, r.bin_noise_variance
           FROM metric_windows w
           LEFT JOIN metric_releases r
                  ON r.window_id = w.id AND r.group_id = $2 AND r.series = 'scores'
          WHERE w.enterprise_id = $1 ORDER BY w.first_day`,
        [acme.enterpriseId, group.groupID],
      );
      // Three monthly windows, released at the first read; February's held too few.
      expect(windows.map((w) => [w.first_day, w.last_day, w.released, w.participants])).toEqual([
        ['2026-02-01', '2026-02-28', false, 3],
        ['2026-03-01', '2026-03-31', true, 8],
        ['2026-04-01', '2026-04-30', true, 7],
      ]);
      const expected = (params: URLSearchParams, key: string): MhciStats | null => {
        const groupBy = params.get('groupBy');
        // No window fits in a day, nor a month in an ISO week.
        if (groupBy === 'day' || groupBy === 'week') return null;
        const from = params.get('from') ?? '0000-00-00';
        const to = params.get('to') ?? '9999-99-99';
        const parts = windows
          .filter((w) => w.first_day >= from && w.last_day <= to)
          .filter((w) => groupBy !== 'month' || w.first_day.slice(0, 7) === key)
          .filter((w) => w.released)
          .map((w) => ({
            participants: w.participants!,
            noisySum: w.noisy_sum!,
            sumNoiseVariance: w.sum_noise_variance!,
            noisyBins: w.noisy_bins!,
            binNoiseVariance: w.bin_noise_variance!,
            legacy: false,
          }));
        const estimate = estimateMhci(parts);
        return estimate && estimate.margin <= 100 ? estimate.stats : null;
      };
      let numbers = 0;
      for (const query of QUERIES) {
        const params = new URLSearchParams(query);
        for (const [key, stats] of Object.entries(await metric(acme, group, 'mhci', query))) {
          expect({ query, key, stats }).toEqual({ query, key, stats: expected(params, key) });
          if (stats) numbers += 1;
        }
      }
      // Not all null: March alone, April alone and both together answer numbers.
      expect(numbers).toBeGreaterThan(30);
    }, 120_000);

    it('a month read as all, as a range holding it whole or as its groupBy=month period gives the same numbers', async () => {
      const march = await metric(acme, group, 'mhci', '?from=2026-03-01&to=2026-03-31');
      expect(march).toEqual({ all: match.any(Object) });
      expect(march).not.toEqual({ all: null });
      for (const query of [
        '?groupBy=month',
        '?from=2026-03-01&to=2026-03-31&groupBy=month',
        '?from=2026-02-15&to=2026-04-15&groupBy=month',
      ]) {
        expect({ query, march: (await metric(acme, group, 'mhci', query))['2026-03'] }).toEqual({
          query,
          march: march.all,
        });
      }
      // Ranges that cut February (nothing released) or April hold March alone.
      for (const query of [
        '?from=2026-02-15&to=2026-03-31',
        '?from=2026-03-01&to=2026-04-15',
        '?from=2026-02-02&to=2026-04-29',
      ]) {
        expect({ query, answer: await metric(acme, group, 'mhci', query) }).toEqual({
          query,
          answer: march,
        });
      }
      // A group that checked in in March only: all of it is March, however read.
      const only = await metric(acme, marchOnly, 'mhci');
      expect(only).toEqual({ all: match.any(Object) });
      expect(only).not.toEqual({ all: null });
      for (const query of [
        '?from=2026-03-01&to=2026-03-31',
        '?to=2026-04-30',
        '?from=2026-02-01',
      ]) {
        expect({ query, answer: await metric(acme, marchOnly, 'mhci', query) }).toEqual({
          query,
          answer: only,
        });
      }
      expect(await metric(acme, marchOnly, 'mhci', '?groupBy=month')).toEqual({
        '2026-03': only.all,
      });
      // A range that cuts March and holds no other window answers nothing of it.
      expect(await metric(acme, group, 'mhci', '?from=2026-03-01&to=2026-03-30')).toEqual({
        all: null,
      });
      // The words of March, the same three ways (too few speakers for a word: null each time).
      const words = await metric(acme, group, 'wordcloud', '?from=2026-03-01&to=2026-03-31');
      expect(
        (await metric(acme, group, 'wordcloud', '?from=2026-03-01&to=2026-04-15')).all,
      ).toEqual(words.all);
      expect((await metric(acme, group, 'wordcloud', '?groupBy=month'))['2026-03']).toEqual(
        words.all,
      );
    });
  });

  describe('a released window never changes', () => {
    let stable: TestEnterprise;
    let group: TestGroup;
    const may = (i: number) =>
      person(
        `may${i}`,
        `2026-05-${String(1 + (i % 28)).padStart(2, '0')}`,
        25 + ((i * 37) % 60),
        i === 39 ? `tired ${SECRET_WORDS}` : i >= 37 ? 'tired tired' : 'overtime overtime tired',
      );
    const MAY_QUERIES = withGroupBys([
      '',
      '?from=2026-05-01&to=2026-05-31',
      '?from=2026-05-01',
      '?to=2026-05-31',
      '?from=2026-04-01&to=2026-06-30',
    ]);
    let before: Record<string, Answer>;
    let released: Record<string, unknown>[];

    beforeAll(async () => {
      stable = await t.newEnterprise('Stable');
      // ε_year = 100: a word needs 22 speakers (3 + the threshold of the noise), so 37 of 40
      // saying "overtime" pass (withheld only if the noise is ≤ −15 at scale 1: below 10⁻⁶).
      await t.setPrivacyFloor(stable, 5, 10, { budget: 100, maxMargin: 100 });
      group = await newGroup(
        stable,
        Array.from({ length: 40 }, (_, i) => may(i)),
      );
      before = await everyAnswer(stable, group, MAY_QUERIES);
      released = await releasesOf(group);
    });

    it('is released once, for both series, with what it was worth then', async () => {
      expect(before['mhci']).toEqual({ all: match.any(Object) });
      expect(before['mhci']).not.toEqual({ all: null });
      expect(before['wordcloud?top=200']).toEqual({ all: { overtime: 1 } });
      expect(released).toEqual([
        match.objectContaining({
          kind: 'month',
          first_day: '2026-05-01',
          last_day: '2026-05-31',
          epsilon_year: 100,
          series: 'scores',
          participants: 40,
          released: true,
          left_out: 0,
        }),
        match.objectContaining({
          series: 'words',
          participants: 40,
          released: true,
          word_threshold: 22,
          words: [['overtime', match.any(Number)]],
        }),
      ]);
      expect(
        ((await metric(stable, group, 'wordcloud', '?accuracy=true')) as { all: WithAccuracy }).all
          .accuracy.speakersNeeded,
      ).toBe(22);
    });

    it('a late result joins no release: count moves, no answer does; accuracy counts it', async () => {
      const count = (await metric(stable, group, 'count')) as { all: number };
      // A newcomer and one of the forty check in for May after its release.
      await checkIn(stable, group, person('late', '2026-05-20', 0, `pregnant ${SECRET_WORDS}`));
      await checkIn(stable, group, { ...may(3), mhci: 100 });
      expect(await metric(stable, group, 'count')).toEqual({ all: count.all + 2 });
      const after = await everyAnswer(stable, group, MAY_QUERIES);
      for (const [query, answer] of Object.entries(before)) {
        // A day now holding a late result gets the count's key, answered null; nothing else moves.
        const now = after[query];
        const added = Object.keys(now).filter((key) => !(key in answer));
        expect({ query, added: added.map((key) => now[key]) }).toEqual({
          query,
          added: added.map(() => null),
        });
        expect({
          query,
          kept: Object.fromEntries(Object.entries(now).filter(([key]) => key in answer)),
        }).toEqual({ query, kept: answer });
      }
      for (const name of ['mhci', 'wordcloud']) {
        expect(await metric(stable, group, name, '?accuracy=true')).toMatchObject({
          all: { accuracy: { participants: 40, lateResults: 2 } },
        });
      }
      expect(await releasesOf(group)).toEqual(released);
    });

    it('a level change, an erasure and new settings (floor, budget, window) move nothing released', async () => {
      // One raises the level of everything (from now on visible), one lowers it; one is erased.
      await shareAt(t.db, { externalId: ids.get(may(0).who)! }, 5);
      await shareAt(t.db, { externalId: ids.get(may(1).who)! }, 0);
      const erased = await t.request('DELETE', `/participants/${ids.get(may(2).who)}`, {
        apiKey: stable.apiKey,
      });
      expect(erased.status).toBe(200);
      // Floors above the group's size, another budget, weekly windows: for later windows only.
      await t.setPrivacyFloor(stable, 50, 50, { speakers: 10, budget: 50, window: 'week' });
      const count = (await metric(stable, group, 'count')) as { all: number };
      expect(count.all).toBe(41); // 42 sessions, less the erased participant's
      const after = await everyAnswer(stable, group, MAY_QUERIES);
      for (const [query, answer] of Object.entries(after)) {
        const was = before[query];
        expect({
          query,
          answer: Object.fromEntries(Object.keys(was).map((k) => [k, answer[k]])),
        }).toEqual({ query, answer: was });
      }
      expect(await releasesOf(group)).toEqual(released);
    });

    it('the new settings apply to the next windows: weekly, at the new budget and floor', async () => {
      // June 2026 begins on a Monday: its ISO weeks, made now under the settings in force.
      for (let i = 0; i < 6; i++) {
        await checkIn(stable, group, person(`june${i}`, `2026-06-0${1 + i}`, 50));
      }
      const june = (await metric(stable, group, 'mhci', '?from=2026-06-01&accuracy=true')) as {
        all: WithAccuracy;
      };
      // Six participants, fewer than the new floor of 50: nothing released.
      expect(june.all).toMatchObject({
        value: null,
        accuracy: { reason: 'too-few-participants', participants: 0, windows: 1 },
      });
      const windows = await t.db.query(
        `SELECT kind, first_day::text, last_day::text, epsilon_year::float8,
                released_at IS NOT NULL AS released
           FROM metric_windows WHERE enterprise_id = $1 ORDER BY first_day`,
        [stable.enterpriseId],
      );
      expect(windows.rows).toEqual([
        {
          kind: 'month',
          first_day: '2026-05-01',
          last_day: '2026-05-31',
          epsilon_year: 100,
          released: true,
        },
        {
          kind: 'week',
          first_day: '2026-06-01',
          last_day: '2026-06-07',
          epsilon_year: 50,
          released: true,
        },
      ]);
      const juneReleases = (await releasesOf(group)).filter((row) => row.kind === 'week');
      expect(juneReleases).toEqual(
        ['scores', 'words'].map((series) =>
          match.objectContaining({ series, participants: 6, released: false, noisy_sum: null }),
        ),
      );
      // May, read as its month, still answers what it released.
      expect((await metric(stable, group, 'mhci', '?groupBy=month'))['2026-05']).toEqual(
        before['mhci'].all,
      );
    });

    it('maxMargin only withholds at reading: lowered, May answers null; raised again, the same numbers', async () => {
      const withAccuracy = (await metric(
        stable,
        group,
        'mhci',
        '?to=2026-05-31&accuracy=true',
      )) as {
        all: WithAccuracy;
      };
      const margin = withAccuracy.all.accuracy.margin as number;
      expect(margin).toBeGreaterThan(1);
      await t.setPrivacyFloor(stable, 50, 50, { maxMargin: 1 });
      expect(await metric(stable, group, 'mhci', '?to=2026-05-31&accuracy=true')).toMatchObject({
        all: { value: null, accuracy: { reason: 'margin-above-bound', margin, maxMargin: 1 } },
      });
      await t.setPrivacyFloor(stable, 50, 50, { maxMargin: 100 });
      expect(await metric(stable, group, 'mhci', '?to=2026-05-31')).toEqual(before['mhci']);
      expect(await releasesOf(group)).toEqual(expect.arrayContaining(released));
    });
  });

  describe('a window is released once its last day and the grace period have passed', () => {
    let now: TestEnterprise;
    let group: TestGroup;
    let lastDay: string;
    const today = new Date().toISOString().slice(0, 10);
    const firstOfMonth = `${today.slice(0, 7)}-01`;

    beforeAll(async () => {
      now = await t.newEnterprise('Now');
      await t.setPrivacyFloor(now, 5, 10, { maxMargin: 100 });
      // Six check-ins of today, and a result recorded now for the first day of the month: the
      // window still open, it joins it whatever day it names.
      group = await newGroup(now, [
        ...Array.from({ length: 6 }, (_, i) => ({
          who: `today.${i}@example.com`,
          at: `${today}T00:00:0${i}Z`,
          mhci: 40 + 5 * i,
          words: 'tired',
        })),
        { who: 'backfill@example.com', at: `${firstOfMonth}T08:00:00Z`, mhci: 70, words: 'tired' },
      ]);
      const { rows } = await t.db.query<{ first_day: string; last_day: string }>(
        `SELECT first_day::text, last_day::text FROM metric_windows WHERE enterprise_id = $1`,
        [now.enterpriseId],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].first_day).toBe(firstOfMonth);
      lastDay = rows[0].last_day;
    });

    it('not before: the month still open answers null, not released yet', async () => {
      expect(await metric(now, group, 'count')).toEqual({ all: 7 });
      expect(await metric(now, group, 'mhci', '?accuracy=true')).toMatchObject({
        all: { value: null, accuracy: { reason: 'not-released-yet', windowsNotReleased: 1 } },
      });
    });

    it('a millisecond before its end plus METRICS_RELEASE_GRACE_HOURS nothing is released; then once, with every result of the month', async () => {
      const releaser = t.app.get(WindowReleaser);
      const grace = t.config.metrics.releaseGraceHours;
      expect(grace).toBe(48);
      const due = new Date(Date.parse(`${lastDay}T00:00:00Z`) + DAY_MS + grace * 3_600_000);
      expect(await releaser.releaseEnterprise(now.enterpriseId, new Date(due.getTime() - 1))).toBe(
        0,
      );
      expect(await metric(now, group, 'mhci')).toEqual({ all: null });
      expect(await releaser.releaseEnterprise(now.enterpriseId, due)).toBe(1);
      expect(
        await releaser.releaseEnterprise(now.enterpriseId, new Date(due.getTime() + DAY_MS)),
      ).toBe(0);
      const { all } = (await metric(now, group, 'mhci', '?accuracy=true')) as { all: WithAccuracy };
      expect(all.value).toEqual(match.any(Object));
      expect(all.value).not.toBeNull();
      expect(all.accuracy).toMatchObject({ participants: 7, windows: 1, windowsNotReleased: 0 });
      // Released: a result for its days now is late.
      await checkIn(now, group, {
        who: 'after@example.com',
        at: `${today}T00:00:30Z`,
        mhci: 0,
        words: 'x',
      });
      expect(await metric(now, group, 'mhci')).toEqual({ all: all.value });
      expect(await metric(now, group, 'mhci', '?accuracy=true')).toMatchObject({
        all: { accuracy: { participants: 7, lateResults: 1 } },
      });
    });
  });

  it('no release holds a word said by a single participant', async () => {
    const { rows } = await t.db.query(
      `SELECT word FROM metric_release_words WHERE word = ANY ($1::text[])`,
      [[...SECRET_WORDS.split(' '), 'pregnant']],
    );
    expect(rows).toEqual([]);
    // Releases above did let words through: "overtime", 37 speakers.
    const words = await t.db.query('SELECT DISTINCT word FROM metric_release_words');
    expect(words.rows).toEqual([{ word: 'overtime' }]);
  });

  describe('the operator CLI: enterprises:set-privacy-floor', () => {
    let beta: TestEnterprise;
    const cli = (...args: string[]) =>
      runCli(['enterprises:set-privacy-floor', ...args], { DATABASE_URL: t.config.database.url });
    const settingsOf = async (enterprise: TestEnterprise) =>
      (
        await t.db.query(
          `SELECT min_cohort_scores AS scores, min_cohort_words AS words,
                  min_word_speakers AS speakers, epsilon_year::float8 AS "epsilonYear",
                  metrics_window AS window, max_margin::float8 AS "maxMargin"
             FROM enterprises WHERE id = $1`,
          [enterprise.enterpriseId],
        )
      ).rows[0] as Record<string, unknown>;
    const windowsOf = async (enterprise: TestEnterprise) =>
      (
        await t.db.query(
          `SELECT kind, first_day::text, last_day::text, epsilon_year::float8
             FROM metric_windows WHERE enterprise_id = $1 ORDER BY first_day`,
          [enterprise.enterpriseId],
        )
      ).rows as Record<string, unknown>[];
    const json = (settings: Record<string, unknown>) =>
      `${JSON.stringify({
        enterpriseId: beta.enterpriseId,
        minCohortScores: 4,
        minCohortWords: 10,
        minWordSpeakers: 3,
        epsilonYear: 24,
        metricsWindow: 'month',
        maxMargin: 10,
        ...settings,
      })}\n`;

    /** An enterprise only refused commands reach: no setting changed, no window made. */
    let gamma: TestEnterprise;

    beforeAll(async () => {
      beta = await t.newEnterprise('Beta');
      gamma = await t.newEnterprise('Gamma');
    });

    it('--scores 4 --json: one JSON line with all the settings, the rest at the defaults', async () => {
      expect(await cli(beta.enterpriseId, '--scores', '4', '--json')).toEqual({
        code: 0,
        stdout: json({}),
        stderr: '',
      });
      expect(await settingsOf(beta)).toEqual({
        scores: 4,
        words: 10,
        speakers: 3,
        epsilonYear: 24,
        window: 'month',
        maxMargin: 10,
      });
    });

    it('--speakers alone keeps the rest; readable output without --json', async () => {
      expect(await cli(beta.enterpriseId, '--speakers', '5')).toEqual({
        code: 0,
        stdout:
          `Privacy settings of ${beta.enterpriseId}: a release of group scores needs 4 ` +
          'participants, a release of words 10; a word needs at least 5 speakers before noise; ' +
          "windows are months; each participant's budget is ε_year = 24 over any 365 days; " +
          'answers with a 95 % margin of avgMhci above 10 points are withheld. A change of ' +
          'window or budget applies from the next window; the accountant leaves out of a ' +
          'release anyone it would take over the budget in force.\n',
        stderr: '',
      });
      expect(await settingsOf(beta)).toMatchObject({ scores: 4, words: 10, speakers: 5 });
    });

    it('--max-margin alone (1–100, two decimals at most) changes no window', async () => {
      expect(await cli(beta.enterpriseId, '--max-margin', '12.5', '--json')).toEqual({
        code: 0,
        stdout: json({ minWordSpeakers: 5, maxMargin: 12.5 }),
        stderr: '',
      });
      for (const value of ['1', '100']) {
        expect((await cli(beta.enterpriseId, '--max-margin', value)).code).toBe(0);
        expect((await settingsOf(beta)).maxMargin).toBe(Number(value));
      }
      expect(await windowsOf(beta)).toEqual([]);
    });

    it('--budget and --window apply from the next window: the window of today keeps the settings it began with', async () => {
      const today = new Date().toISOString().slice(0, 10);
      expect(
        await cli(beta.enterpriseId, '--budget', '12.25', '--window', 'week', '--json'),
      ).toEqual({
        code: 0,
        stdout: json({
          minWordSpeakers: 5,
          maxMargin: 100,
          epsilonYear: 12.25,
          metricsWindow: 'week',
        }),
        stderr: '',
      });
      // Made now, under the settings in force before the change: the month of today at ε_year 24.
      const windows = await windowsOf(beta);
      expect(windows).toEqual([
        {
          kind: 'month',
          first_day: `${today.slice(0, 7)}-01`,
          last_day: match.stringMatching(/^\d{4}-\d{2}-(28|29|30|31)$/),
          epsilon_year: 24,
        },
      ]);
      expect((windows[0] as { last_day: string }).last_day.slice(0, 7)).toBe(today.slice(0, 7));
      // A result of today joins that window.
      const group = await t.newGroup(beta, 'Beta team');
      await checkIn(beta, group, {
        who: 'beta@example.com',
        at: `${today}T00:00:00Z`,
        mhci: 50,
        words: 'fine',
      });
      expect(await windowsOf(beta)).toEqual(windows);
      // Back to months at the default budget: the window of today is already there, unchanged.
      expect((await cli(beta.enterpriseId, '--budget', '24', '--window', 'month')).code).toBe(0);
      expect(await windowsOf(beta)).toEqual(windows);
      for (const value of ['1', '100', '7.5']) {
        expect((await cli(beta.enterpriseId, '--budget', value)).code).toBe(0);
        expect((await settingsOf(beta)).epsilonYear).toBe(Number(value));
      }
    });

    it.each([
      [['--scores', '0'], EnterpriseErrors.FloorInvalid('--scores', '0')],
      [['--scores', '101'], EnterpriseErrors.FloorInvalid('--scores', '101')],
      [['--words', '5.5'], EnterpriseErrors.FloorInvalid('--words', '5.5')],
      [['--speakers', 'ten'], EnterpriseErrors.FloorInvalid('--speakers', 'ten')],
      [
        ['--scores', '5', '--speakers', '1000'],
        EnterpriseErrors.FloorInvalid('--speakers', '1000'),
      ],
      [['--budget', '0'], EnterpriseErrors.BudgetInvalid('--budget', '0')],
      [['--budget', '0.99'], EnterpriseErrors.BudgetInvalid('--budget', '0.99')],
      [['--budget', '100.01'], EnterpriseErrors.BudgetInvalid('--budget', '100.01')],
      [['--budget', '24.005'], EnterpriseErrors.BudgetInvalid('--budget', '24.005')],
      [['--budget', '1e1'], EnterpriseErrors.BudgetInvalid('--budget', '1e1')],
      [['--budget', '-1'], EnterpriseErrors.BudgetInvalid('--budget', '-1')],
      [['--budget', 'x'], EnterpriseErrors.BudgetInvalid('--budget', 'x')],
      [['--scores', '5', '--budget', ' 24'], EnterpriseErrors.BudgetInvalid('--budget', ' 24')],
      [['--max-margin', '0'], EnterpriseErrors.BudgetInvalid('--max-margin', '0')],
      [['--max-margin', '101'], EnterpriseErrors.BudgetInvalid('--max-margin', '101')],
      [['--max-margin', 'wide'], EnterpriseErrors.BudgetInvalid('--max-margin', 'wide')],
      [['--window', 'x'], EnterpriseErrors.WindowInvalid('x')],
      [['--window', 'day'], EnterpriseErrors.WindowInvalid('day')],
      [['--window', 'Month'], EnterpriseErrors.WindowInvalid('Month')],
      [['--window', 'weeks'], EnterpriseErrors.WindowInvalid('weeks')],
      [[], EnterpriseErrors.FloorMissing],
    ])('refuses %j and changes nothing: no setting, no window', async (args, message) => {
      const before = await settingsOf(gamma);
      expect(await cli(gamma.enterpriseId, ...args)).toEqual({
        code: 1,
        stdout: '',
        stderr: `${message}\n`,
      });
      expect(await settingsOf(gamma)).toEqual(before);
      expect(await windowsOf(gamma)).toEqual([]);
    });

    it('--epsilon, the second version’s per-cell ε, is gone: refused, nothing changes (the built process)', async () => {
      // An unknown option ends the process itself (commander), so it runs as the operator runs it.
      const before = await settingsOf(beta);
      const result = await runToExit(
        'cli',
        ['enterprises:set-privacy-floor', beta.enterpriseId, '--epsilon', '1'],
        { DATABASE_URL: t.config.database.url },
      );
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('--epsilon');
      expect(await settingsOf(beta)).toEqual(before);
    });

    it('refuses an unknown or malformed enterprise id, and makes no window for it', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        for (const args of [
          ['--scores', '5'],
          ['--window', 'week'],
          ['--budget', '12'],
        ]) {
          expect(await cli(id, ...args)).toEqual({
            code: 1,
            stdout: '',
            stderr: `${EnterpriseErrors.NotFound(id)}\n`,
          });
        }
      }
      const { rows } = await t.db.query(
        `SELECT count(*)::int AS n FROM metric_windows
          WHERE enterprise_id = '00000000-0000-4000-8000-000000000000'`,
      );
      expect(rows).toEqual([{ n: 0 }]);
    });
  });
});
