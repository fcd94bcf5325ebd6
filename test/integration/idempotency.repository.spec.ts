/**
 * IdempotencyRepository against real PostgreSQL: claims, byte-identical replays, mismatches,
 * the 24-hour retention, keys per enterprise, and a concurrent claim waiting on the first.
 */
import { IdempotencyClaim, IdempotencyRepository } from '../../src/sessions/idempotency.repository';
import { TestDatabase } from './support';

/** A response whose keys are not in sorted order (jsonb would reorder them), with non-ASCII. */
const RESPONSE = {
  success: true,
  message: 'Session créée ✓',
  userIdentifier: `ok_${'ab'.repeat(24)}`,
  redirectUrl: 'https://checkin.example.com/s/ses_0123456789abcdefghijKLMN?x=1&y=2',
  sessionID: 'ses_0123456789abcdefghijKLMN',
  zeta: { b: 2, a: [3, 1, { y: null, x: 1.5 }] },
  alpha: 0,
};

describe('IdempotencyRepository (PostgreSQL)', () => {
  let t: TestDatabase;
  let repo: IdempotencyRepository;
  let enterpriseId: string;
  let otherEnterpriseId: string;
  let keyNumber = 0;
  /** A key no other test uses. */
  const newKey = (): string => `key-${(keyNumber += 1)}`;

  beforeAll(async () => {
    t = await TestDatabase.create();
    repo = new IdempotencyRepository(t.db);
    enterpriseId = await t.enterprise('Acme');
    otherEnterpriseId = await t.enterprise('Globex');
  });
  afterAll(() => t.close());

  const storedText = async (enterprise: string, key: string): Promise<string> =>
    (
      await t.one<{ text: string }>(
        'SELECT response::text AS text FROM idempotency_keys WHERE enterprise_id = $1 AND key = $2',
        [enterprise, key],
      )
    ).text;

  it('claims a new key, then replays the completed response byte for byte', async () => {
    const key = newKey();
    expect(await repo.claim(enterpriseId, key, 'hash-1')).toEqual({ kind: 'claimed' });
    await repo.complete(enterpriseId, key, RESPONSE);

    const replay = await repo.claim(enterpriseId, key, 'hash-1');
    expect(replay.kind).toBe('replay');
    const response = replay.kind === 'replay' ? replay.response : undefined;
    expect(JSON.stringify(response)).toBe(JSON.stringify(RESPONSE));
    expect(await storedText(enterpriseId, key)).toBe(JSON.stringify(RESPONSE));
    // And again: a replay does not consume the key.
    expect(await repo.claim(enterpriseId, key, 'hash-1')).toEqual(replay);
  });

  it('answers a mismatch to the same key with another request hash, and keeps the first', async () => {
    const key = newKey();
    expect(await repo.claim(enterpriseId, key, 'hash-1')).toEqual({ kind: 'claimed' });
    await repo.complete(enterpriseId, key, { first: true });

    expect(await repo.claim(enterpriseId, key, 'hash-2')).toEqual({ kind: 'mismatch' });
    expect(await repo.claim(enterpriseId, key, 'hash-1')).toEqual({
      kind: 'replay',
      response: { first: true },
    });
  });

  it('claims afresh a key whose record is older than 24 hours, and only then', async () => {
    const key = newKey();
    await repo.claim(enterpriseId, key, 'hash-old');
    await repo.complete(enterpriseId, key, { old: true });
    const age = (interval: string) =>
      t.rows(
        `UPDATE idempotency_keys SET created_at = now() - $3::interval
          WHERE enterprise_id = $1 AND key = $2`,
        [enterpriseId, key, interval],
      );

    await age('23 hours 59 minutes');
    expect(await repo.claim(enterpriseId, key, 'hash-new')).toEqual({ kind: 'mismatch' });
    expect(await repo.claim(enterpriseId, key, 'hash-old')).toEqual({
      kind: 'replay',
      response: { old: true },
    });

    await age('24 hours 1 second');
    expect(await repo.claim(enterpriseId, key, 'hash-new')).toEqual({ kind: 'claimed' });
    const record = await t.one<{ requestHash: string; response: unknown; fresh: boolean }>(
      `SELECT request_hash AS "requestHash", response, created_at > now() - interval '1 minute' AS fresh
         FROM idempotency_keys WHERE enterprise_id = $1 AND key = $2`,
      [enterpriseId, key],
    );
    expect(record).toEqual({ requestHash: 'hash-new', response: null, fresh: true });
  });

  it('keeps keys per enterprise: the same key in two enterprises is two claims', async () => {
    const key = newKey();
    expect(await repo.claim(enterpriseId, key, 'hash-a')).toEqual({ kind: 'claimed' });
    await repo.complete(enterpriseId, key, { enterprise: 'a' });
    expect(await repo.claim(otherEnterpriseId, key, 'hash-b')).toEqual({ kind: 'claimed' });
    await repo.complete(otherEnterpriseId, key, { enterprise: 'b' });

    expect(await repo.claim(enterpriseId, key, 'hash-a')).toEqual({
      kind: 'replay',
      response: { enterprise: 'a' },
    });
    expect(await repo.claim(otherEnterpriseId, key, 'hash-b')).toEqual({
      kind: 'replay',
      response: { enterprise: 'b' },
    });
    expect(await repo.claim(otherEnterpriseId, key, 'hash-a')).toEqual({ kind: 'mismatch' });

    // One enterprise's claim never clears another's record, even an expired one.
    await t.rows(
      `UPDATE idempotency_keys SET created_at = now() - interval '2 days'
        WHERE enterprise_id = $1 AND key = $2`,
      [enterpriseId, key],
    );
    expect(await repo.claim(otherEnterpriseId, key, 'hash-b')).toMatchObject({ kind: 'replay' });
    expect(await storedText(enterpriseId, key)).toBe(JSON.stringify({ enterprise: 'a' }));
  });

  describe('a concurrent claim of a key claimed in an open transaction', () => {
    it('waits, then replays what that transaction completed and committed', async () => {
      const key = newKey();
      let second: Promise<IdempotencyClaim> | undefined;
      await t.db.transaction(async (sql) => {
        expect(await repo.claim(enterpriseId, key, 'hash-1', sql)).toEqual({ kind: 'claimed' });
        await repo.complete(enterpriseId, key, RESPONSE, sql);
        second = repo.claim(enterpriseId, key, 'hash-1');
        await t.waitForLockWaiters(1);
      });
      const replay = await second;
      expect(replay?.kind).toBe('replay');
      expect(JSON.stringify(replay?.kind === 'replay' ? replay.response : undefined)).toBe(
        JSON.stringify(RESPONSE),
      );
    });

    it('waits, then claims the key itself when that transaction rolls back', async () => {
      const key = newKey();
      let second: Promise<IdempotencyClaim> | undefined;
      await expect(
        t.db.transaction(async (sql) => {
          await repo.claim(enterpriseId, key, 'hash-1', sql);
          second = repo.claim(enterpriseId, key, 'hash-2');
          await t.waitForLockWaiters(1);
          throw new Error('the request failed');
        }),
      ).rejects.toThrow('the request failed');
      expect(await second).toEqual({ kind: 'claimed' });
      expect(await repo.claim(enterpriseId, key, 'hash-1')).toEqual({ kind: 'mismatch' });
    });
  });
});
