/**
 * The metrics' SQL on PostgreSQL (docs/metrics.md, "The endpoints" and "Answers"): `from`/`to`
 * are inclusive UTC days to the millisecond, periods are keyed by day, ISO week's Monday (across a
 * new year) and month, and group and participant counts agree; a participant's `mhci` is
 * PostgreSQL's continuous percentiles over the sessions their applicable level lets it see, their
 * cloud the merged word counts of sessions shown at level 4 (MetricsRepository); a group's `mhci`
 * and cloud merge the releases of the windows each period holds whole (GroupReleasesReader): the
 * cloud ranks by count then word and `top` cuts the list, not the shares; a release where no word
 * passed is `{}`, a period whose window is not released yet or that cuts a window is null.
 * Service-level answers above it: src/metrics/metrics.service.spec.ts; the releases themselves:
 * window-releaser.spec.ts; through the API: calendar-releases.e2e-spec.ts.
 */
import { randomBytes } from 'node:crypto';
import { PiiCipher } from '../../src/common/crypto/pii-cipher';
import { CohortCellsRepository } from '../../src/metrics/cohorts/cohort-cells.repository';
import type { GroupBy } from '../../src/metrics/metrics.errors';
import {
  type MetricRange,
  type MetricScope,
  MetricsRepository,
} from '../../src/metrics/metrics.repository';
import { releaseRho } from '../../src/metrics/windows/budget';
import { GroupReleasesReader } from '../../src/metrics/windows/group-releases.reader';
import {
  type MetricsSettings,
  MetricWindowsRepository,
  type ReleaseRow,
} from '../../src/metrics/windows/metric-windows.repository';
import { SCORE_BINS, scoreBin } from '../../src/metrics/windows/window-release';
import { sealJson } from '../../src/sessions/transcript-codec';
import { TestDatabase } from './support';

