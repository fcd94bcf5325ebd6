/**
 * MetricsService's rules above the SQL (docs/metrics.md, "The endpoints" and "Answers"), with its
 * repositories, the window releaser and the releases' reader faked: `from` after `to` is refused
 * before anything is read; an unknown group or participant is refused before releasing or
 * reading; a group `mhci` or `wordcloud` read first releases what is due for the group's
 * enterprise, then reads the releases under the enterprise's settings (`count` releases nothing);
 * a participant's metric reads at the level it needs; and the answers' shapes — `{}` for no
 * period, `{"all": null}` for a range without sessions, `{"all": {}}` for a participant's empty
 * cloud, null beside answered periods, `top` 50 unless given, with `accuracy=true` each period as
 * `{value, accuracy}` — and the count of withheld group values, in both shapes.
 */
import type { Counter } from 'prom-client';
import { ApiError } from '../common/errors/api-error';
import { Measurements } from '../common/measurements/measurements';
import type { Metric } from '../common/privacy-model';
import { GroupErrors } from '../groups/groups.errors';
import type { GroupAccess } from '../groups/group-access';
import { ParticipantErrors } from '../participants/participants.errors';
import type { ParticipantsService } from '../participants/participants.service';
import type { MetricsQueryDto, WordcloudQueryDto } from './dto/metrics-query.dto';
import { MetricsErrors } from './metrics.errors';
import type {
  MetricRange,
  MetricScope,
  MetricsRepository,
  MhciRow,
  WordcloudRow,
} from './metrics.repository';
import { MetricsService } from './metrics.service';
import type {
  GroupRange,
  GroupReleasesReader,
  MhciAccuracy,
  PeriodAnswer,
  WordcloudAccuracy,
} from './windows/group-releases.reader';
import type { MetricsSettings, MetricWindowsRepository } from './windows/metric-windows.repository';
import type { MhciStats } from './windows/window-answers';
import type { WindowReleaser } from './windows/window-releaser';

const ENTERPRISE = 'ent-1';
const GROUP = 7;
const EXTERNAL_ID = `ok_${'a'.repeat(48)}`;
const PARTICIPANT_ID = 'participant-uuid';

const STATS = {
  minMhci: 10,
  maxMhci: 90,
  avgMhci: 50.5,
  percentile25Mhci: 30,
  percentile50Mhci: 50,
  percentile75Mhci: 70,
};
const NO_STATS = {
  minMhci: null,
  maxMhci: null,
  avgMhci: null,
  percentile25Mhci: null,
  percentile50Mhci: null,
  percentile75Mhci: null,
};

/** The enterprise's settings, as the windows' repository answers them. */
const SETTINGS: MetricsSettings = {
  window: 'month',
  epsilonYear: 24,
  maxMargin: 10,
  minCohortScores: 5,
  minCohortWords: 10,
  minWordSpeakers: 3,
};

/** What every accuracy object says (its content is the reader's: group-releases.reader.ts). */
const ACCURACY = {
  participants: 120,
  windows: 1,
  windowsNotReleased: 0,
  legacyCells: 0,
  resultsLeftOut: 0,
  lateResults: 0,
  rho: 0.239,
  budgetShare: 0.041667,
  epsilon: 3.2,
  reason: null,
};
const MHCI_ACCURACY: MhciAccuracy = { ...ACCURACY, margin: 3.4, maxMargin: 10, intervals: null };
const WORDCLOUD_ACCURACY: WordcloudAccuracy = {
  ...ACCURACY,
  speakersNeeded: 54,
  intervals: null,
};

/** A group mhci period as the reader answers it: withheld (null) with its reason, or stats. */
const mhciPeriod = (
  key: string,
  value: MhciStats | null,
  reason: MhciAccuracy['reason'] = value ? null : 'not-released-yet',
): PeriodAnswer<MhciStats, MhciAccuracy> => ({
  key,
  value,
  accuracy: { ...MHCI_ACCURACY, reason },
});

const cloudPeriod = (
  key: string,
  value: Record<string, number> | null,
  reason: WordcloudAccuracy['reason'] = value ? null : 'too-small-for-words',
): PeriodAnswer<Record<string, number>, WordcloudAccuracy> => ({
  key,
  value,
  accuracy: { ...WORDCLOUD_ACCURACY, reason },
});

