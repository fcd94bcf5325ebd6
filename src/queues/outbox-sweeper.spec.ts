/**
 * The outbox sweeper's base class (OutboxSweeper) with PostgreSQL's LISTEN connection faked and
 * the clock injected:
 * - it sweeps at start-up, on every NOTIFY of its channel and on its interval regardless; a NOTIFY
 *   reaches `notified()` at once, even during a sweep (DeliverySweeper wakes its pump there);
 * - sweeps never overlap: wake-ups during a sweep make exactly one more sweep right after it;
 * - a failed sweep is one warning line and does not stop the next;
 * - the LISTEN connection (to DATABASE_URL, on its own channel) is made again a second after it
 *   fails or is lost;
 * - at shutdown it stops sweeping and its interval, closes the connection, then runs `afterStop`;
 *   nothing sweeps after that, not even a wake-up left over from a sweep in progress.
 * Also the queue helpers beside it: `withTimeout` and which Bull job states still run.
 */
import { EventEmitter } from 'node:events';
import { Logger } from '@nestjs/common';
import { isRunnableJobState, OutboxSweeper, withTimeout } from './outbox-sweeper';

interface FakeClient extends EventEmitter {
  options: { connectionString: string };
  connect: jest.Mock<Promise<void>, []>;
  query: jest.Mock<Promise<unknown>, [string]>;
  end: jest.Mock<Promise<void>, []>;
}

/** Every LISTEN connection the sweeper opened, oldest first. */
const mockClients: FakeClient[] = [];
/** What the next connections' `connect()` does (default: succeed). */
const mockConnects: (() => Promise<void>)[] = [];

jest.mock('pg', () => {
  const { EventEmitter: Emitter } = require('node:events') as typeof import('node:events');
  class Client extends Emitter {
    connect = jest.fn(() => (mockConnects.shift() ?? (() => Promise.resolve()))());
    query = jest.fn((_text: string): Promise<unknown> => Promise.resolve({ rows: [] }));
    end = jest.fn(() => Promise.resolve());
    constructor(readonly options: { connectionString: string }) {
      super();
      mockClients.push(this);
    }
  }
  return { Client };
});

const DATABASE_URL = 'postgres://checkin@db.internal:5432/checkin';
const CHANNEL = 'webhook_deliveries_due';
const INTERVAL_MS = 5_000;

/** A sweeper whose sweeps end when the test says so. */
class TestSweeper extends OutboxSweeper {
  /** The sweeps started, each ended by calling `finish` or `fail`. */
  readonly sweeps: { finish: () => void; fail: (error: Error) => void }[] = [];
  readonly events: string[] = [];

  constructor() {
    super('TestSweeper', CHANNEL, DATABASE_URL, INTERVAL_MS);
  }

  protected sweepOnce(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.events.push('sweep');
      this.sweeps.push({ finish: resolve, fail: reject });
    });
  }

  protected override afterStop(): Promise<void> {
    const ended = mockClients.map((client) => client.end.mock.calls.length);
    this.events.push(`afterStop (connections ended: ${ended.join(',')})`);
    return Promise.resolve();
  }

  /** What a subclass that can act on a NOTIFY at once does first (DeliverySweeper wakes its pump). */
  protected override notified(): void {
    this.events.push('notified');
    super.notified();
  }

  /** Ends the sweep in progress. */
  finishSweep(): void {
    this.sweeps[this.sweeps.length - 1].finish();
  }
}

/** Lets every settled promise's callbacks run (timers stay faked; setImmediate is real). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A LISTEN connection's notification, as pg emits it. */
const notify = (client: FakeClient) =>
  client.emit('notification', { channel: CHANNEL, payload: '', processId: 1 });

