/**
 * MetricsService's rules above the SQL (docs/metrics.md, "The endpoints"), with its repositories
 * faked: `from` after `to` is refused before anything is read; an unknown group or participant
 * is refused before sealing or reading; a group read seals only the series its metric reads
 * (`count` none), before reading; a participant's metric reads at the level it needs; and the
 * answers' shapes — `{}` for no period, `{"all": null}` for a range without a shown value,
 * `{"all": {}}` for a participant's empty cloud, null beside shown periods, statistics without
 * the bookkeeping fields, `top` 50 unless given — and the count of withheld group values.
 */
import type { Counter } from 'prom-client';
import { ApiError } from '../common/errors/api-error';
import { Measurements } from '../common/measurements/measurements';
import type { Metric } from '../common/privacy-model';
import { GroupErrors } from '../groups/groups.errors';
import type { GroupsRepository } from '../groups/groups.repository';
import { ParticipantErrors } from '../participants/participants.errors';
import type { ParticipantsService } from '../participants/participants.service';
import type { CohortSeries } from './cohorts/cohort-cell.entity';
import type { CohortSealer } from './cohorts/cohort-sealer';
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

/** The service over fakes that record, in order, what was asked of them. */
function newTestService(
  rows: {
    count?: { key: string; value: number }[];
    mhci?: MhciRow[];
    wordcloud?: WordcloudRow[];
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
  const sealer = {
    sealGroup: (groupId: number, options: { series: CohortSeries[] }) => {
      calls.push(['seal', groupId, options.series]);
      return Promise.resolve(0);
    },
  };
  const measurements = new Measurements();
  const service = new MetricsService(
    metrics as unknown as MetricsRepository,
    groups as unknown as GroupsRepository,
    participants as unknown as ParticipantsService,
    sealer as unknown as CohortSealer,
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
      expect(calls.filter((call) => call[0] === 'count').map((call) => call[2])).toEqual([
        { from: '2026-03-01', to: '2026-03-01', groupBy: null },
        { from: '2026-03-01', to: null, groupBy: null },
        { from: null, to: '2026-03-01', groupBy: 'week' },
      ]);
    });

    it('an unknown group (or another enterprise’s): Group not found, nothing sealed or read', async () => {
      const { service, calls } = newTestService();
      for (const [enterprise, group] of [
        [ENTERPRISE, 999],
        ['other-enterprise', GROUP],
      ] as const) {
        const error = await failure(service.forGroup(enterprise, group, 'mhci', {}));
        expect([error.status, error.message]).toEqual([400, GroupErrors.NotFound]);
      }
      expect(calls).toEqual([
        ['group exists', ENTERPRISE, 999],
        ['group exists', 'other-enterprise', GROUP],
      ]);
    });

    it('a group read seals first the one series its metric reads: mhci scores, wordcloud words, count none', async () => {
      const { service, calls } = newTestService();
      await service.forGroup(ENTERPRISE, GROUP, 'count', {});
      await service.forGroup(ENTERPRISE, GROUP, 'mhci', {});
      await service.forGroup(ENTERPRISE, GROUP, 'wordcloud', {});
      expect(calls).toEqual([
        ['group exists', ENTERPRISE, GROUP],
        ['count', groupScope, ALL_TIME],
        ['group exists', ENTERPRISE, GROUP],
        ['seal', GROUP, ['scores']],
        ['mhci', groupScope, ALL_TIME],
        ['group exists', ENTERPRISE, GROUP],
        ['seal', GROUP, ['words']],
        ['wordcloud', groupScope, ALL_TIME, 50],
      ]);
    });

    it('a participant’s metric seals nothing and reads their sessions at the level it needs: count 0, mhci 1, wordcloud 4', async () => {
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
      expect(calls.at(-1)).toEqual(['wordcloud', groupScope, ALL_TIME, words]);
    });
  });

  describe('answers', () => {
    const byDay: MetricsQueryDto = { groupBy: 'day' };

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

    it('mhci: {"all": null} without a period, without sessions or without a released cell; the statistics alone when shown', async () => {
      const none = [
        [],
        [{ key: 'all', sessions: 0, shown: true, ...NO_STATS }],
        [{ key: 'all', sessions: 0, shown: false, ...NO_STATS }],
      ];
      for (const mhci of none) {
        expect(
          await newTestService({ mhci }).service.forGroup(ENTERPRISE, GROUP, 'mhci', {}),
        ).toEqual({ all: null });
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
      }).service.forGroup(ENTERPRISE, GROUP, 'mhci', {});
      expect(shown).toEqual({ all: STATS });
      expect(Object.keys(shown.all!)).toEqual(Object.keys(STATS));
    });

    it('mhci by period: the periods of the rows, null where no cell was released, {} with none', async () => {
      const mhci: MhciRow[] = [
        { key: '2026-01', sessions: 0, shown: false, ...NO_STATS },
        { key: '2026-02', sessions: 12, shown: true, ...STATS },
      ];
      expect(
        await newTestService({ mhci }).service.forGroup(ENTERPRISE, GROUP, 'mhci', {
          groupBy: 'month',
        }),
      ).toEqual({ '2026-01': null, '2026-02': STATS });
      expect(await newTestService().service.forGroup(ENTERPRISE, GROUP, 'mhci', byDay)).toEqual({});
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

    it('wordcloud: a period without a released cell is null, one whose cells released no word {}, words in the rows’ order', async () => {
      const wordcloud: WordcloudRow[] = [
        { key: '2026-01-05', shown: false, word: null, share: null },
        { key: '2026-01-12', shown: true, word: null, share: null },
        { key: '2026-01-19', shown: true, word: 'work', share: 0.5 },
        { key: '2026-01-19', shown: true, word: 'sleep', share: 0.3 },
        { key: '2026-01-19', shown: true, word: 'team', share: 0.2 },
      ];
      const answer = await newTestService({ wordcloud }).service.forGroup(
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
      expect(
        await newTestService({
          wordcloud: [{ key: 'all', shown: true, word: null, share: null }],
        }).service.forGroup(ENTERPRISE, GROUP, 'wordcloud', {}),
      ).toEqual({ all: {} });
      expect(
        await newTestService({
          wordcloud: [{ key: 'all', shown: false, word: null, share: null }],
        }).service.forGroup(ENTERPRISE, GROUP, 'wordcloud', {}),
      ).toEqual({ all: null });
    });

    it('counts the group values withheld for want of a released cell, by metric; never a participant’s, never count', async () => {
      const mhci: MhciRow[] = [
        { key: '2026-01', sessions: 0, shown: false, ...NO_STATS },
        { key: '2026-02', sessions: 3, shown: true, ...STATS },
        { key: '2026-03', sessions: 0, shown: false, ...NO_STATS },
      ];
      const wordcloud: WordcloudRow[] = [{ key: 'all', shown: false, word: null, share: null }];
      const { service, withheld } = newTestService({ mhci, wordcloud });
      expect(await withheld()).toEqual({ mhci: 0, wordcloud: 0 });
      await service.forGroup(ENTERPRISE, GROUP, 'mhci', { groupBy: 'month' });
      await service.forGroup(ENTERPRISE, GROUP, 'wordcloud', {});
      await service.forGroup(ENTERPRISE, GROUP, 'count', {});
      await service.forParticipant(ENTERPRISE, EXTERNAL_ID, 'mhci', { groupBy: 'month' });
      expect(await withheld()).toEqual({ mhci: 2, wordcloud: 1 });
    });
  });
});