/** The service over fakes that record, in order, what was asked of them. */
function newTestService(
  rows: {
    count?: { key: string; value: number }[];
    mhci?: MhciRow[];
    wordcloud?: WordcloudRow[];
    groupMhci?: PeriodAnswer<MhciStats, MhciAccuracy>[];
    groupWordcloud?: PeriodAnswer<Record<string, number>, WordcloudAccuracy>[];
  } = {},
) {
  const calls: unknown[][] = [];
  const metrics = {
    count: (scope: MetricScope, range: MetricRange) => {
      calls.push(['count', scope, range]);
      return Promise.resolve(rows.count ?? []);
    },
    mhci: (scope: MetricScope, range: MetricRange) => {
      calls.push(['mhci', scope, range]);
      return Promise.resolve(rows.mhci ?? []);
    },
    wordcloud: (scope: MetricScope, range: MetricRange, top: number) => {
      calls.push(['wordcloud', scope, range, top]);
      return Promise.resolve(rows.wordcloud ?? []);
    },
  };
  const groups = {
    existsForEnterprise: (enterpriseId: string, groupId: number) => {
      calls.push(['group exists', enterpriseId, groupId]);
      return Promise.resolve(enterpriseId === ENTERPRISE && groupId === GROUP);
    },
  };
  const participants = {
    require: (enterpriseId: string, externalId: string) => {
      calls.push(['participant', enterpriseId, externalId]);
      return enterpriseId === ENTERPRISE && externalId === EXTERNAL_ID
        ? Promise.resolve({ id: PARTICIPANT_ID, externalId })
        : Promise.reject(ApiError.badRequest(ParticipantErrors.NotFound));
    },
  };
  const releaser = {
    releaseEnterprise: (enterpriseId: string, ...rest: unknown[]) => {
      calls.push(['release', enterpriseId, ...rest]);
      return Promise.resolve(0);
    },
  };
  const windows = {
    settingsOf: (enterpriseId: string) => {
      calls.push(['settings', enterpriseId]);
      return Promise.resolve(SETTINGS);
    },
  };
  const releases = {
    mhci: (enterpriseId: string, groupId: number, range: GroupRange, settings: MetricsSettings) => {
      calls.push(['group mhci', enterpriseId, groupId, range, settings]);
      return Promise.resolve(rows.groupMhci ?? []);
    },
    wordcloud: (
      enterpriseId: string,
      groupId: number,
      range: GroupRange,
      settings: MetricsSettings,
      top: number,
    ) => {
      calls.push(['group wordcloud', enterpriseId, groupId, range, settings, top]);
      return Promise.resolve(rows.groupWordcloud ?? []);
    },
  };
  const measurements = new Measurements();
  const service = new MetricsService(
    metrics as unknown as MetricsRepository,
    groups as unknown as GroupAccess,
    participants as unknown as ParticipantsService,
    releaser as unknown as WindowReleaser,
    windows as unknown as MetricWindowsRepository,
    releases as unknown as GroupReleasesReader,
    measurements,
  );
  const withheld = async (): Promise<Record<string, number>> => {
    const counter = measurements.registry.getSingleMetric(
      'checkin_group_metric_values_withheld_total',
    ) as Counter<'metric'>;
    const { values } = await counter.get();
    return Object.fromEntries(values.map(({ labels, value }) => [String(labels.metric), value]));
  };
  return { service, calls, withheld };
}

const groupScope = { kind: 'group', enterpriseId: ENTERPRISE, groupId: GROUP };
const participantScope = (minimumLevel: number) => ({
  kind: 'participant',
  enterpriseId: ENTERPRISE,
  participantId: PARTICIPANT_ID,
  minimumLevel,
});
const ALL_TIME = { from: null, to: null, groupBy: null };

