/**
 * The "two worlds" of differential privacy, on real cells (docs/metrics.md, "Differentially
 * private releases"): two groups alike in everything but what two hidden colleagues scored and
 * said (swapped between them), sealed with the same random draws. A release is the exact
 * aggregate plus noise that depends on nothing but the draws, so every answer — every range,
 * every period, scores and words — is identical: nothing in them tells the worlds apart beyond
 * what the noise allows. (With fresh draws, as in production, the worlds' answers differ only by
 * noise: the probability of any answer changes by at most e^ε; src/metrics/releases/*.spec.ts.)
 */
import { randomBytes } from 'node:crypto';
import { PiiCipher } from '../../src/common/crypto/pii-cipher';
import type { AppConfig } from '../../src/config/config';
import { CohortCellsRepository } from '../../src/metrics/cohorts/cohort-cells.repository';
import { CohortSealer } from '../../src/metrics/cohorts/cohort-sealer';
import { MetricsRepository, type MetricScope } from '../../src/metrics/metrics.repository';
import { replayableRandom } from '../../src/metrics/releases/replayable-random';
import { sealJson } from '../../src/sessions/transcript-codec';
import { TestDatabase } from './support';

const DAYS = ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06'];

describe('two worlds: hidden colleagues’ values swapped, the same draws', () => {
  let t: TestDatabase;
  const cipher = new PiiCipher(randomBytes(32));
  const config = { metrics: { sealDelayMinutes: 60 } } as AppConfig;

  beforeAll(async () => {
    t = await TestDatabase.create();
  });
  afterAll(() => t.close());

  /** A world: T and H hidden, a visible member, two more hidden, over five days. */
  async function world(enterprise: string, swap: boolean): Promise<number> {
    const group = await t.group(enterprise);
    const tScore = { mhci: 23.4, words: { antidepressant: 2, divorce: 1, tired: 1 } };
    const hScore = { mhci: 61.5, words: { sleep: 1, tired: 2 } };
    const members: [number, number, { mhci: number; words: Record<string, number> }][] = [
      [5, 0, { mhci: 70, words: { tired: 1, work: 1 } }],
      [0, 0, swap ? hScore : tScore],
      [0, 1, swap ? tScore : hScore],
      [0, 2, { mhci: 50, words: { tired: 1, sleep: 1 } }],
      [0, 3, { mhci: 40, words: { work: 3 } }],
      [0, 4, { mhci: 45, words: { work: 1 } }],
    ];
    for (const [level, day, { mhci, words }] of members) {
      const participant = await t.participant(enterprise);
      await t.membership(participant, group, level);
      const sessionId = await t.session(enterprise, participant, group, {
        completedAt: `${DAYS[day]}T09:00:00Z`,
        mhci,
      });
      await t.rows(
        `UPDATE sessions SET word_counts = $2, counted_words = 1 WHERE session_id = $1`,
        [sessionId, sealJson(cipher, words)],
      );
      await new CohortCellsRepository(t.db).addCompleted(
        { sessionId, groupId: group },
        new Date(`${DAYS[day]}T09:00:00Z`),
      );
    }
    return group;
  }

  it('every answer of group mhci and wordcloud is identical in both worlds', async () => {
    const enterprise = await t.enterprise();
    // Floors 2 / 2 / 1 and ε = 10: cells of a few participants, and words that can pass.
    await t.rows(
      `UPDATE enterprises SET min_cohort_scores = 2, min_cohort_words = 2, min_word_speakers = 1,
              epsilon = 10 WHERE id = $1`,
      [enterprise],
    );
    const original = await world(enterprise, false);
    const swapped = await world(enterprise, true);

    const { record: recording, replay } = replayableRandom();
    const replaying = replay();
    const cells = new CohortCellsRepository(t.db);
    const now = new Date('2026-04-01T00:00:00Z');
    const sealedA = await new CohortSealer(t.db, cells, cipher, config, recording).sealGroup(
      original,
      { now },
    );
    const sealedB = await new CohortSealer(t.db, cells, cipher, config, replaying).sealGroup(
      swapped,
      { now },
    );
    expect(sealedA).toBeGreaterThanOrEqual(4);
    expect(sealedB).toBe(sealedA);

    const metrics = new MetricsRepository(t.db, cipher);
    const scope = (groupId: number): MetricScope => ({
      kind: 'group',
      enterpriseId: enterprise,
      groupId,
    });
    const answers = async (groupId: number) => {
      const all: unknown[] = [];
      for (const from of [null, ...DAYS]) {
        for (const to of [null, ...DAYS]) {
          if (from && to && from > to) continue;
          for (const groupBy of [null, 'day', 'week', 'month'] as const) {
            const range = { from, to, groupBy };
            all.push(await metrics.mhci(scope(groupId), range));
            all.push(await metrics.wordcloud(scope(groupId), range, 200));
          }
        }
      }
      return all;
    };
    const inOriginal = await answers(original);
    expect(await answers(swapped)).toEqual(inOriginal);
    // The cells do answer (scores and words), and nothing T alone said is released.
    expect(JSON.stringify(inOriginal)).toMatch(/"shown":true/);
    expect(JSON.stringify(inOriginal)).not.toMatch(/antidepressant|divorce/);
  });
});
