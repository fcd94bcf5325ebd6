/**
 * Group metrics from sealed cohort cells released with differential privacy (docs/metrics.md,
 * "Sealed cohort cells" and "Differentially private releases"): when cells seal, that a released
 * cell never changes whatever the enterprise does (a new result, a level change, an erasure, a
 * new floor or ε), that every answer is computed from the released cells only, and the
 * operator's CLI. The attacks of an enterprise that invents participants:
 * group-metrics-attacks.e2e-spec.ts; the releases' mathematics: src/metrics/releases/*.spec.ts.
 * Results are dated on closed days (March 2026), so a read seals them; the seal delay itself is
 * a unit test (src/metrics/cohorts/sealing-runs.spec.ts) and one case below.
 */
import { PRIVACY_FLOOR } from '../src/common/privacy-model';
import { SCORE_MECHANISM, scoreStatistics } from '../src/metrics/releases/score-release';
import { EnterpriseErrors } from '../src/enterprises/enterprises.errors';
import { CohortSealer } from '../src/metrics/cohorts/cohort-sealer';
import { cli as runCli } from './support/cli';
import { conversation, ENGINE_TOKEN, engineResult, subscores } from './support/engine';
import { shareAt } from './support/levels';
import { match } from './support/matchers';
import { startTestApp, TestApp, TestEnterprise, TestGroup } from './support/test-app';

/** One check-in: who (an email), when (UTC), the score, what they said, the level they share. */
interface CheckIn {
  who: string;
  at: string;
  mhci: number;
  words: string;
  level?: number;
}

const SECRET_WORDS = 'antidepressant divorce medication';
const SCORE_MECHANISM_BINS = Array.from({ length: SCORE_MECHANISM.bins }, (_, bin) => bin);
/** Every range the enterprise can ask about March 2026 at day granularity: ±1 around the data. */
const DAYS = Array.from({ length: 9 }, (_, i) => `2026-03-0${i + 1}`);
const RANGES = [
  '',
  ...DAYS.map((day) => `?from=${day}`),
  ...DAYS.map((day) => `?to=${day}`),
  ...DAYS.flatMap((from) => DAYS.filter((to) => to >= from).map((to) => `?from=${from}&to=${to}`)),
];
const GROUP_BYS = ['', 'day', 'week', 'month'];

/** Every query: each range, alone and with each groupBy. */
const QUERIES = RANGES.flatMap((range) =>
  GROUP_BYS.map((groupBy) => (groupBy ? `${range}${range ? '&' : '?'}groupBy=${groupBy}` : range)),
);

