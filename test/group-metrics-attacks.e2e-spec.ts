/**
 * The attacks of an enterprise that invents participants (docs/metrics.md, "The budget" and
 * "Release windows"), run against the service as the enterprise would run them. It creates
 * members with any email, does their check-ins itself, keeps them hidden or shows them as it
 * likes, knows what they scored and said, reads as often and in as many ways as it likes, before
 * and after any change it can make (a level, a late result, an erasure). The operator lets every
 * answer through (maxMargin 100). Each attack broke the exact group answers of the first version;
 * each is shown here not to work against releases drawn once per calendar window. Statistical
 * assertions say in a comment how likely a correct build is to fail them (below 10⁻⁴ each).
 */
import { conversation, ENGINE_TOKEN, engineResult, postResult, subscores } from './support/engine';
import { ParticipantChoices } from '../src/privacy/participant-choices';
import { WindowReleaser } from '../src/metrics/windows/window-releaser';
import { shareAt } from './support/levels';
import { startTestApp, TestApp, TestEnterprise, TestGroup } from './support/test-app';

/** Her check-in: hidden (level 0), MHCI 37.25, and what she said. */
const HER = { mhci: 37.25, words: 'I think I am pregnant and I want to quit' };
const INVENTED_SCORES = [50, 51, 52, 53, 54, 55, 56, 57, 58];
const RARE_WORDS = ['pregnant', 'quit', 'unionize', 'lawyer'];
/** Her check-in's day: March 2026, a window every read below finds released. */
const DAY = '2026-03-02T09:00:00Z';
const DAY_MS = 86_400_000;

type Stats = Record<string, number>;
type WithAccuracy = { value: unknown; accuracy: Record<string, unknown> };

