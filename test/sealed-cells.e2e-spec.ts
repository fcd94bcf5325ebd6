/**
 * Group metrics from sealed cohort cells (docs/metrics.md, "Sealed cohort cells"), tried as the
 * enterprise would: it reads every answer, for every range and period, before and after every
 * event it can cause or observe (a new result, a level change, an erasure), and subtracts. No
 * combination may isolate a participant whose level hides them. Results are dated on closed
 * days (March 2026), so a read seals them; the seal delay itself is a unit test
 * (src/metrics/cohorts/sealing-runs.spec.ts) and one case below.
 */
import { PRIVACY_FLOOR } from '../src/common/privacy-model';
import { EnterpriseErrors } from '../src/enterprises/enterprises.errors';
import { Pool } from 'pg';
import { PiiCipher } from '../src/common/crypto/pii-cipher';
import { Database } from '../src/database/database';
import { CohortCellsRepository } from '../src/metrics/cohorts/cohort-cells.repository';
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

  it('a new enterprise starts at the defaults: 5 hidden participants for scores, 10 for words, 3 speakers', async () => {
    const { rows } = await t.db.query(
      `SELECT min_cohort_scores AS scores, min_cohort_words AS words,
              min_word_speakers AS speakers
         FROM enterprises WHERE id = $1`,
      [acme.enterpriseId],
    );
    expect(rows).toEqual([{ scores: 5, words: 10, speakers: 3 }]);
    expect(PRIVACY_FLOOR.defaultSpeakers).toBe(3);
  });

  it('the differencing attack: no pair of answers over any ranges and periods tells a hidden participant from another (swap their scores and words: every answer stays identical)', async () => {
    await t.setPrivacyFloor(acme, 3, 3, 2);
    // Days 2–4 blend three hidden participants (T among them) and a visible one into one cell;
    // days 5–7 a second cell. T's score is 23.4 in one group, swapped with H's in the other.
    const world = (swap: boolean): CheckIn[] => [
      person('visible', 2, 70, { level: 1 }),
      person('t', 2, swap ? 61.5 : 23.4, { words: swap ? 'tired sleep' : `tired ${SECRET_WORDS}` }),
      person('h', 3, swap ? 23.4 : 61.5, { words: swap ? `tired ${SECRET_WORDS}` : 'tired sleep' }),
      person('k', 4, 50, { words: 'tired sleep' }),
      person('a', 5, 40),
      person('b', 6, 45),
      person('c', 7, 90),
    ];
    const original = await newGroup(world(false));
    const swapped = await newGroup(world(true));
    const answers = await everyAnswer(original);
    expect(await everyAnswer(swapped)).toEqual(answers);
    // The answers are not all null: the cells do answer, with T inside one of them.
    expect(answers['mhci']).toEqual({
      all: match.objectContaining({ minMhci: 23.4, maxMhci: 90 }),
    });
    expect(answers['mhci?to=2026-03-03']).toEqual({ all: null });
    expect(answers['mhci?to=2026-03-04']).toEqual({
      all: match.objectContaining({ minMhci: 23.4, maxMhci: 70 }),
    });
    // Yesterday-minus-today: 'to 4th' minus 'to 3rd' is the whole cell, never T alone.
    expect(answers['mhci?from=2026-03-03&to=2026-03-03&groupBy=day']).toEqual({
      '2026-03-03': null,
    });
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
    expect(before['mhci']).toEqual({ all: match.objectContaining({ minMhci: 30, maxMhci: 60 }) });

    // T checks in on day 5 alone: the enterprise sees the webhook and reads again.
    const lone = person('t', 5, 1.5, { words: `tired ${SECRET_WORDS}` });
    await checkIn(group, lone);
    const after = await everyAnswer(group);
    for (const [query, answer] of Object.entries(before) as [string, Record<string, unknown>][]) {
      // A period now holding T's check-in gets the count's key, answered null; every other
      // answer is identical: min never jumps to T's 1.5.
      const now = after[query] as Record<string, unknown>;
      const added = Object.keys(now).filter((key) => !(key in answer));
      expect(added.map((key) => now[key])).toEqual(added.map(() => null));
      expect(Object.fromEntries(Object.entries(now).filter(([key]) => key in answer))).toEqual(
        answer,
      );
    }
    expect(JSON.stringify(after)).not.toContain('1.5');

    // S raises the level of the sealed check-in (its own browser, from now on visible), Q lowers;
    // a new floor; R is erased: sealed cells do not move.
    await shareAt(t.db, { externalId: ids.get(s.who)! }, 5);
    await shareAt(t.db, { externalId: ids.get(q.who)! }, 0);
    await t.setPrivacyFloor(acme, 1, 1, 1);
    const erased = await t.request('DELETE', `/participants/${ids.get(r.who)}`, {
      apiKey: acme.apiKey,
    });
    expect(erased.status).toBe(200);
    const later = await everyAnswer(group);
    expect(later['mhci']).toEqual(after['mhci']);
    expect(later['mhci?to=2026-03-04']).toEqual(before['mhci?to=2026-03-04']);
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
    expect(await metric(five, 'mhci')).toEqual({
      all: match.objectContaining({ minMhci: 10, maxMhci: 55, avgMhci: (100 + 265) / 9 }),
    });
  });

  it('words: a word enters a cell only when enough of its participants said it; cells seal on hidden speakers', async () => {
    await t.setPrivacyFloor(acme, 3, 3, 3);
    const group = await newGroup([
      person('w1', 2, 50, { words: `exhausted ${SECRET_WORDS}` }),
      person('w2', 2, 50, { words: 'exhausted overtime' }),
      person('w3', 3, 50, { words: 'exhausted overtime' }),
      person('w4', 3, 50, { words: 'overtime', level: 4 }),
    ]);
    expect(await metric(group, 'wordcloud', '?top=200')).toEqual({
      all: { exhausted: 0.5, overtime: 0.5 },
    });
  });

  it('a result recorded late for a sealed day joins the next run; the sealed answer does not move', async () => {
    await t.setPrivacyFloor(acme, 2, 2, 1);
    const group = await newGroup([person('x', 2, 10), person('y', 3, 20)]);
    const sealed = await metric(group, 'mhci', '?groupBy=day');
    expect(Object.keys(sealed)).toEqual(['2026-03-02', '2026-03-03']);
    await checkIn(group, person('late', 2, 99));
    expect(await metric(group, 'mhci', '?to=2026-03-03')).toEqual({
      all: match.objectContaining({ minMhci: 10, maxMhci: 20 }),
    });
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
    expect(await metric(group, 'mhci')).toEqual({ all: match.objectContaining({ minMhci: 42 }) });
  });

  it('two processes sealing the same group at once seal each run once', async () => {
    await t.setPrivacyFloor(acme, 1, 1, 1);
    const group = await newGroup([1, 2, 3, 4, 5, 6].map((day) => person(`c${day}`, day, day)));
    const sealer = t.app.get(CohortSealer);
    // The other process: its own connection pool, its own sealer, the same database.
    const pool = new Pool({ connectionString: t.config.database.url, max: 2 });
    const database = new Database(pool);
    const other = new CohortSealer(
      database,
      new CohortCellsRepository(database),
      t.app.get(PiiCipher),
      t.config,
    );
    try {
      const [a, b] = await Promise.all([
        sealer.sealGroup(group.groupID),
        other.sealGroup(group.groupID),
      ]);
      expect(a + b).toBe(12);
    } finally {
      await pool.end();
    }
    const { rows } = await t.db.query(
      `SELECT series, count(*)::int AS cells FROM cohort_cells WHERE group_id = $1
        GROUP BY series ORDER BY series`,
      [group.groupID],
    );
    expect(rows).toEqual([
      { series: 'scores', cells: 6 },
      { series: 'words', cells: 6 },
    ]);
    expect(await sealer.sealGroup(group.groupID)).toBe(0);
  });

  it('groupPercentiles compare a check-in with colleagues only when at least minCohortScores other participants have results', async () => {
    const fresh = await t.newEnterprise('Percentiles');
    const group = await t.newGroup(fresh, 'Pair');
    const percentilesOf = async (who: string, pitch: number, identifier?: string) => {
      const session = await t.completedSession(fresh, group, {
        identifier: identifier ?? `${who}@example.com`,
        result: engineResult({ features: { pitch } }),
      });
      await shareAt(t.db, { sessionId: session.sessionID }, 5);
      const read = await t.request('GET', `/sessions/${session.sessionID}`, {
        apiKey: fresh.apiKey,
      });
      return {
        id: session.userIdentifier,
        percentiles: (read.body as { groupPercentiles: unknown }).groupPercentiles,
      };
    };
    // A two-member group: B's percentile would tell on which side of B's value A's lies.
    const a = await percentilesOf('pair-a', 10);
    expect(a.percentiles).toEqual({});
    expect((await percentilesOf('pair-b', 20)).percentiles).toEqual({});
    // Another check-in of A's counts A once.
    expect((await percentilesOf('pair-a', 11, a.id)).percentiles).toEqual({});
    for (const who of ['pair-c', 'pair-d', 'pair-e']) {
      expect((await percentilesOf(who, 30)).percentiles).toEqual({});
    }
    // Five others (a, b, c, d, e) before the sixth: compared.
    expect((await percentilesOf('pair-f', 40)).percentiles).toEqual({ pitch: match.any(Number) });
  });

  it('answers from running totals equal percentile_cont over the sealed sessions, for every range and period, with values sharing bins', async () => {
    await t.setPrivacyFloor(acme, 1, 1, 1);
    // Scores close together (many share a 0.05-wide bin), ties, both ends of the scale.
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const palette = [0, 100, 50, 50.01, 50.0100001, 12.345678, 12.3456781, 99.99];
    const checkIns = Array.from({ length: 60 }, (_, i) =>
      person(`r${i}`, 1 + (i % 8), i % 3 === 0 ? palette[i % palette.length] : random() * 100),
    );
    const group = await newGroup(checkIns);
    const expected = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const cont = (p: number) => {
        const position = p * (sorted.length - 1);
        const first = Math.floor(position);
        return sorted[first] + (position - first) * (sorted[Math.ceil(position)] - sorted[first]);
      };
      return {
        minMhci: sorted[0],
        maxMhci: sorted[sorted.length - 1],
        percentile25Mhci: cont(0.25),
        percentile50Mhci: cont(0.5),
        percentile75Mhci: cont(0.75),
      };
    };
    for (const query of QUERIES) {
      const answer = (await metric(group, 'mhci', query)) as Record<
        string,
        Record<string, number> | null
      >;
      for (const [key, stats] of Object.entries(answer)) {
        const params = new URLSearchParams(query);
        const from = params.get('from') ?? '0000';
        const to = params.get('to') ?? '9999';
        const inPeriod = checkIns.filter((c) => {
          const day = c.at.slice(0, 10);
          const period =
            key === 'all'
              ? true
              : params.get('groupBy') === 'month'
                ? day.startsWith(key)
                : params.get('groupBy') === 'week'
                  ? Date.parse(day) >= Date.parse(key) &&
                    Date.parse(day) < Date.parse(key) + 7 * 86_400_000
                  : day === key;
          return period && day >= from && day <= to;
        });
        const values = inPeriod.map((c) => c.mhci);
        if (values.length === 0) {
          expect({ query, key, stats }).toEqual({ query, key, stats: null });
          continue;
        }
        expect({ query, key, stats: { ...stats, avgMhci: undefined } }).toEqual({
          query,
          key,
          stats: { ...expected(values), avgMhci: undefined },
        });
        const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
        expect(Math.abs(stats!.avgMhci - mean)).toBeLessThan(1e-9);
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
                  min_word_speakers AS speakers
             FROM enterprises WHERE id = $1`,
          [enterprise.enterpriseId],
        )
      ).rows[0] as { scores: number; words: number; speakers: number };

    beforeAll(async () => {
      beta = await t.newEnterprise('Beta');
    });

    it('--scores 4 --json: one JSON line with the whole floor', async () => {
      expect(await cli(beta.enterpriseId, '--scores', '4', '--json')).toEqual({
        code: 0,
        stdout: `${JSON.stringify({ enterpriseId: beta.enterpriseId, minCohortScores: 4, minCohortWords: 10, minWordSpeakers: 3 })}\n`,
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
          'participants, a cell of words with 10; a word is kept when 5 said it.\n',
        stderr: '',
      });
      expect(await floorOf(beta)).toEqual({ scores: 4, words: 10, speakers: 5 });
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
