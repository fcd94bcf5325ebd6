import { lastClosedDay, PendingSession, sealableRuns } from './sealing-runs';

const session = (
  sessionId: string,
  participantId: string,
  day: string,
  hidden = true,
  contributes = true,
): PendingSession => ({ sessionId, participantId, day, hidden, contributes });

describe('sealableRuns', () => {
  it('seals a run as soon as it blends the floor of hidden participants, day by day', () => {
    const runs = sealableRuns(
      [
        session('a1', 'a', '2026-01-01'),
        session('b1', 'b', '2026-01-02'),
        session('c1', 'c', '2026-01-02'),
        session('a2', 'a', '2026-01-03'),
        session('d1', 'd', '2026-01-04'),
      ],
      3,
    );
    expect(runs).toEqual([
      {
        firstDay: '2026-01-01',
        lastDay: '2026-01-02',
        sessionIds: ['a1', 'b1', 'c1'],
        hiddenParticipants: 3,
      },
    ]);
  });

  it('counts a participant once, and not at all when one of their sessions in the run is visible', () => {
    const pending = [
      session('a1', 'a', '2026-01-01'),
      session('a2', 'a', '2026-01-01'),
      session('b1', 'b', '2026-01-01'),
      session('b2', 'b', '2026-01-02', false),
      session('c1', 'c', '2026-01-02'),
    ];
    expect(sealableRuns(pending, 3)).toEqual([]);
    expect(sealableRuns(pending, 2)).toEqual([
      {
        firstDay: '2026-01-01',
        lastDay: '2026-01-01',
        sessionIds: ['a1', 'a2', 'b1'],
        hiddenParticipants: 2,
      },
    ]);
  });

  it('blends visible sessions in without counting them; a session that gives nothing counts no one', () => {
    const runs = sealableRuns(
      [
        session('v1', 'v', '2026-01-01', false),
        session('a1', 'a', '2026-01-01'),
        session('n1', 'n', '2026-01-01', true, false),
        session('b1', 'b', '2026-01-03'),
      ],
      2,
    );
    expect(runs).toEqual([
      {
        firstDay: '2026-01-01',
        lastDay: '2026-01-03',
        sessionIds: ['v1', 'a1', 'n1', 'b1'],
        hiddenParticipants: 2,
      },
    ]);
  });

  it('starts the next run after the last sealed one', () => {
    const runs = sealableRuns(
      ['a', 'b', 'c', 'd'].map((p, i) => session(`${p}1`, p, `2026-01-0${i + 1}`)),
      2,
    );
    expect(runs.map((run) => [run.firstDay, run.lastDay])).toEqual([
      ['2026-01-01', '2026-01-02'],
      ['2026-01-03', '2026-01-04'],
    ]);
  });
});

describe('lastClosedDay', () => {
  it('closes a day the delay after it ends', () => {
    expect(lastClosedDay(new Date('2026-03-10T00:59:00Z'), 60)).toBe('2026-03-08');
    expect(lastClosedDay(new Date('2026-03-10T01:00:00Z'), 60)).toBe('2026-03-09');
    expect(lastClosedDay(new Date('2026-03-10T00:00:00Z'), 0)).toBe('2026-03-09');
  });
});
