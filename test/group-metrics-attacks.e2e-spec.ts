/**
 * The attacks of an enterprise that invents participants (docs/metrics.md, "Differentially
 * private releases"), run against the service as the enterprise would run them. It creates
 * members with any email, does their check-ins itself, keeps them hidden so they count toward any
 * floor, and knows what they scored and said. Each attack broke the exact sealed cells; each is
 * shown here not to work. Statistical assertions say in a comment how likely a correct build is
 * to fail them (below 10⁻⁴ each).
 */
import { conversation, ENGINE_TOKEN, engineResult, postResult, subscores } from './support/engine';
import { ParticipantChoices } from '../src/privacy/participant-choices';
import { shareAt } from './support/levels';
import { startTestApp, TestApp, TestEnterprise, TestGroup } from './support/test-app';

/** Her check-in: hidden (level 0), MHCI 37.25, and what she said. */
const HER = { mhci: 37.25, words: 'I think I am pregnant and I want to quit' };
const INVENTED_SCORES = [50, 51, 52, 53, 54, 55, 56, 57, 58];
const RARE_WORDS = ['pregnant', 'quit', 'unionize', 'lawyer'];
const DAY = '2026-03-02T09:00:00Z';

describe('Group metrics against an enterprise that invents participants', () => {
  let t: TestApp;
  let acme: TestEnterprise;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp({ ENGINE_TOKEN });
    // The defaults: floors 5 / 10 / 3, ε = 1.
    acme = await t.newEnterprise('Acme');
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
    },
  ) =>
    t.completedSession(acme, group, {
      identifier: check.who ?? `invented.${++n}@example.com`,
      handedOff: check.handedOff,
      result: engineResult({
        mhci: check.mhci,
        subscores: subscores(1),
        transcript: conversation('How are you?', check.words ?? 'fine'),
        features: check.features ?? { stress: 0.5 },
        completedAt: DAY,
      }),
    });

  const metric = async (group: TestGroup, name: string, query = '') => {
    const response = await t.request('GET', `/metrics/groups/${group.groupID}/${name}${query}`, {
      apiKey: acme.apiKey,
    });
    expect(response.status).toBe(200);
    return response.body as Record<string, Record<string, number> | null>;
  };

  /** Her cell: she and nine invented members, all hidden, on one day; two repeat her rare words. */
  const herCell = async () => {
    const group = await t.newGroup(acme, `Team ${++n}`);
    await checkIn(group, HER);
    const invented = [];
    for (const [i, mhci] of INVENTED_SCORES.entries()) {
      invented.push(
        await checkIn(group, {
          mhci,
          words: i < 2 ? RARE_WORDS.join(' ') : 'tired of meetings',
        }),
      );
    }
    return { group, invented };
  };

  describe('1. scores: ten times the average minus the nine invented scores', () => {
    const groups: TestGroup[] = [];
    const estimates: number[] = [];

    beforeAll(async () => {
      for (let i = 0; i < 12; i++) {
        const { group, invented } = await herCell();
        groups.push(group);
        const { all } = await metric(group, 'mhci');
        estimates.push(10 * all!.avgMhci - INVENTED_SCORES.reduce((sum, v) => sum + v, 0));
        if (i === 0) {
          // Raising the nine afterwards (the enterprise's own browsers): the cell does not move.
          for (const session of invented) {
            await shareAt(t.db, { sessionId: session.sessionID }, 5);
          }
          expect(await metric(group, 'mhci')).toEqual({ all });
        }
      }
    });

    it('no longer gives her score: over 12 cells the estimate is within 10 points of 37.25 in at most 5 (a correct build fails with probability 3·10⁻⁵)', () => {
      // The estimate is her score plus the sum's noise, discrete Laplace of scale 10,000/0.6
      // hundredths = 166.7 points: within 10 points with probability p = 1 − e^(−10/166.7) ≈ 0.058.
      // 6 or more of 12 within: C(12, 6) · p⁶ ≈ 3.5·10⁻⁵. Exact cells put all 12 on 37.25.
      const close = estimates.filter((estimate) => Math.abs(estimate - HER.mhci) < 10);
      expect(close.length).toBeLessThanOrEqual(5);
    });

    it('every answer is six numbers, never her exact minimum', async () => {
      for (const group of groups) {
        const { all } = await metric(group, 'mhci');
        expect(Object.keys(all!)).toHaveLength(6);
      }
      // The minimum is the edge of the lowest bin the noisy histogram supports (or a quartile
      // or the average below it), not a participant's value.
      const minima = await Promise.all(
        groups.map(async (group) => (await metric(group, 'mhci')).all!.minMhci),
      );
      expect(minima.filter((min) => min === HER.mhci).length).toBeLessThanOrEqual(1);
    });

    it('two groups with the same data release different noise (equal with probability ≈ 1.5·10⁻⁵)', async () => {
      // Two independent draws of the sum's noise at scale 16,667 hundredths coincide with
      // probability Σ pmf(z)² ≈ 1/(4 · 16,667). The answers are the statistics of these releases
      // (sealed-cells.e2e-spec.ts).
      const { rows } = await t.db.query<{ noisy_sum: string }>(
        `SELECT noisy_sum FROM cohort_cells WHERE series = 'scores' AND group_id = ANY ($1)
          ORDER BY group_id`,
        [[groups[0].groupID, groups[1].groupID]],
      );
      expect(rows).toHaveLength(2);
      expect(rows[0].noisy_sum).not.toBe(rows[1].noisy_sum);
    });
  });

  describe('2. words: two invented speakers beside her', () => {
    it('her rare words are never shown, nor the ones they repeat: the cell releases no word', async () => {
      const { group } = await herCell();
      // Ten speakers are far below the threshold (3 + 94 at ε = 1): a word passes with
      // probability at most 2.7·10⁻⁸ (word-release.ts).
      for (const query of ['', '?top=200', '?groupBy=day&top=200', '?to=2026-03-02&top=200']) {
        const cloud = await metric(group, 'wordcloud', query);
        expect(JSON.stringify(cloud)).not.toMatch(new RegExp(RARE_WORDS.join('|')));
        expect(Object.values(cloud)).toEqual([{}]);
      }
      const { rows } = await t.db.query(
        `SELECT w.word FROM cohort_cell_words w JOIN cohort_cells c ON c.id = w.cell_id
          WHERE c.group_id = $1`,
        [group.groupID],
      );
      expect(rows).toEqual([]);
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
