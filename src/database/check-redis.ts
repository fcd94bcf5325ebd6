import Redis from 'ioredis';
import { DependencyUnavailableError, describeLocation, describeReason } from './dependency-errors';

/** Fails with one clear line when Redis does not answer a PING. */
export async function checkRedis(redisUrl: string): Promise<void> {
  const client = new Redis(redisUrl, {
    lazyConnect: true,
    connectTimeout: 3_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  // ioredis reports the cause (ECONNREFUSED, …) on 'error' and only "Connection is closed" on the
  // rejected promise; keep the cause for the message.
  let cause: unknown;
  client.on('error', (error) => (cause ??= error));
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw new DependencyUnavailableError(
      'Redis',
      describeLocation(redisUrl),
      describeReason(cause ?? error),
    );
  } finally {
    client.disconnect();
  }
}
