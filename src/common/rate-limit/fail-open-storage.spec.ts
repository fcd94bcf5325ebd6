import { FailOpenThrottlerStorage } from './fail-open-storage';

describe('FailOpenThrottlerStorage', () => {
  it('passes the inner storage answer through', async () => {
    const record = { totalHits: 3, timeToExpire: 10, isBlocked: false, timeToBlockExpire: 0 };
    const storage = new FailOpenThrottlerStorage({ increment: () => Promise.resolve(record) });
    await expect(storage.increment('k', 1000, 5, 1000, 'default')).resolves.toBe(record);
  });

  it('lets the request through when Redis fails', async () => {
    const storage = new FailOpenThrottlerStorage({
      increment: () => Promise.reject(new Error('Connection is closed.')),
    });
    await expect(storage.increment('k', 1000, 5, 1000, 'default')).resolves.toEqual({
      totalHits: 0,
      timeToExpire: 0,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
  });
});
