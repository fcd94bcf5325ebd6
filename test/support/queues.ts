/** Bull's state in Redis, put in the shape a failure leaves it in. */
import Redis from 'ioredis';
import type { TestApp } from './test-app';

/**
 * As after a Redis crash: job `jobId` of `queue` exists as a bare hash that no list holds, so Bull
 * never runs it and ignores re-adds of that id. The service's sweeper must notice and queue it anew.
 */
export async function strandJob(
  t: TestApp,
  queue: 'webhooks' | 'emails',
  jobName: string,
  jobId: string,
): Promise<void> {
  const redis = new Redis(t.config.redis.url);
  try {
    await redis.hset(`${t.config.redis.queuePrefix}:${queue}:${jobId}`, {
      name: jobName,
      data: '{}',
      opts: '{}',
      timestamp: String(Date.now()),
    });
  } finally {
    redis.disconnect();
  }
}
