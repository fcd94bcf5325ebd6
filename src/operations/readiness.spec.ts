/**
 * `/readyz`'s answer (Readiness) with PostgreSQL and Redis faked:
 * - ready only when PostgreSQL answers `SELECT 1`, Redis answers PING and the process is not
 *   draining; each failing part is named (`unavailable`, `draining`), the others still reported;
 * - a check that hangs counts as failed after two seconds, not later, and leaves no timer behind;
 * - Redis is asked on a connection of its own (REDIS_URL) that never queues a command while
 *   disconnected, gives up on a command at once and within two seconds, whose connection errors
 *   never escape, which connects at start-up without failing it and is closed at shutdown.
 */
import { EventEmitter } from 'node:events';
import { ShutdownState } from '../common/lifecycle/shutdown-state';
import { loadConfig } from '../config/config';
import type { Database } from '../database/database';
import { Readiness } from './readiness';

/** The fake ioredis clients made, newest last. */
const mockRedisClients: FakeRedis[] = [];

interface FakeRedis extends EventEmitter {
  url: string;
  options: Record<string, unknown>;
  ping: jest.Mock<Promise<string>, []>;
  connect: jest.Mock<Promise<void>, []>;
  disconnect: jest.Mock<void, []>;
}

jest.mock('ioredis', () => {
  const { EventEmitter: Emitter } = require('node:events') as typeof import('node:events');
  class Redis extends Emitter {
    ping = jest.fn(() => Promise.resolve('PONG'));
    connect = jest.fn(() => Promise.resolve());
    disconnect = jest.fn();
    constructor(
      readonly url: string,
      readonly options: Record<string, unknown>,
    ) {
      super();
      mockRedisClients.push(this);
    }
  }
  return { __esModule: true, default: Redis };
});

const REDIS_URL = 'redis://redis.internal:6380/3';

function readinessWith(probe: { postgresql?: () => Promise<unknown> } = {}) {
  const rows = jest.fn(probe.postgresql ?? (() => Promise.resolve([{ '?column?': 1 }])));
  const shutdown = new ShutdownState();
  const readiness = new Readiness(
    { rows } as unknown as Database,
    shutdown,
    loadConfig({ NODE_ENV: 'test', REDIS_URL }),
  );
  const redis = mockRedisClients[mockRedisClients.length - 1];
  return { readiness, redis, rows, shutdown };
}

/** A promise that never settles: a dependency that does not answer. */
const hanging = () => new Promise<never>(() => undefined);

describe('Readiness', () => {
  afterEach(() => jest.useRealTimers());

  it('is ready when PostgreSQL answers SELECT 1, Redis answers PING and the process runs', async () => {
    const { readiness, redis, rows } = readinessWith();
    expect(await readiness.check()).toEqual({
      status: 'ready',
      checks: { postgresql: 'ok', redis: 'ok', shutdown: 'running' },
    });
    expect(rows.mock.calls).toEqual([['SELECT 1']]);
    expect(redis.ping).toHaveBeenCalledTimes(1);
  });

  it('is not ready, naming PostgreSQL, when PostgreSQL fails', async () => {
    const { readiness } = readinessWith({
      postgresql: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')),
    });
    expect(await readiness.check()).toEqual({
      status: 'not ready',
      checks: { postgresql: 'unavailable', redis: 'ok', shutdown: 'running' },
    });
  });

  it('is not ready, naming Redis, when PING fails', async () => {
    const { readiness, redis } = readinessWith();
    redis.ping.mockRejectedValueOnce(new Error("Stream isn't writeable"));
    expect(await readiness.check()).toEqual({
      status: 'not ready',
      checks: { postgresql: 'ok', redis: 'unavailable', shutdown: 'running' },
    });
    // Back: ready again on the next check.
    expect((await readiness.check()).status).toBe('ready');
  });

  it('is not ready while draining, though both dependencies answer', async () => {
    const { readiness, shutdown } = readinessWith();
    shutdown.draining = true;
    expect(await readiness.check()).toEqual({
      status: 'not ready',
      checks: { postgresql: 'ok', redis: 'ok', shutdown: 'draining' },
    });
  });

  it('reports every failing part at once', async () => {
    const { readiness, redis, shutdown } = readinessWith({
      postgresql: () => Promise.reject(new Error('down')),
    });
    redis.ping.mockRejectedValueOnce(new Error('down'));
    shutdown.draining = true;
    expect(await readiness.check()).toEqual({
      status: 'not ready',
      checks: { postgresql: 'unavailable', redis: 'unavailable', shutdown: 'draining' },
    });
  });

  it('counts a check that hangs as failed after two seconds, and not before', async () => {
    jest.useFakeTimers();
    const { readiness, redis } = readinessWith({ postgresql: hanging });
    redis.ping.mockImplementationOnce(hanging);
    let report: unknown;
    void readiness.check().then((value) => (report = value));

    await jest.advanceTimersByTimeAsync(1_999);
    expect(report).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(report).toEqual({
      status: 'not ready',
      checks: { postgresql: 'unavailable', redis: 'unavailable', shutdown: 'running' },
    });
    expect(jest.getTimerCount()).toBe(0);
  });

  it('leaves no timer behind when the checks answer', async () => {
    jest.useFakeTimers();
    const { readiness } = readinessWith();
    await readiness.check();
    expect(jest.getTimerCount()).toBe(0);
  });

  describe('its Redis connection', () => {
    it('is its own, at REDIS_URL, failing fast rather than queueing while Redis is away', () => {
      const { redis } = readinessWith();
      expect(redis.url).toBe(REDIS_URL);
      expect(redis.options).toEqual({
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        connectTimeout: 2_000,
        commandTimeout: 2_000,
        connectionName: 'checkin-readiness',
      });
    });

    it('connects at start-up without failing it when Redis is down, and closes at shutdown', async () => {
      const { readiness, redis } = readinessWith();
      expect(redis.connect).not.toHaveBeenCalled();
      redis.connect.mockRejectedValueOnce(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
      expect(() => readiness.onModuleInit()).not.toThrow();
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(redis.connect).toHaveBeenCalledTimes(1);

      readiness.onApplicationShutdown();
      expect(redis.disconnect).toHaveBeenCalledTimes(1);
    });

    it('keeps its connection errors to itself (an error event does not crash the process)', () => {
      const { redis } = readinessWith();
      expect(() => redis.emit('error', new Error('read ECONNRESET'))).not.toThrow();
    });
  });
});
