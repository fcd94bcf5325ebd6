/**
 * The Bull connection every process shares (bullRoot): one global module whose default queue
 * configuration is REDIS_URL and, as the key prefix of every queue, QUEUE_PREFIX — so several
 * deployments (or test runs) can share one Redis without seeing each other's jobs. Nothing else
 * (no other Redis option) is set there.
 */
import { getSharedConfigToken } from '@nestjs/bull';
import type { ValueProvider } from '@nestjs/common';
import { loadConfig } from '../config/config';
import { bullRoot } from './bull-root';

describe('bullRoot', () => {
  it('configures every queue with REDIS_URL and QUEUE_PREFIX, for the whole application', () => {
    const module = bullRoot(
      loadConfig({
        NODE_ENV: 'test',
        REDIS_URL: 'rediss://queues.internal:6390/4',
        QUEUE_PREFIX: 'tenant-b_2',
      }),
    );
    expect(module.global).toBe(true);
    expect(module.providers).toEqual([
      {
        provide: getSharedConfigToken(),
        useValue: { url: 'rediss://queues.internal:6390/4', prefix: 'tenant-b_2' },
      },
    ]);
    expect(module.exports).toEqual(module.providers);
  });

  it('uses the defaults when nothing is set: local Redis, prefix "checkin"', () => {
    const [provider] = bullRoot(loadConfig({ NODE_ENV: 'test' })).providers as ValueProvider[];
    expect(provider.useValue).toEqual({ url: 'redis://127.0.0.1:6379', prefix: 'checkin' });
  });
});