describe('Group metrics no subtraction can undo (sealed cohort cells)', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let groups = 0;
  /** Email → external ID: a second check-in of the same person is the same participant. */
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
        transcript: conversation('How are you?', c.words),
        features: { pitch: c.mhci },
        completedAt: c.at,
      }),
    });
    ids.set(c.who, session.userIdentifier);
    if (c.level !== undefined) {
      await shareAt(t.db, { sessionId: session.sessionID }, c.level);
    }
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

  /** Every answer of group mhci and wordcloud the enterprise can ask for, by query. */
  const everyAnswer = async (group: TestGroup) => {
    const answers: Record<string, unknown> = {};
    for (const query of QUERIES) {
      answers[`mhci${query}`] = await metric(group, 'mhci', query);
      const words = query ? `${query}&top=200` : '?top=200';
      answers[`wordcloud${words}`] = await metric(group, 'wordcloud', words);
    }
    return answers;
  };

  const person = (name: string, day: number, mhci: number, extra: Partial<CheckIn> = {}) => ({
    who: `${name}.${groups}@example.com`,
    at: `2026-03-0${day}T09:00:00Z`,
    mhci,
    words: `tired ${name}`,
    ...extra,
  });

  it('a new enterprise starts at the defaults: 5 hidden participants for scores, 10 for words, 3 speakers, ε = 1', async () => {
    const { rows } = await t.db.query(
      `SELECT min_cohort_scores AS scores, min_cohort_words AS words,
              min_word_speakers AS speakers, epsilon::float8
         FROM enterprises WHERE id = $1`,
      [acme.enterpriseId],
    );
    expect(rows).toEqual([{ scores: 5, words: 10, speakers: 3, epsilon: 1 }]);
    expect(PRIVACY_FLOOR.defaultSpeakers).toBe(3);
  });

  it('every answer, for every range and period, is computed from the released cells only: twice the same, and words only T said never appear', async () => {
    await t.setPrivacyFloor(acme, 3, 3, 2);
    // Days 2–4 blend three hidden participants (T among them) and a visible one into one cell;
    // days 5–7 a second cell.
    const group = await newGroup([
      person('visible', 2, 70, { level: 1 }),
      person('t', 2, 23.4, { words: `tired ${SECRET_WORDS}` }),
      person('h', 3, 61.5, { words: 'tired sleep' }),
      person('k', 4, 50, { words: 'tired sleep' }),
      person('a', 5, 40),
      person('b', 6, 45),
      person('c', 7, 90),
    ]);
    const answers = await everyAnswer(group);
    expect(await everyAnswer(group)).toEqual(answers);
    // The cells do answer, and only whole cells: a range ending inside a run has none of it.
    expect(answers['mhci']).toEqual({ all: match.any(Object) });
    expect(answers['mhci?to=2026-03-03']).toEqual({ all: null });
    expect(answers['mhci?to=2026-03-04']).toEqual({ all: match.any(Object) });
    expect(answers['mhci?from=2026-03-03&to=2026-03-03&groupBy=day']).toEqual({
      '2026-03-03': null,
    });
    const cells = await t.db.query(
      `SELECT series, first_day::text, last_day::text, participants, epsilon::float8
         FROM cohort_cells WHERE group_id = $1 ORDER BY series, last_day`,
      [group.groupID],
    );
    // For words the visible member hides their transcript (level 1 < 4): they count as hidden.
    expect(cells.rows).toEqual(
      [
        ['scores', '2026-03-02', '2026-03-04', 4],
        ['scores', '2026-03-05', '2026-03-07', 3],
        ['words', '2026-03-02', '2026-03-03', 3],
        ['words', '2026-03-04', '2026-03-06', 3],
      ].map(([series, first, last, participants]) => ({
        series,
        first_day: first,
        last_day: last,
        participants,
        epsilon: 1,
      })),
    );
    // Words only T said never appear, whatever the range.
    expect(JSON.stringify(answers)).not.toMatch(/antidepressant|divorce|medication/);
  });

  it('reads before and after a new result, a level change, an erasure and a new floor answer the same for every sealed range', async () => {
    await t.setPrivacyFloor(acme, 3, 3, 2);
    const [p, q, r, s] = [
      person('p', 2, 30),
      person('q', 2, 40),
      person('r', 3, 50),
      person('s', 3, 60),
    ];
    const group = await newGroup([p, q, r, s]);
    const before = await everyAnswer(group);
    expect(before['mhci']).toEqual({ all: match.any(Object) });

    // T checks in on day 5 alone: the enterprise sees the webhook and reads again.
    const lone = person('t', 5, 1.5, { words: `tired ${SECRET_WORDS}` });
    await checkIn(group, lone);
    const after = await everyAnswer(group);
    for (const [query, answer] of Object.entries(before) as [string, Record<string, unknown>][]) {
      // A period now holding T's check-in gets the count's key, answered null; every other
      // answer is identical.
      const now = after[query] as Record<string, unknown>;
      const added = Object.keys(now).filter((key) => !(key in answer));
      expect(added.map((key) => now[key])).toEqual(added.map(() => null));
      expect(Object.fromEntries(Object.entries(now).filter(([key]) => key in answer))).toEqual(
        answer,
      );
    }

    // S raises the level of the sealed check-in (its own browser, from now on visible), Q lowers;
    // a new floor and ε; R is erased: released cells do not move.
    await shareAt(t.db, { externalId: ids.get(s.who)! }, 5);
    await shareAt(t.db, { externalId: ids.get(q.who)! }, 0);
    await t.setPrivacyFloor(acme, 1, 1, 1, 10);
    const erased = await t.request('DELETE', `/participants/${ids.get(r.who)}`, {
      apiKey: acme.apiKey,
    });
    expect(erased.status).toBe(200);
    const later = await everyAnswer(group);
    // Every range the released cell answered answers the same. (The new floor applies at this
    // read: T's day now seals as a cell of its own, so ranges reaching day 5 gain it.)
    for (const query of Object.keys(before).filter((key) => key.includes('to=2026-03-0'))) {
      if (Number(/to=2026-03-0(\d)/.exec(query)![1]) < 5) {
        expect({ query, answer: later[query] }).toEqual({ query, answer: before[query] });
      }
    }
    const cells = await t.db.query(
      `SELECT first_day::text, last_day::text, participants, epsilon::float8 FROM cohort_cells
        WHERE group_id = $1 AND series = 'scores' ORDER BY last_day`,
      [group.groupID],
    );
    expect(cells.rows).toEqual([
      { first_day: '2026-03-02', last_day: '2026-03-03', participants: 4, epsilon: 1 },
      { first_day: '2026-03-05', last_day: '2026-03-05', participants: 1, epsilon: 10 },
    ]);
    // Count is live and exact: the erased participant's session is gone from it.
    expect(await metric(group, 'count', '?to=2026-03-04')).toEqual({ all: 3 });
  });

  it('the complement attack: four members who share their scores and one who does not never make a cell', async () => {
    await t.setPrivacyFloor(acme, 5, 10, 3);
    const group = await newGroup([
      ...[1, 2, 3, 4].map((i) => person(`open${i}`, 2, 10 * i, { level: 1 })),
      person('closed', 2, 23.4),
    ]);
    for (const query of QUERIES) {
      const answer = await metric(group, 'mhci', query);
      expect(Object.values(answer).every((value) => value === null)).toBe(true);
    }
    // Five hidden participants beside the four visible ones: a cell of nine sessions. Subtracting
    // the four visible scores leaves the five hidden ones blended, never one.
    const five = await newGroup([
      ...[1, 2, 3, 4].map((i) => person(`open${i}`, 2, 10 * i, { level: 1 })),
      ...[1, 2, 3, 4, 5].map((i) => person(`closed${i}`, 3, 50 + i)),
    ]);
    expect(await metric(five, 'mhci')).toEqual({ all: match.any(Object) });
    const cell = await t.db.query(
      `SELECT sessions, hidden_participants AS hidden, participants FROM cohort_cells
        WHERE group_id = $1 AND series = 'scores'`,
      [five.groupID],
    );
    expect(cell.rows).toEqual([{ sessions: 9, hidden: 5, participants: 9 }]);
  });

  it('words: cells seal on hidden speakers; a word is released with its noisy count of speakers only past the threshold, and one fewer than minWordSpeakers said is never stored', async () => {
    // ε = 10 and 3 speakers before noise: a word needs 3 + 15 speakers (word-release.ts), so 30
    // speakers pass (withheld only if the noise is ≤ −13 at scale 0.6: probability < 10⁻¹⁰).
    await t.setPrivacyFloor(acme, 3, 3, 3, 10);
    const group = await newGroup([
      ...Array.from({ length: 30 }, (_, i) =>
        person(`w${i}`, 2, 50, { words: i < 2 ? 'exhausted lonely' : 'exhausted overtime' }),
      ),
      person('v', 2, 50, { words: 'overtime', level: 4 }),
    ]);
    const cloud = (await metric(group, 'wordcloud', '?top=200')) as {
      all: Record<string, number>;
    };
    // 30 and 29 speakers are one apart: their noisy counts may come out in either order.
    expect(Object.keys(cloud.all).sort()).toEqual(['exhausted', 'overtime']);
    expect(cloud.all.exhausted + cloud.all.overtime).toBeCloseTo(1, 12);
    const stored = await t.db.query<{ word: string; count: string }>(
      `SELECT w.word, w.count FROM cohort_cell_words w JOIN cohort_cells c ON c.id = w.cell_id
        WHERE c.group_id = $1 ORDER BY w.word`,
      [group.groupID],
    );
    // Shares are the released counts over their sum: 30 and 29 speakers, each plus noise.
    const [exhausted, overtime] = stored.rows.map((row) => Number(row.count));
    expect(stored.rows.map((row) => row.word)).toEqual(['exhausted', 'overtime']);
    expect(cloud.all.exhausted).toBeCloseTo(exhausted / (exhausted + overtime), 12);
  });

  it('a result recorded late for a sealed day joins the next run; the sealed answer does not move', async () => {
    await t.setPrivacyFloor(acme, 2, 2, 1);
    const group = await newGroup([person('x', 2, 10), person('y', 3, 20)]);
    const sealed = await metric(group, 'mhci', '?groupBy=day');
    expect(Object.keys(sealed)).toEqual(['2026-03-02', '2026-03-03']);
    const through = await metric(group, 'mhci', '?to=2026-03-03');
    await checkIn(group, person('late', 2, 99));
    expect(await metric(group, 'mhci', '?to=2026-03-03')).toEqual(through);
    // The next run: the late result and one more participant, sealed when a later day closes.
    await checkIn(group, person('z', 6, 30));
    // Sealing runs again once another day has closed (here: as if two days later).
    const later = new Date(Date.now() + 2 * 86_400_000);
    await t.app.get(CohortSealer).sealGroup(group.groupID, { now: later });
    const cells = await t.db.query(
      `SELECT first_day::text, last_day::text, sessions, hidden_participants
         FROM cohort_cells WHERE group_id = $1 AND series = 'scores' ORDER BY last_day`,
      [group.groupID],
    );
    expect(cells.rows).toEqual([
      { first_day: '2026-03-02', last_day: '2026-03-03', sessions: 2, hidden_participants: 2 },
      { first_day: '2026-03-04', last_day: '2026-03-06', sessions: 2, hidden_participants: 2 },
    ]);
  });

  it('a check-in of today reaches group scores only once its day has closed', async () => {
    await t.setPrivacyFloor(acme, 1, 1, 1);
    const group = await newGroup([]);
    await checkIn(group, {
      who: `today.${groups}@example.com`,
      at: new Date().toISOString(),
      mhci: 42,
      words: 'exhausted',
    });
    expect(await metric(group, 'count')).toEqual({ all: 1 });
    expect(await metric(group, 'mhci')).toEqual({ all: null });
    const tomorrow = new Date(Date.now() + 2 * 86_400_000);
    expect(await t.app.get(CohortSealer).sealGroup(group.groupID, { now: tomorrow })).toBe(2);
    expect(await metric(group, 'mhci')).toEqual({ all: match.any(Object) });
  });

  it('a result for a day inside the unsealed run joins it, and the run is looked at again at the next read (no new day needs to close)', async () => {
    await t.setPrivacyFloor(acme, 2, 2, 1);
    const group = await newGroup([person('first', 2, 30)]);
    // Day 2 was looked at: one hidden participant, no cell.
    expect(await metric(group, 'mhci')).toEqual({ all: null });
    // A backfill for day 3, already closed and looked at: the run now holds two.
    await checkIn(group, person('backfill', 3, 60));
    expect(await metric(group, 'mhci')).toEqual({ all: match.any(Object) });
    const cells = await t.db.query(
      `SELECT first_day::text, last_day::text, participants FROM cohort_cells
        WHERE group_id = $1 AND series = 'scores'`,
      [group.groupID],
    );
    expect(cells.rows).toEqual([
      { first_day: '2026-03-02', last_day: '2026-03-03', participants: 2 },
    ]);
  });

  it('answers are the statistics of the union of the released cells in each period, for every range and period (running totals equal the cells)', async () => {
    await t.setPrivacyFloor(acme, 1, 1, 1);
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const group = await newGroup(
      Array.from({ length: 24 }, (_, i) => person(`r${i}`, 1 + (i % 8), random() * 100)),
    );
    await metric(group, 'mhci'); // seals
    const { rows: cells } = await t.db.query<{
      last_day: string;
      participants: number;
      noisy_sum: number;
      noisy_bins: number[];
      bin_noise_variance: number;
    }>(
      `SELECT last_day::text, participants, noisy_sum::float8 AS noisy_sum, noisy_bins,
              bin_noise_variance
         FROM cohort_cells WHERE group_id = $1 AND series = 'scores'`,
      [group.groupID],
    );
    expect(cells).toHaveLength(8);
    for (const query of QUERIES) {
      const params = new URLSearchParams(query);
      const answer = await metric(group, 'mhci', query);
      for (const [key, stats] of Object.entries(answer)) {
        const inPeriod = cells.filter((cell) => {
          const day = cell.last_day;
          const period =
            key === 'all'
              ? true
              : params.get('groupBy') === 'month'
                ? day.startsWith(key)
                : params.get('groupBy') === 'week'
                  ? Date.parse(day) >= Date.parse(key) &&
                    Date.parse(day) < Date.parse(key) + 7 * 86_400_000
                  : day === key;
          return (
            period && day >= (params.get('from') ?? '0000') && day <= (params.get('to') ?? '9999')
          );
        });
        const merged = {
          participants: inPeriod.reduce((sum, cell) => sum + cell.participants, 0),
          noisySum: inPeriod.reduce((sum, cell) => sum + cell.noisy_sum, 0),
          noisyBins: SCORE_MECHANISM_BINS.map((bin) =>
            inPeriod.reduce((sum, cell) => sum + cell.noisy_bins[bin], 0),
          ),
          binNoiseVariance: inPeriod.reduce((sum, cell) => sum + cell.bin_noise_variance, 0),
        };
        expect({ query, key, stats }).toEqual({ query, key, stats: scoreStatistics(merged) });
      }
    }
  });

  it('sealed cells hold no word said by a single participant', async () => {
    const { rows } = await t.db.query(
      `SELECT word FROM cohort_cell_words WHERE word = ANY ($1::text[])`,
      [SECRET_WORDS.split(' ')],
    );
    expect(rows).toEqual([]);
  });

  describe('the operator CLI: enterprises:set-privacy-floor', () => {
    let beta: TestEnterprise;
    const cli = (...args: string[]) =>
      runCli(['enterprises:set-privacy-floor', ...args], { DATABASE_URL: t.config.database.url });
    const floorOf = async (enterprise: TestEnterprise) =>
      (
        await t.db.query(
          `SELECT min_cohort_scores AS scores, min_cohort_words AS words,
                  min_word_speakers AS speakers, epsilon::float8
             FROM enterprises WHERE id = $1`,
          [enterprise.enterpriseId],
        )
      ).rows[0] as { scores: number; words: number; speakers: number; epsilon: number };

    beforeAll(async () => {
      beta = await t.newEnterprise('Beta');
    });

    it('--scores 4 --json: one JSON line with the whole floor', async () => {
      expect(await cli(beta.enterpriseId, '--scores', '4', '--json')).toEqual({
        code: 0,
        stdout: `${JSON.stringify({ enterpriseId: beta.enterpriseId, minCohortScores: 4, minCohortWords: 10, minWordSpeakers: 3, epsilon: 1 })}\n`,
        stderr: '',
      });
      expect(await floorOf(acme)).not.toEqual(await floorOf(beta));
    });

    it('--speakers alone keeps the rest; readable output without --json', async () => {
      const result = await cli(beta.enterpriseId, '--speakers', '5');
      expect(result).toEqual({
        code: 0,
        stdout:
          `Privacy floor of ${beta.enterpriseId}: a cell of group scores seals with 4 hidden ` +
          'participants, a cell of words with 10; a word needs at least 5 speakers before ' +
          'noise; each cell is released at ε = 1.\n',
        stderr: '',
      });
      expect(await floorOf(beta)).toEqual({ scores: 4, words: 10, speakers: 5, epsilon: 1 });
    });

    it('--epsilon sets ε alone (0.1–10, at most two decimals); the JSON carries it', async () => {
      expect(await cli(beta.enterpriseId, '--epsilon', '0.25', '--json')).toEqual({
        code: 0,
        stdout: `${JSON.stringify({ enterpriseId: beta.enterpriseId, minCohortScores: 4, minCohortWords: 10, minWordSpeakers: 5, epsilon: 0.25 })}\n`,
        stderr: '',
      });
      expect((await cli(beta.enterpriseId, '--epsilon', '10')).code).toBe(0);
      expect((await floorOf(beta)).epsilon).toBe(10);
      expect((await cli(beta.enterpriseId, '--epsilon', '0.1')).code).toBe(0);
      expect((await floorOf(beta)).epsilon).toBe(0.1);
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
      [['--epsilon', '0'], EnterpriseErrors.EpsilonInvalid('0')],
      [['--epsilon', '0.09'], EnterpriseErrors.EpsilonInvalid('0.09')],
      [['--epsilon', '10.01'], EnterpriseErrors.EpsilonInvalid('10.01')],
      [['--epsilon', '1.005'], EnterpriseErrors.EpsilonInvalid('1.005')],
      [['--epsilon', '1e0'], EnterpriseErrors.EpsilonInvalid('1e0')],
      [['--epsilon', '-1'], EnterpriseErrors.EpsilonInvalid('-1')],
      [['--epsilon', 'one'], EnterpriseErrors.EpsilonInvalid('one')],
      [['--scores', '5', '--epsilon', ' 1'], EnterpriseErrors.EpsilonInvalid(' 1')],
      [[], EnterpriseErrors.FloorMissing],
    ])('refuses %j and changes nothing', async (args, message) => {
      const before = await floorOf(beta);
      expect(await cli(beta.enterpriseId, ...args)).toEqual({
        code: 1,
        stdout: '',
        stderr: `${message}\n`,
      });
      expect(await floorOf(beta)).toEqual(before);
    });

    it('refuses an unknown or malformed enterprise id', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        expect(await cli(id, '--scores', '5')).toEqual({
          code: 1,
          stdout: '',
          stderr: `${EnterpriseErrors.NotFound(id)}\n`,
        });
      }
    });
  });
});
