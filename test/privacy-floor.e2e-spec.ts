import { COHORT_BACKFILL } from '../migrations/1764378000000-PrivacyFloor';
import { PRIVACY_FLOOR } from '../src/common/privacy-model';
import { EnterpriseErrors } from '../src/enterprises/enterprises.errors';
import { MetricsErrors } from '../src/metrics/metrics.errors';
import {
  conversation,
  ENGINE_TOKEN,
  engineResult,
  postResult,
  subscores,
  userSays,
} from './support/engine';
import { cli as runCli } from './support/cli';
import {
  SessionCreated,
  startTestApp,
  TestApp,
  TestEnterprise,
  TestGroup,
} from './support/test-app';

/** One check-in to record: who, when (UTC), the score and what they said. */
interface CheckIn {
  who: string;
  at: string;
  mhci: number;
  words: string;
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const quantile = (q: number) => {
    const position = (sorted.length - 1) * q;
    const low = Math.floor(position);
    return sorted[low] + (sorted[Math.ceil(position)] - sorted[low]) * (position - low);
  };
  return {
    minMhci: sorted[0],
    maxMhci: sorted[sorted.length - 1],
    avgMhci: values.reduce((sum, value) => sum + value, 0) / values.length,
    percentile25Mhci: quantile(0.25),
    percentile50Mhci: quantile(0.5),
    percentile75Mhci: quantile(0.75),
  };
};

/**
 * `n` people, each with one check-in at `at` scoring 10, 20, … and saying `words`, or "shared"
 * and a word of their own (`…worda`, `…wordb`: letters only, as words are counted).
 */
const people = (prefix: string, n: number, at: string, words?: string): CheckIn[] =>
  Array.from({ length: n }, (_, i) => ({
    who: `${prefix}${i + 1}@example.com`,
    at,
    mhci: 10 * (i + 1),
    words: words ?? `shared ${prefix}word${String.fromCharCode(97 + i)}`,
  }));

/**
 * The privacy floor of group metrics (docs/metrics.md), on known data around it: 4 vs 5 participants
 * for scores, 9 vs 10 for words, one participant with many sessions counted once, periods with
 * groupBy, the operator CLI, and the enterprise's single-day attack on a lone participant.
 */