describe('metric answers (PostgreSQL)', () => {
  let t: TestDatabase;
  let metrics: MetricsRepository;
  let cells: CohortCellsRepository;
  let enterprise: string;
  const cipher = new PiiCipher(randomBytes(32));

  beforeAll(async () => {
    t = await TestDatabase.create();
    metrics = new MetricsRepository(t.db, cipher);
    cells = new CohortCellsRepository(t.db);
    enterprise = await t.enterprise();
  });
  afterAll(() => t.close());

  const range = (
    from: string | null = null,
    to: string | null = null,
    groupBy: GroupBy | null = null,
  ): MetricRange => ({ from, to, groupBy });

  /** A completed check-in, recorded as ingestion does (its day counted for the group). */
  const checkIn = async (
    participant: string,
    group: number,
    completedAt: string,
    options: { mhci?: number; words?: Record<string, number>; ownLevel?: number } = {},
  ): Promise<string> => {
    const sessionId = await t.session(enterprise, participant, group, {
      completedAt,
      mhci: options.mhci ?? 50,
    });
    if (options.words) {
      await t.rows('UPDATE sessions SET word_counts = $2 WHERE session_id = $1', [
        sessionId,
        sealJson(cipher, options.words),
      ]);
    }
    if (options.ownLevel !== undefined) {
      await t.rows('UPDATE sessions SET shared_level = $2 WHERE session_id = $1', [
        sessionId,
        options.ownLevel,
      ]);
    }
    await cells.addCompleted({ sessionId, groupId: group }, new Date(completedAt), true);
    return sessionId;
  };

  const member = async (group: number, level: number) => {
    const participant = await t.participant(enterprise);
    await t.membership(participant, group, level);
    return participant;
  };

  describe('count: ranges and periods', () => {
    let group: number;
    let participant: string;
    const groupScope = (): MetricScope => ({
      kind: 'group',
      enterpriseId: enterprise,
      groupId: group,
    });
    const participantScope = (): MetricScope => ({
      kind: 'participant',
      enterpriseId: enterprise,
      participantId: participant,
      minimumLevel: 0,
    });

    beforeAll(async () => {
      group = await t.group(enterprise);
      participant = await member(group, 0);
      for (const completedAt of [
        '2025-12-31T12:00:00Z', // Wednesday of the ISO week of Monday 2025-12-29
        '2026-01-01T00:00:00Z', // Thursday, the same week, another year
        '2026-02-28T23:59:59.999Z', // Saturday, week of 2026-02-23
        '2026-03-01T00:00:00Z', // Sunday, the same week
        '2026-03-01T23:59:59.999Z',
        '2026-03-02T00:00:00Z', // Monday, a new week
      ]) {
        await checkIn(participant, group, completedAt);
      }
      // Never counted: a session not completed, another member's in another group.
      await t.session(enterprise, participant, group);
      const elsewhere = await t.group(enterprise);
      await checkIn(await member(elsewhere, 0), elsewhere, '2026-03-01T12:00:00Z');
    });

    it.each([
      [null, null, 6],
      ['2026-03-01', '2026-03-01', 2],
      ['2026-02-28', '2026-02-28', 1],
      ['2026-03-02', null, 1],
      [null, '2026-02-28', 3],
      ['2026-01-01', '2026-02-28', 2],
      ['2026-01-02', '2026-02-27', 0],
    ])(
      'from %s to %s (inclusive UTC days): %i, for the group and the participant',
      async (from, to, count) => {
        const expected = [{ key: 'all', value: count }];
        expect(await metrics.count(groupScope(), range(from, to))).toEqual(expected);
        expect(await metrics.count(participantScope(), range(from, to))).toEqual(expected);
      },
    );

    it.each<[GroupBy, Record<string, number>]>([
      [
        'day',
        { '2025-12-31': 1, '2026-01-01': 1, '2026-02-28': 1, '2026-03-01': 2, '2026-03-02': 1 },
      ],
      ['week', { '2025-12-29': 2, '2026-02-23': 3, '2026-03-02': 1 }],
      ['month', { '2025-12': 1, '2026-01': 1, '2026-02': 1, '2026-03': 3 }],
    ])('by %s: one key per period with sessions, in order', async (groupBy, expected) => {
      const rows = Object.entries(expected).map(([key, value]) => ({ key, value }));
      expect(await metrics.count(groupScope(), range(null, null, groupBy))).toEqual(rows);
      expect(await metrics.count(participantScope(), range(null, null, groupBy))).toEqual(rows);
      // A range cuts the periods at its days, not at the periods' edges.
      expect(await metrics.count(groupScope(), range('2026-03-01', '2026-03-01', groupBy))).toEqual(
        [
          {
            key: groupBy === 'day' ? '2026-03-01' : groupBy === 'week' ? '2026-02-23' : '2026-03',
            value: 2,
          },
        ],
      );
    });

    it('another enterprise’s group or participant counts nothing', async () => {
      const other = await t.enterprise('Globex');
      expect(await metrics.count({ ...groupScope(), enterpriseId: other }, range())).toEqual([
        { key: 'all', value: 0 },
      ]);
      expect(await metrics.count({ ...participantScope(), enterpriseId: other }, range())).toEqual([
        { key: 'all', value: 0 },
      ]);
    });
  });

  describe('a participant’s mhci and wordcloud', () => {
    it('mhci: continuous percentiles of the sessions the level shows (the lower of the session’s own and the member’s now)', async () => {
      const group = await t.group(enterprise);
      const participant = await member(group, 1);
      for (const mhci of [80, 10, 40, 20]) {
        await checkIn(participant, group, '2026-03-02T09:00:00Z', { mhci });
      }
      await checkIn(participant, group, '2026-03-02T10:00:00Z', { mhci: 99, ownLevel: 0 });
      await checkIn(participant, group, '2026-04-02T10:00:00Z', { mhci: 60 });
      const scope: MetricScope = {
        kind: 'participant',
        enterpriseId: enterprise,
        participantId: participant,
        minimumLevel: 1,
      };
      // 10, 20, 40, 80: p25 = 10 + ¾·10, p50 = 20 + ½·20, p75 = 40 + ¼·40.
      expect(await metrics.mhci(scope, range(null, '2026-03-31'))).toEqual([
        {
          key: 'all',
          sessions: 4,
          shown: true,
          minMhci: 10,
          maxMhci: 80,
          avgMhci: 37.5,
          percentile25Mhci: 17.5,
          percentile50Mhci: 30,
          percentile75Mhci: 50,
        },
      ]);
      expect(
        (await metrics.mhci(scope, range(null, null, 'month'))).map((row) => [
          row.key,
          row.sessions,
          row.percentile50Mhci,
        ]),
      ).toEqual([
        ['2026-03', 4, 30],
        ['2026-04', 1, 60],
      ]);
      // Nothing shown at level 4: one row of no sessions, the service's {"all": null}.
      expect(await metrics.mhci({ ...scope, minimumLevel: 4 }, range())).toEqual([
        {
          key: 'all',
          sessions: 0,
          shown: true,
          minMhci: null,
          maxMhci: null,
          avgMhci: null,
          percentile25Mhci: null,
          percentile50Mhci: null,
          percentile75Mhci: null,
        },
      ]);
    });

    it('wordcloud: word counts merged over the sessions shown at level 4, ranked by count then word; top cuts the list, shares stay of all the words', async () => {
      const group = await t.group(enterprise);
      const participant = await member(group, 4);
      await checkIn(participant, group, '2026-03-02T09:00:00Z', { words: { sleep: 2, work: 1 } });
      await checkIn(participant, group, '2026-03-03T09:00:00Z', {
        words: { work: 3, team: 2, alpha: 2 },
      });
      await checkIn(participant, group, '2026-03-03T10:00:00Z', {
        words: { secret: 9 },
        ownLevel: 3,
      });
      const scope: MetricScope = {
        kind: 'participant',
        enterpriseId: enterprise,
        participantId: participant,
        minimumLevel: 4,
      };
      // work 4, then alpha, sleep and team 2 each (alphabetically): 10 words.
      const all = [
        ['work', 0.4],
        ['alpha', 0.2],
        ['sleep', 0.2],
        ['team', 0.2],
      ] as const;
      const rows = (key: string, words: readonly (readonly [string, number])[]) =>
        words.map(([word, share]) => ({ key, shown: true, word, share }));
      expect(await metrics.wordcloud(scope, range(), 50)).toEqual(rows('all', all));
      expect(await metrics.wordcloud(scope, range(), 3)).toEqual(rows('all', all.slice(0, 3)));
      expect(await metrics.wordcloud(scope, range(null, null, 'day'), 1)).toEqual([
        ...rows('2026-03-02', [['sleep', 2 / 3]]),
        ...rows('2026-03-03', [['work', 3 / 7]]),
      ]);
      expect(await metrics.wordcloud(scope, range('2026-03-04'), 50)).toEqual([]);
    });
  });

  describe('a group’s answers from its releases (GroupReleasesReader)', () => {
    let windowed: string;
    let group: number;
    let settings: MetricsSettings;
    const reader = () => new GroupReleasesReader(t.db);
    const rho = releaseRho('week', 24);

    /**
     * A weekly window of the group's enterprise, released with these noisy figures (a fixture:
     * the noise is window-release.ts's), or not released yet; the group's days counted.
     */
    const week = async (
      firstDay: string,
      days: string[],
      release: { words?: Record<string, number>; threshold?: number; scores?: number[] } | null,
    ) => {
      const windows = new MetricWindowsRepository(t.db);
      const lastDay = new Date(Date.parse(`${firstDay}T00:00:00Z`) + 6 * 86_400_000)
        .toISOString()
        .slice(0, 10);
      await t.db.transaction(async (sql) => {
        await windows.createWindow(
          windowed,
          { kind: 'week', firstDay, lastDay, epsilonYear: 24 },
          sql,
        );
        if (!release) return;
        const [window] = await windows.dueWindows(windowed, lastDay, sql);
        const values = release.scores ?? [];
        const bins = new Array<number>(SCORE_BINS).fill(0);
        for (const value of values) bins[scoreBin(value)] += 1;
        const rows: ReleaseRow[] = [
          {
            groupId: group,
            series: 'scores',
            participants: values.length,
            released: values.length > 0,
            leftOut: 0,
            rho: values.length > 0 ? rho : null,
            scores:
              values.length > 0
                ? {
                    participants: values.length,
                    noisySum: values.reduce((sum, value) => sum + value, 0),
                    noisyBins: bins,
                    sumNoiseVariance: 1,
                    binNoiseVariance: 1,
                  }
                : null,
            wordThreshold: null,
            words: [],
          },
          {
            groupId: group,
            series: 'words',
            participants: 60,
            released: true,
            leftOut: 0,
            rho,
            scores: null,
            wordThreshold: release.threshold ?? 50,
            words: Object.entries(release.words ?? {}).map(([word, count]) => ({ word, count })),
          },
        ];
        await windows.storeRelease(windowed, window, rows, new Map(), sql);
      });
      for (const day of days) {
        const participant = await member(group, 0);
        const sessionId = await t.session(windowed, participant, group, {
          completedAt: `${day}T09:00:00Z`,
        });
        await cells.addCompleted(
          { sessionId, groupId: group },
          new Date(`${day}T09:00:00Z`),
          false,
        );
      }
    };

    beforeAll(async () => {
      windowed = await t.enterprise('Weekly');
      await t.rows(`UPDATE enterprises SET metrics_window = 'week' WHERE id = $1`, [windowed]);
      settings = (await new MetricWindowsRepository(t.db).settingsOf(windowed))!;
      group = await t.group(windowed);
      await week('2026-03-02', ['2026-03-03'], {
        words: { sleep: 20, work: 20, team: 10 },
        scores: [4000, 6000],
      });
      await week('2026-03-09', ['2026-03-10', '2026-03-11'], {
        words: { work: 5, alpha: 5 },
        threshold: 5,
        scores: [8000],
      });
      // Released, no word passed: {}.
      await week('2026-03-16', ['2026-03-17'], {});
      // Not released yet: its days have sessions, their answer waits.
      await week('2026-03-23', ['2026-03-24'], null);
    });

    const cloud = async (r: MetricRange, top = 50) =>
      (await reader().wordcloud(windowed, group, r, settings, top)).map((p) => [p.key, p.value]);

    it('wordcloud: merges the released windows wholly in the range, counts over their sum, by count then word', async () => {
      // work 25, sleep 20, team 10, alpha 5: 60.
      const merged = { work: 25 / 60, sleep: 20 / 60, team: 10 / 60, alpha: 5 / 60 };
      expect(await cloud(range())).toEqual([['all', merged]]);
      const [answer] = await reader().wordcloud(windowed, group, range(), settings, 50);
      expect(Object.keys(answer.value!)).toEqual(['work', 'sleep', 'team', 'alpha']);
      expect(answer.accuracy).toMatchObject({
        windows: 3,
        windowsNotReleased: 1,
        speakersNeeded: 5,
        reason: null,
      });
      // The second week alone: alpha and work tie at 5, alphabetically.
      expect(await cloud(range('2026-03-09', '2026-03-15'))).toEqual([
        ['all', { alpha: 0.5, work: 0.5 }],
      ]);
      // A range that cuts the week holds no window: finer than the window, null.
      expect(await cloud(range('2026-03-10', '2026-03-15'))).toEqual([['all', null]]);
      expect(
        (
          await reader().wordcloud(windowed, group, range('2026-03-10', '2026-03-15'), settings, 5)
        )[0].accuracy.reason,
      ).toBe('finer-than-window');
    });

    it('wordcloud: top keeps the first words, their shares still of every released word', async () => {
      expect(await cloud(range(), 2)).toEqual([['all', { work: 25 / 60, sleep: 20 / 60 }]]);
      expect(await cloud(range('2026-03-09'), 1)).toEqual([['all', { alpha: 0.5 }]]);
    });

    it('wordcloud by period: the periods of the count; a release without words is {}, a window not released yet or a period finer than the window null', async () => {
      expect(await cloud(range(null, null, 'week'), 1)).toEqual([
        ['2026-03-02', { sleep: 20 / 50 }],
        ['2026-03-09', { alpha: 0.5 }],
        ['2026-03-16', {}],
        ['2026-03-23', null],
      ]);
      expect(
        (await reader().wordcloud(windowed, group, range(null, null, 'week'), settings, 1)).map(
          (p) => p.accuracy.reason,
        ),
      ).toEqual([null, null, null, 'not-released-yet']);
      // An ISO week belongs to the month of its Thursday: March holds all four.
      expect(await cloud(range(null, null, 'month'), 1)).toEqual([['2026-03', { work: 25 / 60 }]]);
      expect(await cloud(range('2026-03-09', null, 'day'))).toEqual([
        ['2026-03-10', null],
        ['2026-03-11', null],
        ['2026-03-17', null],
        ['2026-03-24', null],
      ]);
    });

    it('mhci: merges the released windows’ sums over their counts; by period, each week its own', async () => {
      const [all] = await reader().mhci(windowed, group, range(), settings);
      // 40, 60 and 80: 180 over 3 participants (the fixture's noise is nil).
      expect(all.value!.avgMhci).toBeCloseTo(60, 1);
      expect(all.accuracy).toMatchObject({ participants: 3, windows: 3, reason: null });
      const weeks = await reader().mhci(windowed, group, range(null, null, 'week'), settings);
      expect(weeks.map((p) => [p.key, p.value && Math.round(p.value.avgMhci)])).toEqual([
        ['2026-03-02', 50],
        ['2026-03-09', 80],
        ['2026-03-16', null],
        ['2026-03-23', null],
      ]);
      expect(weeks.map((p) => p.accuracy.reason)).toEqual([
        null,
        null,
        'too-few-participants',
        'not-released-yet',
      ]);
    });
  });
});