describe('OutboxSweeper', () => {
  let warn: jest.SpyInstance;
  let sweeper: TestSweeper;

  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    mockClients.length = 0;
    mockConnects.length = 0;
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    sweeper = new TestSweeper();
  });
  afterEach(async () => {
    await sweeper.beforeApplicationShutdown();
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  /** Starts the sweeper and ends its first sweep. */
  const started = async () => {
    sweeper.onApplicationBootstrap();
    await settle();
    sweeper.finishSweep();
    await settle();
  };

  it('sweeps at start-up and LISTENs on its channel on a connection of its own', async () => {
    sweeper.onApplicationBootstrap();
    await settle();
    expect(sweeper.events).toEqual(['sweep']);
    expect(mockClients).toHaveLength(1);
    expect(mockClients[0].options).toEqual({ connectionString: DATABASE_URL });
    expect(mockClients[0].query.mock.calls).toEqual([[`LISTEN ${CHANNEL}`]]);
  });

  it('sweeps on every NOTIFY', async () => {
    await started();
    notify(mockClients[0]);
    expect(sweeper.sweeps).toHaveLength(2);
    sweeper.finishSweep();
    await settle();
    notify(mockClients[0]);
    expect(sweeper.sweeps).toHaveLength(3);
  });

  it('hands every NOTIFY to notified() at once, even while a sweep is in progress', async () => {
    sweeper.onApplicationBootstrap();
    await settle();
    notify(mockClients[0]);
    notify(mockClients[0]);
    // The delivery sweeper's pump wakes here, not when the sweep in progress ends.
    expect(sweeper.events).toEqual(['sweep', 'notified', 'notified']);
    sweeper.finishSweep();
    await settle();
    expect(sweeper.events).toEqual(['sweep', 'notified', 'notified', 'sweep']);
  });

  it('sweeps on its interval without any NOTIFY', async () => {
    await started();
    await jest.advanceTimersByTimeAsync(INTERVAL_MS - 1);
    expect(sweeper.sweeps).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(sweeper.sweeps).toHaveLength(2);
    sweeper.finishSweep();
    await jest.advanceTimersByTimeAsync(INTERVAL_MS);
    expect(sweeper.sweeps).toHaveLength(3);
  });

  it('never overlaps sweeps: wake-ups during one make exactly one more, right after it', async () => {
    sweeper.onApplicationBootstrap();
    await settle();
    notify(mockClients[0]);
    sweeper.sweep();
    await jest.advanceTimersByTimeAsync(INTERVAL_MS);
    notify(mockClients[0]);
    expect(sweeper.sweeps).toHaveLength(1);

    sweeper.finishSweep();
    await settle();
    expect(sweeper.sweeps).toHaveLength(2);
    sweeper.finishSweep();
    await settle();
    expect(sweeper.sweeps).toHaveLength(2);
  });

  it('logs a failed sweep as one warning and sweeps again at the next wake-up', async () => {
    sweeper.onApplicationBootstrap();
    await settle();
    sweeper.sweeps[0].fail(new Error('connection terminated'));
    await settle();
    expect(warn.mock.calls).toEqual([['Sweep failed: connection terminated']]);

    sweeper.sweep();
    expect(sweeper.sweeps).toHaveLength(2);
  });

  it('runs the wake-up that came during a failed sweep', async () => {
    sweeper.onApplicationBootstrap();
    await settle();
    sweeper.sweep();
    sweeper.sweeps[0].fail(new Error('deadlock detected'));
    await settle();
    expect(sweeper.sweeps).toHaveLength(2);
  });

  it('connects again a second after the LISTEN connection could not be made', async () => {
    mockConnects.push(() => Promise.reject(new Error('ECONNREFUSED')));
    await started();
    expect(mockClients).toHaveLength(1);
    expect(mockClients[0].end).toHaveBeenCalledTimes(1);
    expect(mockClients[0].query).not.toHaveBeenCalled();

    await jest.advanceTimersByTimeAsync(999);
    expect(mockClients).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(mockClients).toHaveLength(2);
    expect(mockClients[1].query.mock.calls).toEqual([[`LISTEN ${CHANNEL}`]]);

    notify(mockClients[1]);
    expect(sweeper.sweeps).toHaveLength(2);
  });

  it('connects again a second after the LISTEN connection is lost', async () => {
    await started();
    mockClients[0].emit('error', new Error('terminating connection due to administrator command'));
    expect(mockClients[0].end).toHaveBeenCalledTimes(1);

    await jest.advanceTimersByTimeAsync(999);
    expect(mockClients).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(mockClients).toHaveLength(2);
    expect(mockClients[1].query.mock.calls).toEqual([[`LISTEN ${CHANNEL}`]]);
  });

  it('at shutdown stops sweeping, closes the connection, then runs afterStop', async () => {
    await started();
    await sweeper.beforeApplicationShutdown();
    expect(sweeper.events).toEqual(['sweep', 'afterStop (connections ended: 1)']);
    // No interval left to keep the process alive.
    expect(jest.getTimerCount()).toBe(0);

    sweeper.sweep();
    notify(mockClients[0]);
    await jest.advanceTimersByTimeAsync(INTERVAL_MS * 3);
    expect(sweeper.sweeps).toHaveLength(1);
  });

  it('does not run a wake-up left over from the sweep in progress at shutdown', async () => {
    sweeper.onApplicationBootstrap();
    await settle();
    sweeper.sweep();
    await sweeper.beforeApplicationShutdown();
    sweeper.finishSweep();
    await settle();
    expect(sweeper.sweeps).toHaveLength(1);
  });

  it('closes a connection that was still being made at shutdown, and does not LISTEN on it', async () => {
    let connected!: () => void;
    mockConnects.push(() => new Promise<void>((resolve) => (connected = resolve)));
    sweeper.onApplicationBootstrap();
    await settle();
    await sweeper.beforeApplicationShutdown();
    connected();
    await settle();
    expect(mockClients[0].end).toHaveBeenCalledTimes(1);
    expect(mockClients[0].query).not.toHaveBeenCalled();

    await jest.advanceTimersByTimeAsync(10_000);
    expect(mockClients).toHaveLength(1);
  });
});

describe('withTimeout', () => {
  afterEach(() => jest.useRealTimers());

  it("answers the promise's value when it comes in time, and leaves no timer", async () => {
    jest.useFakeTimers();
    expect(await withTimeout(Promise.resolve('done'), 1_000)).toBe('done');
    expect(jest.getTimerCount()).toBe(0);
  });

  it('answers undefined once the time has passed, not before', async () => {
    jest.useFakeTimers();
    let answer: unknown = 'pending';
    const late = withTimeout(new Promise<string>(() => undefined), 1_000).then(
      (value) => (answer = value),
    );
    await jest.advanceTimersByTimeAsync(999);
    expect(answer).toBe('pending');
    await jest.advanceTimersByTimeAsync(1);
    await late;
    expect(answer).toBeUndefined();
  });

  it('passes a failure on', async () => {
    await expect(withTimeout(Promise.reject(new Error('refused')), 1_000)).rejects.toThrow(
      'refused',
    );
  });
});

describe('isRunnableJobState', () => {
  it.each([
    ['waiting', true],
    ['delayed', true],
    ['active', true],
    ['paused', true],
    ['completed', false],
    ['failed', false],
    ['stuck', false],
    [undefined, false],
  ])('%s → %s', (state, runnable) => {
    expect(isRunnableJobState(state)).toBe(runnable);
  });
});