const failure = async (work: Promise<unknown>): Promise<ApiError> => {
  try {
    await work;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected a refusal');
};

describe('MetricsService', () => {
  describe('what it reads, and in which order', () => {
    it.each<Metric>(['count', 'mhci', 'wordcloud'])(
      '%s: `from` after `to` is refused before the group or participant is looked up',
      async (metric) => {
        const { service, calls } = newTestService();
        const query = { from: '2026-03-02', to: '2026-03-01' };
        for (const refused of [
          service.forGroup(ENTERPRISE, GROUP, metric, query),
          service.forParticipant(ENTERPRISE, EXTERNAL_ID, metric, query),
          service.forGroup(ENTERPRISE, 999, metric, query),
        ]) {
          const error = await failure(refused);
          expect(error).toBeInstanceOf(ApiError);
          expect([error.status, error.message]).toEqual([400, MetricsErrors.RangeInvalid]);
        }
        expect(calls).toEqual([]);
      },
    );

    it('a one-day range (`from` = `to`) and open ends are read as given; without groupBy the range has none', async () => {
      const { service, calls } = newTestService({ count: [{ key: 'all', value: 3 }] });
      await service.forGroup(ENTERPRISE, GROUP, 'count', { from: '2026-03-01', to: '2026-03-01' });
      await service.forGroup(ENTERPRISE, GROUP, 'count', { from: '2026-03-01' });
      await service.forGroup(ENTERPRISE, GROUP, 'count', { to: '2026-03-01', groupBy: 'week' });
      await service.forGroup(ENTERPRISE, GROUP, 'mhci', { from: '2026-03-01', groupBy: 'month' });
      expect(
        calls
          .filter((call) => call[0] === 'count' || call[0] === 'group mhci')
          .map((call) => (call[0] === 'count' ? call[2] : call[3])),
      ).toEqual([
        { from: '2026-03-01', to: '2026-03-01', groupBy: null },
        { from: '2026-03-01', to: null, groupBy: null },
        { from: null, to: '2026-03-01', groupBy: 'week' },
        { from: '2026-03-01', to: null, groupBy: 'month' },
      ]);
    });

    it('an unknown group (or another enterprise’s): Group not found, nothing released or read', async () => {
      const { service, calls } = newTestService();
      for (const [enterprise, group] of [
        [ENTERPRISE, 999],
        ['other-enterprise', GROUP],
      ] as const) {
        for (const metric of ['count', 'mhci', 'wordcloud'] as const) {
          const error = await failure(service.forGroup(enterprise, group, metric, {}));
          expect([error.status, error.message]).toEqual([400, GroupErrors.NotFound]);
        }
      }
      expect(calls).toEqual([
        ...Array.from({ length: 3 }, () => ['group exists', ENTERPRISE, 999]),
        ...Array.from({ length: 3 }, () => ['group exists', 'other-enterprise', GROUP]),
      ]);
    });

    it('a group mhci or wordcloud read first releases what is due for the enterprise, then reads the releases under its settings; count releases nothing', async () => {
      const { service, calls } = newTestService();
      await service.forGroup(ENTERPRISE, GROUP, 'count', {});
      await service.forGroup(ENTERPRISE, GROUP, 'mhci', {});
      await service.forGroup(ENTERPRISE, GROUP, 'wordcloud', {});
      expect(calls).toEqual([
        ['group exists', ENTERPRISE, GROUP],
        ['count', groupScope, ALL_TIME],
        ['group exists', ENTERPRISE, GROUP],
        ['release', ENTERPRISE],
        ['settings', ENTERPRISE],
        ['group mhci', ENTERPRISE, GROUP, ALL_TIME, SETTINGS],
        ['group exists', ENTERPRISE, GROUP],
        ['release', ENTERPRISE],
        ['settings', ENTERPRISE],
        ['group wordcloud', ENTERPRISE, GROUP, ALL_TIME, SETTINGS, 50],
      ]);
    });

    it('a participant’s metric releases nothing and reads their sessions at the level it needs: count 0, mhci 1, wordcloud 4', async () => {
      const { service, calls } = newTestService();
      await service.forParticipant(ENTERPRISE, EXTERNAL_ID, 'count', {});
      await service.forParticipant(ENTERPRISE, EXTERNAL_ID, 'mhci', {});
      await service.forParticipant(ENTERPRISE, EXTERNAL_ID, 'wordcloud', { top: '3' });
      expect(calls).toEqual([
        ['participant', ENTERPRISE, EXTERNAL_ID],
        ['count', participantScope(0), ALL_TIME],
        ['participant', ENTERPRISE, EXTERNAL_ID],
        ['mhci', participantScope(1), ALL_TIME],
        ['participant', ENTERPRISE, EXTERNAL_ID],
        ['wordcloud', participantScope(4), ALL_TIME, 3],
      ]);
    });

    it('an unknown participant: Participant not found, nothing read', async () => {
      const { service, calls } = newTestService();
      const error = await failure(service.forParticipant(ENTERPRISE, 'ok_unknown', 'count', {}));
      expect([error.status, error.message]).toEqual([400, ParticipantErrors.NotFound]);
      expect(calls).toEqual([['participant', ENTERPRISE, 'ok_unknown']]);
    });

    it.each([
      ['absent', 50, undefined],
      ['1', 1, '1'],
      ['200', 200, '200'],
    ])('wordcloud with top %s reads the first %i words', async (_name, words, top) => {
      const { service, calls } = newTestService();
      const query: WordcloudQueryDto = top === undefined ? {} : { top };
      await service.forGroup(ENTERPRISE, GROUP, 'wordcloud', query);
      expect(calls.at(-1)).toEqual([
        'group wordcloud',
        ENTERPRISE,
        GROUP,
        ALL_TIME,
        SETTINGS,
        words,
      ]);
      await service.forParticipant(ENTERPRISE, EXTERNAL_ID, 'wordcloud', query);
      expect(calls.at(-1)).toEqual(['wordcloud', participantScope(4), ALL_TIME, words]);
    });
  });

  describe('answers', () => {
    const byDay: MetricsQueryDto = { groupBy: 'day' };
    const withAccuracy = { accuracy: 'true' } as MetricsQueryDto;

    it('count: one key per row, {} when a groupBy finds no period', async () => {
      const rows = [
        { key: '2026-03-01', value: 2 },
        { key: '2026-03-03', value: 1 },
      ];
      expect(
        await newTestService({ count: rows }).service.forGroup(ENTERPRISE, GROUP, 'count', byDay),
      ).toEqual({ '2026-03-01': 2, '2026-03-03': 1 });
      expect(
        await newTestService({ count: [{ key: 'all', value: 0 }] }).service.forParticipant(
          ENTERPRISE,
          EXTERNAL_ID,
          'count',
          {},
        ),
      ).toEqual({ all: 0 });
      expect(await newTestService().service.forGroup(ENTERPRISE, GROUP, 'count', byDay)).toEqual(
        {},
      );
    });

    it('a group’s mhci: {"all": null} without sessions, with or without accuracy; the statistics alone when answered', async () => {
      for (const query of [{}, withAccuracy]) {
        expect(await newTestService().service.forGroup(ENTERPRISE, GROUP, 'mhci', query)).toEqual({
          all: null,
        });
      }
      expect(
        await newTestService({ groupMhci: [mhciPeriod('all', null)] }).service.forGroup(
          ENTERPRISE,
          GROUP,
          'mhci',
          {},
        ),
      ).toEqual({ all: null });
      const shown = await newTestService({
        groupMhci: [mhciPeriod('all', STATS)],
      }).service.forGroup(ENTERPRISE, GROUP, 'mhci', {});
      expect(shown).toEqual({ all: STATS });
      expect(Object.keys(shown.all!)).toEqual(Object.keys(STATS));
    });

    it('a participant’s mhci: {"all": null} without a period or without sessions; the statistics alone otherwise', async () => {
      for (const mhci of [[], [{ key: 'all', sessions: 0, shown: true, ...NO_STATS }]]) {
        expect(
          await newTestService({ mhci }).service.forParticipant(
            ENTERPRISE,
            EXTERNAL_ID,
            'mhci',
            {},
          ),
        ).toEqual({ all: null });
      }
      const shown = await newTestService({
        mhci: [{ key: 'all', sessions: 4, shown: true, ...STATS }],
      }).service.forParticipant(ENTERPRISE, EXTERNAL_ID, 'mhci', {});
      expect(shown).toEqual({ all: STATS });
      expect(Object.keys(shown.all!)).toEqual(Object.keys(STATS));
    });

    it('mhci by period: the periods the reader answers, null where withheld, {} with none', async () => {
      const groupMhci = [
        mhciPeriod('2026-01', null, 'too-few-participants'),
        mhciPeriod('2026-02', STATS),
      ];
      expect(
        await newTestService({ groupMhci }).service.forGroup(ENTERPRISE, GROUP, 'mhci', {
          groupBy: 'month',
        }),
      ).toEqual({ '2026-01': null, '2026-02': STATS });
      expect(await newTestService().service.forGroup(ENTERPRISE, GROUP, 'mhci', byDay)).toEqual({});
      expect(
        await newTestService().service.forGroup(ENTERPRISE, GROUP, 'mhci', {
          ...byDay,
          accuracy: 'true',
        } as MetricsQueryDto),
      ).toEqual({});
    });

    it('with accuracy=true each period is {value, accuracy}: the value as without it (null when withheld), the reader’s accuracy', async () => {
      const groupMhci = [
        mhciPeriod('2026-01', null, 'margin-above-bound'),
        mhciPeriod('2026-02', STATS),
      ];
      const { service } = newTestService({ groupMhci });
      const query = { groupBy: 'month', accuracy: 'true' } as MetricsQueryDto;
      expect(await service.forGroup(ENTERPRISE, GROUP, 'mhci', query)).toEqual({
        '2026-01': { value: null, accuracy: { ...MHCI_ACCURACY, reason: 'margin-above-bound' } },
        '2026-02': { value: STATS, accuracy: MHCI_ACCURACY },
      });
      // accuracy=false is the plain answer.
      expect(
        await service.forGroup(ENTERPRISE, GROUP, 'mhci', {
          groupBy: 'month',
          accuracy: 'false',
        } as MetricsQueryDto),
      ).toEqual({ '2026-01': null, '2026-02': STATS });

      const groupWordcloud = [cloudPeriod('all', { tired: 0.6, work: 0.4 })];
      expect(
        await newTestService({ groupWordcloud }).service.forGroup(
          ENTERPRISE,
          GROUP,
          'wordcloud',
          withAccuracy,
        ),
      ).toEqual({ all: { value: { tired: 0.6, work: 0.4 }, accuracy: WORDCLOUD_ACCURACY } });
    });

    it('wordcloud without groupBy and without sessions: a group’s {"all": null}, a participant’s {"all": {}}; by period: {}', async () => {
      expect(await newTestService().service.forGroup(ENTERPRISE, GROUP, 'wordcloud', {})).toEqual({
        all: null,
      });
      expect(
        await newTestService().service.forParticipant(ENTERPRISE, EXTERNAL_ID, 'wordcloud', {}),
      ).toEqual({ all: {} });
      expect(
        await newTestService().service.forGroup(ENTERPRISE, GROUP, 'wordcloud', byDay),
      ).toEqual({});
      expect(
        await newTestService().service.forParticipant(ENTERPRISE, EXTERNAL_ID, 'wordcloud', byDay),
      ).toEqual({});
    });

    it('a group’s wordcloud: a withheld period is null, a release where no word passed {}, words in the reader’s order', async () => {
      const groupWordcloud = [
        cloudPeriod('2026-01-05', null, 'not-released-yet'),
        cloudPeriod('2026-01-12', {}),
        cloudPeriod('2026-01-19', { work: 0.5, sleep: 0.3, team: 0.2 }),
      ];
      const answer = await newTestService({ groupWordcloud }).service.forGroup(
        ENTERPRISE,
        GROUP,
        'wordcloud',
        { groupBy: 'week' },
      );
      expect(answer).toEqual({
        '2026-01-05': null,
        '2026-01-12': {},
        '2026-01-19': { work: 0.5, sleep: 0.3, team: 0.2 },
      });
      expect(Object.keys(answer['2026-01-19']!)).toEqual(['work', 'sleep', 'team']);
    });

    it('a participant’s wordcloud: their words by period, in the rows’ order; a period not shown is null', async () => {
      const wordcloud: WordcloudRow[] = [
        { key: '2026-01-05', shown: false, word: null, share: null },
        { key: '2026-01-19', shown: true, word: 'work', share: 0.5 },
        { key: '2026-01-19', shown: true, word: 'sleep', share: 0.5 },
      ];
      const answer = await newTestService({ wordcloud }).service.forParticipant(
        ENTERPRISE,
        EXTERNAL_ID,
        'wordcloud',
        { groupBy: 'week' },
      );
      expect(answer).toEqual({ '2026-01-05': null, '2026-01-19': { work: 0.5, sleep: 0.5 } });
    });

    it('counts the group values withheld (null), by metric and in both shapes; never a participant’s, never count', async () => {
      const groupMhci = [
        mhciPeriod('2026-01', null, 'too-few-participants'),
        mhciPeriod('2026-02', STATS),
        mhciPeriod('2026-03', null, 'not-released-yet'),
      ];
      const groupWordcloud = [cloudPeriod('all', null), cloudPeriod('2026-02', {})];
      const mhci: MhciRow[] = [{ key: '2026-01', sessions: 0, shown: false, ...NO_STATS }];
      const { service, withheld } = newTestService({ groupMhci, groupWordcloud, mhci });
      expect(await withheld()).toEqual({ mhci: 0, wordcloud: 0 });
      await service.forGroup(ENTERPRISE, GROUP, 'mhci', { groupBy: 'month' });
      expect(await withheld()).toEqual({ mhci: 2, wordcloud: 0 });
      await service.forGroup(ENTERPRISE, GROUP, 'mhci', {
        groupBy: 'month',
        accuracy: 'true',
      } as MetricsQueryDto);
      expect(await withheld()).toEqual({ mhci: 4, wordcloud: 0 });
      // A released cloud without words ({}) is an answer, not a withheld value.
      await service.forGroup(ENTERPRISE, GROUP, 'wordcloud', withAccuracy);
      await service.forGroup(ENTERPRISE, GROUP, 'count', {});
      await service.forParticipant(ENTERPRISE, EXTERNAL_ID, 'mhci', { groupBy: 'month' });
      expect(await withheld()).toEqual({ mhci: 4, wordcloud: 1 });
    });
  });
});