describe('Privacy floor of group metrics', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  /** Email → external ID, so a second check-in of the same person is the same participant. */
  const ids = new Map<string, string>();

  const checkIn = async (enterprise: TestEnterprise, group: TestGroup, c: CheckIn) => {
    const session = await t.completedSession(enterprise, group, {
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
    return session;
  };

  const groupWith = async (enterprise: TestEnterprise, name: string, checkIns: CheckIn[]) => {
    const group = await t.newGroup(enterprise, name);
    for (const c of checkIns) await checkIn(enterprise, group, c);
    return group;
  };

  const metric = async (
    group: TestGroup,
    name: 'count' | 'mhci' | 'wordcloud',
    query = '',
    enterprise = acme,
  ) => {
    const response = await t.request('GET', `/metrics/groups/${group.groupID}/${name}${query}`, {
      apiKey: enterprise.apiKey,
    });
    return { status: response.status, body: response.body, text: response.text };
  };

  beforeAll(async () => {
    t = await startTestApp({ ENGINE_TOKEN });
    acme = await t.newEnterprise('Acme');
  });
  afterAll(() => t.close());

  it('a new enterprise starts at the defaults: 5 participants for scores, 10 for words', async () => {
    const { rows } = await t.db.query(
      'SELECT min_cohort_scores AS scores, min_cohort_words AS words FROM enterprises WHERE id = $1',
      [acme.enterpriseId],
    );
    expect(rows).toEqual([{ scores: 5, words: 10 }]);
    expect([PRIVACY_FLOOR.defaultScores, PRIVACY_FLOOR.defaultWords]).toEqual([5, 10]);
  });

  describe('scores (mhci): 4 vs 5 participants, one participant counted once', () => {
    const day = '2026-03-02T09:00:00Z';
    // Four participants, the first with three sessions: six sessions, four people.
    const four = [
      ...people('four', 4, day),
      { who: 'four1@example.com', at: '2026-03-02T10:00:00Z', mhci: 15, words: 'again' },
      { who: 'four1@example.com', at: '2026-03-02T11:00:00Z', mhci: 25, words: 'more' },
    ];

    it('six sessions of four participants: mhci is null, count still answers', async () => {
      const group = await groupWith(acme, 'Four', four);
      expect(await metric(group, 'count')).toMatchObject({ status: 200, body: { all: 6 } });
      expect(await metric(group, 'mhci')).toMatchObject({ status: 200, body: { all: null } });
      expect((await metric(group, 'mhci', '?groupBy=day')).body).toEqual({ '2026-03-02': null });
    });

    it('a fifth participant: the exact statistics of all seven sessions', async () => {
      // The same shape with other people (a participant's ID belongs to the groups they joined).
      const five = [
        ...four.map((c) => ({ ...c, who: c.who.replace('four', 'five') })),
        ...people('fifth', 1, day).map((c) => ({ ...c, mhci: 90 })),
      ];
      const group = await groupWith(acme, 'Five', five);
      expect(await metric(group, 'mhci')).toMatchObject({
        status: 200,
        body: { all: stats(five.map((c) => c.mhci)) },
      });
    });

    it('one participant with five sessions on five days is one participant', async () => {
      const days = ['02', '03', '04', '05', '06'];
      const group = await groupWith(
        acme,
        'Repeat',
        days.map((d, i) => ({
          who: 'repeat@example.com',
          at: `2026-03-${d}T12:00:00Z`,
          mhci: 50 + i,
          words: 'alone',
        })),
      );
      expect((await metric(group, 'count')).body).toEqual({ all: 5 });
      expect((await metric(group, 'mhci')).body).toEqual({ all: null });
      expect((await metric(group, 'mhci', '?groupBy=month')).body).toEqual({ '2026-03': null });
    });

    it('five participants on five days: each day is withheld, their month and week are not', async () => {
      const days = ['02', '03', '04', '05', '06']; // Monday to Friday of one ISO week
      const spread = days.map((d, i) => ({
        who: `spread${i}@example.com`,
        at: `2026-03-${d}T12:00:00Z`,
        mhci: 20 + 10 * i,
        words: 'spread',
      }));
      const group = await groupWith(acme, 'Spread', spread);
      const all = stats(spread.map((c) => c.mhci));
      expect((await metric(group, 'mhci', '?groupBy=day')).body).toEqual(
        Object.fromEntries(days.map((d) => [`2026-03-${d}`, null])),
      );
      // The keys stay aligned with count's.
      expect(Object.keys((await metric(group, 'count', '?groupBy=day')).body as object)).toEqual(
        days.map((d) => `2026-03-${d}`),
      );
      expect((await metric(group, 'mhci', '?groupBy=week')).body).toEqual({ '2026-03-02': all });
      expect((await metric(group, 'mhci', '?groupBy=month')).body).toEqual({ '2026-03': all });
      expect((await metric(group, 'mhci', '?from=2026-03-03&to=2026-03-06')).body).toEqual({
        all: null,
      });
    });
  });

  describe('words (wordcloud): 9 vs 10 participants whose words are counted', () => {
    let group: TestGroup;

    it('ten participants, one of whom said only stopwords: nine give words, null', async () => {
      group = await groupWith(acme, 'Words', [
        ...people('w', 9, '2026-03-10T09:00:00Z'),
        { who: 'quiet@example.com', at: '2026-03-10T09:30:00Z', mhci: 55, words: 'and the of' },
      ]);
      expect((await metric(group, 'count')).body).toEqual({ all: 10 });
      expect((await metric(group, 'mhci')).body).not.toEqual({ all: null });
      expect(await metric(group, 'wordcloud', '?top=200')).toMatchObject({
        status: 200,
        body: { all: null },
      });
    });

    it('the quiet one speaks on another day: ten give words, the exact cloud', async () => {
      await checkIn(acme, group, {
        who: 'quiet@example.com',
        at: '2026-03-11T09:00:00Z',
        mhci: 60,
        words: 'rest',
      });
      // 9 × "shared" + 9 distinct words + "rest": 19 words.
      const cloud = (await metric(group, 'wordcloud', '?top=3')).body as {
        all: Record<string, number>;
      };
      expect(Object.keys(cloud.all)).toEqual(['shared', 'rest', 'wworda']);
      expect(cloud.all.shared).toBeCloseTo(9 / 19, 12);
      expect(cloud.all.rest).toBeCloseTo(1 / 19, 12);
      // Per day neither reaches ten; the month does.
      expect((await metric(group, 'wordcloud', '?groupBy=day')).body).toEqual({
        '2026-03-10': null,
        '2026-03-11': null,
      });
      const monthly = (await metric(group, 'wordcloud', '?groupBy=month&top=1')).body;
      expect(Object.keys(monthly as object)).toEqual(['2026-03']);
      expect((monthly as Record<string, Record<string, number>>)['2026-03'].shared).toBeCloseTo(
        9 / 19,
        12,
      );
    });

    it('top is at most 200', async () => {
      expect((await metric(group, 'wordcloud', '?top=200')).status).toBe(200);
      for (const top of ['201', '999999']) {
        expect(await metric(group, 'wordcloud', `?top=${top}`)).toMatchObject({
          status: 400,
          body: { error: MetricsErrors.TopInvalid },
        });
      }
    });
  });

  it('the single-day attack: narrowing to the day a lone participant checked in shows nothing of them', async () => {
    // Ten colleagues on April 1st; on April 2nd one participant, privacy level 0, alone.
    const group = await groupWith(acme, 'Team', [
      ...people('team', 10, '2026-04-01T09:00:00Z', 'busy week'),
      { who: 'lone@example.com', at: '2026-04-02T15:00:00Z', mhci: 13, words: 'divorce lawyer' },
    ]);
    const { rows } = await t.db.query(
      `SELECT m.privacy_level FROM memberships m JOIN participants p ON p.id = m.participant_id
        WHERE p.external_id = $1`,
      [ids.get('lone@example.com')],
    );
    expect(rows).toEqual([{ privacy_level: 0 }]);

    const oneDay = '?from=2026-04-02&to=2026-04-02';
    expect((await metric(group, 'count', oneDay)).body).toEqual({ all: 1 });
    const mhci = await metric(group, 'mhci', oneDay);
    expect(mhci).toMatchObject({ status: 200, body: { all: null } });
    const cloud = await metric(group, 'wordcloud', `${oneDay}&top=200`);
    expect(cloud).toMatchObject({ status: 200, body: { all: null } });
    for (const answer of [mhci, cloud]) {
      expect(answer.text).not.toMatch(/13|divorce|lawyer/);
    }
    // The attack as first written (top=999999) is refused.
    expect((await metric(group, 'wordcloud', `${oneDay}&top=999999`)).status).toBe(400);
    // Per day over the whole range: the lone day keeps its key and answers null.
    const daily = (await metric(group, 'mhci', '?groupBy=day')).body as Record<string, unknown>;
    expect(daily['2026-04-02']).toBeNull();
    expect(daily['2026-04-01']).toEqual(stats(people('team', 10, '').map((c) => c.mhci)));
    const dailyWords = (await metric(group, 'wordcloud', '?groupBy=day&top=200')).body;
    expect(dailyWords).toEqual({ '2026-04-01': { busy: 0.5, week: 0.5 }, '2026-04-02': null });
    // Among eleven, their score and words are part of the anonymous whole, as intended.
    expect((await metric(group, 'mhci')).body).toEqual({
      all: stats([...people('team', 10, '').map((c) => c.mhci), 13]),
    });
  });

  describe('the operator CLI: enterprises:set-privacy-floor', () => {
    let beta: TestEnterprise;
    let four: TestGroup;
    const cli = (...args: string[]) =>
      runCli(['enterprises:set-privacy-floor', ...args], {
        DATABASE_URL: t.config.database.url,
      });
    const floorOf = async (enterprise: TestEnterprise) =>
      (
        await t.db.query(
          'SELECT min_cohort_scores AS scores, min_cohort_words AS words FROM enterprises WHERE id = $1',
          [enterprise.enterpriseId],
        )
      ).rows[0] as { scores: number; words: number };

    beforeAll(async () => {
      beta = await t.newEnterprise('Beta');
      four = await groupWith(beta, 'Four', people('beta', 4, '2026-05-04T09:00:00Z'));
    });

    it('--scores 4 --json: one JSON line, and four participants now show', async () => {
      expect((await metric(four, 'mhci', '', beta)).body).toEqual({ all: null });
      const result = await cli(beta.enterpriseId, '--scores', '4', '--json');
      expect(result).toEqual({
        code: 0,
        stdout: `${JSON.stringify({ enterpriseId: beta.enterpriseId, minCohortScores: 4, minCohortWords: 10 })}\n`,
        stderr: '',
      });
      expect((await metric(four, 'mhci', '', beta)).body).toEqual({
        all: stats([10, 20, 30, 40]),
      });
      // Acme's floor is its own.
      expect(await floorOf(acme)).toEqual({ scores: 5, words: 10 });
    });

    it('--words alone keeps the scores floor; readable output without --json', async () => {
      const result = await cli(beta.enterpriseId, '--words', '4');
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(
        `Privacy floor of ${beta.enterpriseId}: group mhci needs 4 participants per bucket, ` +
          'group wordcloud 4.\n',
      );
      expect(await floorOf(beta)).toEqual({ scores: 4, words: 4 });
      expect((await metric(four, 'wordcloud', '?top=1', beta)).body).toEqual({
        all: { shared: 0.5 },
      });
      expect((await cli(beta.enterpriseId, '--scores', '100', '--words', '1')).code).toBe(0);
      expect(await floorOf(beta)).toEqual({ scores: 100, words: 1 });
    });

    it.each([
      [['--scores', '0'], EnterpriseErrors.FloorInvalid('--scores', '0')],
      [['--scores', '101'], EnterpriseErrors.FloorInvalid('--scores', '101')],
      [['--words', '5.5'], EnterpriseErrors.FloorInvalid('--words', '5.5')],
      [['--words', 'ten'], EnterpriseErrors.FloorInvalid('--words', 'ten')],
      [['--scores', '5', '--words', '1000'], EnterpriseErrors.FloorInvalid('--words', '1000')],
      [[], EnterpriseErrors.FloorMissing],
    ])('refuses %j and changes nothing', async (args, message) => {
      const before = await floorOf(beta);
      const result = await cli(beta.enterpriseId, ...args);
      expect(result).toEqual({ code: 1, stdout: '', stderr: `${message}\n` });
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

  describe('the rollups behind it', () => {
    const recount = `
      SELECT s.group_id::int AS "groupId", (s.completed_at AT TIME ZONE 'UTC')::date::text AS day,
             count(DISTINCT s.participant_id)::int AS participants,
             count(DISTINCT s.participant_id) FILTER (WHERE EXISTS (
               SELECT 1 FROM session_word_counts w WHERE w.session_id = s.session_id))::int
               AS "wordParticipants"
        FROM sessions s WHERE s.completed_at IS NOT NULL
       GROUP BY 1, 2 ORDER BY 1, 2`;
    const rollup = `
      SELECT group_id::int AS "groupId", day::text AS day, participants,
             word_participants AS "wordParticipants"
        FROM group_day_cohorts ORDER BY 1, 2`;
    const members = `
      SELECT group_id, day::text, participant_id, sessions, word_sessions
        FROM group_day_participants ORDER BY 1, 2, 3`;

    it('concurrent check-ins of one participant on one day count them once, with or without words', async () => {
      const group = await t.newGroup(acme, 'Burst');
      const first = await checkIn(acme, group, {
        who: 'burst@example.com',
        at: '2026-06-01T08:00:00Z',
        mhci: 40,
        words: 'and',
      });
      const sessions: SessionCreated[] = [];
      for (let i = 0; i < 8; i++) {
        const created = await t.createSession(acme, group, first.userIdentifier);
        sessions.push(created.body as SessionCreated);
      }
      const results = await Promise.all(
        sessions.map((session, i) =>
          postResult(
            t,
            session.sessionID,
            engineResult({
              mhci: 40 + i,
              subscores: subscores(1),
              transcript: userSays(i % 2 === 0 ? 'the of' : `tired ${i}`),
              features: { pitch: i },
              completedAt: `2026-06-01T${String(10 + i).padStart(2, '0')}:00:00Z`,
            }),
          ),
        ),
      );
      expect(results.map((result) => result.status)).toEqual(sessions.map(() => 200));
      const { rows } = await t.db.query(
        `SELECT participants, word_participants FROM group_day_cohorts WHERE group_id = $1`,
        [group.groupID],
      );
      expect(rows).toEqual([{ participants: 1, word_participants: 1 }]);
      const member = await t.db.query(
        'SELECT sessions, word_sessions FROM group_day_participants WHERE group_id = $1',
        [group.groupID],
      );
      expect(member.rows).toEqual([{ sessions: 9, word_sessions: 4 }]);
    });

    it('equal a recount from the sessions, and the migration rebuilds exactly them', async () => {
      const counted = (await t.db.query(recount)).rows as unknown[];
      expect(counted.length).toBeGreaterThan(10);
      expect((await t.db.query(rollup)).rows).toEqual(counted);
      const kept = (await t.db.query(members)).rows as unknown[];
      await t.db.query('TRUNCATE group_day_cohorts, group_day_participants');
      for (const statement of COHORT_BACKFILL) await t.db.query(statement);
      expect((await t.db.query(rollup)).rows).toEqual(counted);
      expect((await t.db.query(members)).rows).toEqual(kept);
    });
  });
});