describe('Group metrics against an enterprise that invents participants', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let n = 0;

  beforeAll(async () => {
    // Releases come from reads, or from the releaser at a time a case chooses: no sweep between.
    t = await startTestApp({ ENGINE_TOKEN, RUN_WORKERS: 'false' });
    // The default floors (5 / 10 / 3) and budget (ε_year = 24, monthly windows); every answer let
    // through however wide its margin, the most an enterprise can see.
    acme = await t.newEnterprise('Acme');
    await t.setPrivacyFloor(acme, 5, 10, { maxMargin: 100 });
  });
  afterAll(() => t.close());

  const checkIn = async (
    group: TestGroup,
    check: {
      mhci: number;
      words?: string;
      features?: Record<string, number>;
      who?: string;
      handedOff?: boolean;
      at?: string;
    },
    enterprise: TestEnterprise = acme,
  ) =>
    t.completedSession(enterprise, group, {
      identifier: check.who ?? `invented.${++n}@example.com`,
      handedOff: check.handedOff,
      result: engineResult({
        mhci: check.mhci,
        subscores: subscores(1),
        transcript: conversation('How are you?', check.words ?? 'fine'),
        features: check.features ?? { stress: 0.5 },
        completedAt: check.at ?? DAY,
      }),
    });

  const metric = async (
    group: TestGroup,
    name: string,
    query = '',
    enterprise: TestEnterprise = acme,
  ) => {
    const response = await t.request('GET', `/metrics/groups/${group.groupID}/${name}${query}`, {
      apiKey: enterprise.apiKey,
    });
    expect(response.status).toBe(200);
    return response.body as Record<string, Stats | null>;
  };

  /** Her window: she and nine invented members, all hidden, in one month; two repeat her rare words. */
  const herCell = async () => {
    const group = await t.newGroup(acme, `Team ${++n}`);
    const her = await checkIn(group, HER);
    const invented = [];
    for (const [i, mhci] of INVENTED_SCORES.entries()) {
      invented.push(
        await checkIn(group, {
          mhci,
          words: i < 2 ? RARE_WORDS.join(' ') : 'tired of meetings',
        }),
      );
    }
    return { group, her, invented };
  };

  describe('1–2. nine invented members and her, in twelve groups of one month', () => {
    const cells: Awaited<ReturnType<typeof herCell>>[] = [];
    const estimates: number[] = [];
    const answers: Stats[] = [];

    beforeAll(async () => {
      // Every group's check-ins first: the first read releases the month for all of them (a
      // result for it afterwards is late).
      for (let i = 0; i < 12; i++) cells.push(await herCell());
      for (const { group } of cells) {
        const { all } = await metric(group, 'mhci');
        answers.push(all!);
        // Ten times the average is the noisy sum: minus the nine scores it invented.
        estimates.push(10 * all!.avgMhci - INVENTED_SCORES.reduce((sum, v) => sum + v, 0));
      }
    });

    it('ten times the average minus the nine invented scores does not give her score: within 10 points of 37.25 in at most 5 of 12 groups (a correct build fails with probability 3·10⁻⁶)', () => {
      // The estimate is her score plus the sum's noise, discrete Gaussian of σ ≈ 204 points at the
      // default monthly release: within 10 points with probability p ≈ 0.039. 6 or more of 12
      // within: C(12, 6) · p⁶ ≈ 3·10⁻⁶. Exact answers put all 12 on 37.25.
      const close = estimates.filter((estimate) => Math.abs(estimate - HER.mhci) < 10);
      expect(close.length).toBeLessThanOrEqual(5);
    });

    it('every answer is six numbers of one distribution, never her exact minimum', () => {
      for (const all of answers) expect(Object.keys(all)).toHaveLength(6);
      // The minimum is the 5th percentile of the noisy histogram, not a participant's value.
      expect(answers.filter((all) => all.minMhci === HER.mhci).length).toBeLessThanOrEqual(1);
    });

    it('reading again, or the same month another way, gives the same draw: nothing to average away', async () => {
      for (const [i, { group }] of cells.entries()) {
        const again = [
          await metric(group, 'mhci'),
          await metric(group, 'mhci', '?from=2026-03-01&to=2026-03-31'),
          await metric(group, 'mhci', '?from=2026-02-01&to=2026-04-30'),
        ];
        expect(again).toEqual(again.map(() => ({ all: answers[i] })));
        expect(await metric(group, 'mhci', '?groupBy=month')).toEqual({ '2026-03': answers[i] });
      }
    });

    it('subtracting two answers gives nothing new: every range that cuts her month answers null, every other one the same numbers', async () => {
      const { group } = cells[0];
      for (let day = 1; day <= 31; day++) {
        const d = `2026-03-${String(day).padStart(2, '0')}`;
        // "Everything up to the day before her check-in", "from the day after": nothing at all.
        for (const query of [`?to=${d}`, `?from=${d}`, `?from=${d}&to=${d}`]) {
          const whole =
            (query === `?to=${d}` && day === 31) || (query === `?from=${d}` && day === 1);
          expect({ query, answer: await metric(group, 'mhci', query) }).toEqual({
            query,
            answer: { all: whole ? answers[0] : null },
          });
        }
      }
      for (const groupBy of ['day', 'week']) {
        const periods = await metric(group, 'mhci', `?groupBy=${groupBy}`);
        expect(Object.values(periods)).toEqual(Object.keys(periods).map(() => null));
      }
    });

    it('two groups with the same data release different noise (equal with probability ≈ 1.4·10⁻⁵)', async () => {
      // Two independent draws of discrete Gaussian noise of σ ≈ 20,440 hundredths coincide with
      // probability Σ pmf(z)² ≈ 1/(2σ√π). The answers are post-processing of these releases
      // (release-windows.e2e-spec.ts).
      const { rows } = await t.db.query<{ noisy_sum: string }>(
        `SELECT noisy_sum FROM metric_releases WHERE series = 'scores' AND group_id = ANY ($1)
          ORDER BY group_id`,
        [[cells[0].group.groupID, cells[1].group.groupID]],
      );
      expect(rows).toHaveLength(2);
      expect(rows[0].noisy_sum).not.toBe(rows[1].noisy_sum);
    });

    it('reading before and after it raises the nine, adds a late result and erases members: the same answer', async () => {
      const { group, her, invented } = cells[0];
      // The nine shown at level 5 (the enterprise's own browsers).
      for (const session of invented) await shareAt(t.db, { sessionId: session.sessionID }, 5);
      expect(await metric(group, 'mhci')).toEqual({ all: answers[0] });
      // A late result for her month: a tenth invented member at 0 the enterprise knows.
      await checkIn(group, { mhci: 0 });
      expect(await metric(group, 'mhci')).toEqual({ all: answers[0] });
      expect(await metric(group, 'mhci', '?accuracy=true')).toMatchObject({
        all: { accuracy: { participants: 10, lateResults: 1 } },
      });
      // Erasing two invented members, then her: the release is what it was.
      for (const { userIdentifier } of [invented[0], invented[1], her]) {
        const erased = await t.request('DELETE', `/participants/${userIdentifier}`, {
          apiKey: acme.apiKey,
        });
        expect(erased.status).toBe(200);
        expect(await metric(group, 'mhci')).toEqual({ all: answers[0] });
      }
    });

    it('words: her rare words are never shown, nor the ones two invented members repeat: ten speakers cannot pass a word', async () => {
      for (const { group } of cells.slice(1)) {
        // A word needs about 54 speakers at the default monthly release (accuracy.speakersNeeded):
        // the answer is null, whatever the range or period.
        for (const query of ['', '?top=200', '?groupBy=month&top=200', '?to=2026-03-31&top=200']) {
          const cloud = await metric(group, 'wordcloud', query);
          expect(JSON.stringify(cloud)).not.toMatch(new RegExp(RARE_WORDS.join('|')));
          expect(Object.values(cloud)).toEqual([null]);
        }
        const { all } = (await metric(group, 'wordcloud', '?accuracy=true')) as unknown as {
          all: WithAccuracy;
        };
        expect(all.accuracy).toMatchObject({ reason: 'too-small-for-words', participants: 10 });
        expect(all.accuracy.speakersNeeded).toBeGreaterThan(50);
      }
      const { rows } = await t.db.query(
        `SELECT w.word FROM metric_release_words w JOIN metric_releases r ON r.id = w.release_id
          WHERE r.group_id = ANY ($1)`,
        [cells.map(({ group }) => group.groupID)],
      );
      expect(rows).toEqual([]);
    });
  });

  describe('2b. a word only one hidden participant says', () => {
    it('never shows, and never changes whether or when a window is released: two enterprises identical but for her word', async () => {
      // Two enterprises with the same settings and the same forty members in June 2026, at a
      // budget where a word needs 22 speakers; in one of them she also says her word, twice.
      const twins: { enterprise: TestEnterprise; group: TestGroup }[] = [];
      for (const name of ['With her word', 'Without it']) {
        const enterprise = await t.newEnterprise(name);
        await t.setPrivacyFloor(enterprise, 5, 10, { budget: 100, maxMargin: 100 });
        const group = await t.newGroup(enterprise, 'Team');
        for (let i = 0; i < 40; i++) {
          const words =
            i === 0 && twins.length === 0
              ? 'tired of meetings, pregnant, pregnant'
              : 'tired of meetings meetings';
          await checkIn(
            group,
            {
              mhci: 30 + i,
              words,
              who: `twin.${i}.${twins.length}@example.com`,
              at: `2026-06-${String(1 + (i % 30)).padStart(2, '0')}T09:00:00Z`,
            },
            enterprise,
          );
        }
        twins.push({ enterprise, group });
      }
      // When: the calendar alone. June's end plus the grace period, and not a millisecond before.
      const releaser = t.app.get(WindowReleaser);
      const due = new Date(
        Date.parse('2026-07-01T00:00:00Z') + t.config.metrics.releaseGraceHours * 3_600_000,
      );
      for (const { enterprise } of twins) {
        expect(
          await releaser.releaseEnterprise(enterprise.enterpriseId, new Date(due.getTime() - 1)),
        ).toBe(0);
      }
      for (const { enterprise } of twins) {
        expect(await releaser.releaseEnterprise(enterprise.enterpriseId, due)).toBe(1);
        expect(
          await releaser.releaseEnterprise(
            enterprise.enterpriseId,
            new Date(due.getTime() + DAY_MS),
          ),
        ).toBe(0);
      }
      // Whether: the same windows and releases, but for the noise drawn.
      const released = async ({ enterprise, group }: (typeof twins)[number]) => ({
        windows: (
          await t.db.query(
            `SELECT kind, first_day::text, last_day::text, epsilon_year::float8,
                    released_at IS NOT NULL AS released
               FROM metric_windows WHERE enterprise_id = $1`,
            [enterprise.enterpriseId],
          )
        ).rows,
        releases: (
          await t.db.query(
            `SELECT series, participants, released, left_out, late_results, rho, word_threshold,
                    (SELECT array_agg(word ORDER BY word) FROM metric_release_words
                      WHERE release_id = r.id) AS words
               FROM metric_releases r WHERE group_id = $1 ORDER BY series`,
            [group.groupID],
          )
        ).rows,
      });
      const [withHer, without] = [await released(twins[0]), await released(twins[1])];
      expect(withHer).toEqual(without);
      expect(withHer.windows).toEqual([
        {
          kind: 'month',
          first_day: '2026-06-01',
          last_day: '2026-06-30',
          epsilon_year: 100,
          released: true,
        },
      ]);
      // "meetings", 39 and 40 speakers, passes in both (at threshold 22, withheld only if the
      // noise is ≤ −17 at scale 1: below 10⁻⁷); hers, one speaker, in neither.
      expect(withHer.releases).toEqual([
        expect.objectContaining({ series: 'scores', participants: 40, released: true }),
        expect.objectContaining({
          series: 'words',
          participants: 40,
          released: true,
          word_threshold: 22,
          words: ['meetings'],
        }),
      ]);
      // What the enterprise reads: the same but for the noise.
      const read = async ({ enterprise, group }: (typeof twins)[number]) => {
        const mhci = (await metric(group, 'mhci', '?accuracy=true', enterprise)) as unknown as {
          all: WithAccuracy;
        };
        const words = (await metric(
          group,
          'wordcloud',
          '?accuracy=true',
          enterprise,
        )) as unknown as {
          all: WithAccuracy;
        };
        const { intervals: _mhciIntervals, ...mhciAccuracy } = mhci.all.accuracy;
        const { intervals: _wordIntervals, ...wordAccuracy } = words.all.accuracy;
        return {
          mhciShown: mhci.all.value !== null,
          mhciAccuracy,
          words: Object.keys(words.all.value as Record<string, number>),
          wordAccuracy,
        };
      };
      const [readWith, readWithout] = [await read(twins[0]), await read(twins[1])];
      expect(readWith).toEqual(readWithout);
      expect(readWith).toMatchObject({ mhciShown: true, words: ['meetings'] });
      for (const twin of twins) {
        const cloud = await metric(twin.group, 'wordcloud', '?top=200', twin.enterprise);
        expect(JSON.stringify(cloud)).not.toContain('pregnant');
      }
    });
  });

  describe('3. groupPercentiles: five invented members at level 5 and probing check-ins', () => {
    /** The probes' group percentiles, in a new group with or without a hidden colleague. */
    const probe = async (withHiddenColleague: boolean) => {
      const group = await t.newGroup(acme, `Probe ${++n}`);
      if (withHiddenColleague) await checkIn(group, { mhci: 60, features: { stress: 0.73 } });
      for (const stress of [0.1, 0.2, 0.3, 0.4, 0.5]) {
        const who = `invented.${++n}@example.com`;
        const created = await t.createSession(acme, group, who);
        await shareAt(
          t.db,
          { externalId: (created.body as { userIdentifier: string }).userIdentifier },
          5,
        );
        await postResult(
          t,
          (created.body as { sessionID: string }).sessionID,
          engineResult({ features: { stress }, completedAt: DAY }),
        );
      }
      const percentiles = [];
      for (const stress of [0.72, 0.725, 0.73, 0.735, 0.74]) {
        const created = await t.createSession(acme, group, `probe.${++n}@example.com`);
        const body = created.body as { sessionID: string; userIdentifier: string };
        await shareAt(t.db, { externalId: body.userIdentifier }, 5);
        await postResult(
          t,
          body.sessionID,
          engineResult({ features: { stress }, completedAt: DAY }),
        );
        const read = await t.request('GET', `/sessions/${body.sessionID}`, { apiKey: acme.apiKey });
        percentiles.push((read.body as { groupPercentiles: unknown }).groupPercentiles);
      }
      return percentiles;
    };

    it('a hidden colleague’s value never enters: the probes answer exactly as in a group without her', async () => {
      const withHer = await probe(true);
      expect(withHer[0]).toEqual({ stress: expect.any(Number) as unknown });
      expect(withHer).toEqual(await probe(false));
    });
  });

  describe('3b. the comparisons follow the member’s level', () => {
    it('a member who lowers their level (any page) leaves the comparisons at once; a raise that reaches a check-in brings it back', async () => {
      const group = await t.newGroup(acme, `Follow ${++n}`);
      const created = await t.createSession(acme, group, `follow.${++n}@example.com`);
      const { sessionID, userIdentifier } = created.body as {
        sessionID: string;
        userIdentifier: string;
      };
      await shareAt(t.db, { externalId: userIdentifier }, 5);
      await postResult(
        t,
        sessionID,
        engineResult({ features: { stress: 0.61 }, completedAt: DAY }),
      );
      const counted = async () =>
        (
          await t.db.query<{ value: number }>(
            `SELECT value FROM group_feature_values WHERE group_id = $1 AND name = 'stress'`,
            [group.groupID],
          )
        ).rows.map((row) => row.value);
      expect(await counted()).toEqual([0.61]);
      const { rows } = await t.db.query<{ id: string }>(
        'SELECT id FROM participants WHERE external_id = $1',
        [userIdentifier],
      );
      const member = {
        enterpriseId: acme.enterpriseId,
        participantId: rows[0].id,
        groupId: group.groupID,
        externalId: userIdentifier,
      };
      const choices = t.app.get(ParticipantChoices);
      expect(await choices.setPrivacyLevel(member, 4, 'settings')).toBe(true);
      expect(await counted()).toEqual([]);
      // A raise from the check-in's own page reaches that check-in: counted again.
      expect(await choices.setPrivacyLevel(member, 5, 'checkin', { sessionId: sessionID })).toBe(
        true,
      );
      expect(await counted()).toEqual([0.61]);
      expect(await choices.setConsent(member, false, 'settings')).not.toBeNull();
      expect(await counted()).toEqual([]);
    });
  });

  describe('4. userPercentiles: a check-in the enterprise does itself on a fresh link', () => {
    it('is compared with none of her hidden check-ins; only with those she shows at level 5', async () => {
      const group = await t.newGroup(acme, `Member ${++n}`);
      const her = `member.${++n}@example.com`;
      let externalId = her;
      for (const stress of [0.2, 0.5, 0.8]) {
        const session = await checkIn(group, { mhci: 40, features: { stress }, who: externalId });
        externalId = session.userIdentifier;
      }
      // The member's level is raised in a browser the enterprise holds; her earlier check-ins
      // keep their own level 0 (a raise reaches them only from the browser that did them).
      await t.db.query(
        `UPDATE memberships m SET privacy_level = 5 FROM participants p
          WHERE p.id = m.participant_id AND p.external_id = $1`,
        [externalId],
      );
      // It does the check-in itself, in its own browser: handed off there and confirmed there.
      const fresh = await checkIn(group, {
        mhci: 40,
        features: { stress: 0.5 },
        who: externalId,
        handedOff: true,
      });
      const read = async (sessionId: string) =>
        (await t.request('GET', `/sessions/${sessionId}`, { apiKey: acme.apiKey })).body as {
          userPercentiles: unknown;
        };
      expect((await read(fresh.sessionID)).userPercentiles).toEqual({});
      // Once she shows her earlier check-ins at level 5 herself, later ones compare with them.
      await shareAt(t.db, { externalId }, 5);
      const later = await checkIn(group, {
        mhci: 40,
        features: { stress: 0.5 },
        who: externalId,
        handedOff: true,
      });
      // Others [0.2, 0.5, 0.8, 0.5] and 0.5 itself: (1 + 0.5 · 3) / 5.
      expect((await read(later.sessionID)).userPercentiles).toEqual({ stress: 0.5 });
    });
  });
});
