/**
 * IdempotencyRepository against real PostgreSQL: claims, replays of the stored (sealed) answer
 * byte for byte, mismatches, the 24-hour retention, keys per enterprise, a concurrent claim
 * waiting on the first, and erasure by the participant the answer names. Sealing itself is the
 * service's (test/sessions.e2e-spec.ts reads the table).
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

/** What the service stores for an answer: its sealed JSON (any text here) and whom it names. */
const sealed = (value: unknown, externalId = `ok_${'cd'.repeat(24)}`) => ({
  sealedResponse: `sealed:${JSON.stringify(value)}`,
  externalId,
});

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
        'SELECT response_ciphertext AS text FROM idempotency_keys WHERE enterprise_id = $1 AND key = $2',
        [enterprise, key],
      )
    ).text;

  it('claims a new key, then replays the completed response byte for byte', async () => {
    const key = newKey();
    expect(await repo.claim(enterpriseId, key, 'hash-1')).toEqual({ kind: 'claimed' });
    await repo.complete(enterpriseId, key, sealed(RESPONSE));

    const replay = await repo.claim(enterpriseId, key, 'hash-1');
    expect(replay.kind).toBe('replay');
    expect(replay).toEqual({ kind: 'replay', sealedResponse: sealed(RESPONSE).sealedResponse });
    expect(await storedText(enterpriseId, key)).toBe(sealed(RESPONSE).sealedResponse);
    // And again: a replay does not consume the key.
    expect(await repo.claim(enterpriseId, key, 'hash-1')).toEqual(replay);
  });

  it('answers a mismatch to the same key with another request hash, and keeps the first', async () => {
    const key = newKey();
    expect(await repo.claim(enterpriseId, key, 'hash-1')).toEqual({ kind: 'claimed' });
    await repo.complete(enterpriseId, key, sealed({ first: true }));

    expect(await repo.claim(enterpriseId, key, 'hash-2')).toEqual({ kind: 'mismatch' });
    expect(await repo.claim(enterpriseId, key, 'hash-1')).toEqual({
      kind: 'replay',
      sealedResponse: sealed({ first: true }).sealedResponse,
    });
  });

  it('claims afresh a key whose record is older than 24 hours, and only then', async () => {
    const key = newKey();
    await repo.claim(enterpriseId, key, 'hash-old');
    await repo.complete(enterpriseId, key, sealed({ old: true }));
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
      sealedResponse: sealed({ old: true }).sealedResponse,
    });

    await age('24 hours 1 second');
    expect(await repo.claim(enterpriseId, key, 'hash-new')).toEqual({ kind: 'claimed' });
    const record = await t.one<{ requestHash: string; response: unknown; fresh: boolean }>(
      `SELECT request_hash AS "requestHash", response_ciphertext AS response,
              created_at > now() - interval '1 minute' AS fresh
         FROM idempotency_keys WHERE enterprise_id = $1 AND key = $2`,
      [enterpriseId, key],
    );
    expect(record).toEqual({ requestHash: 'hash-new', response: null, fresh: true });
  });

  it('keeps keys per enterprise: the same key in two enterprises is two claims', async () => {
    const key = newKey();
    expect(await repo.claim(enterpriseId, key, 'hash-a')).toEqual({ kind: 'claimed' });
    await repo.complete(enterpriseId, key, sealed({ enterprise: 'a' }));
    expect(await repo.claim(otherEnterpriseId, key, 'hash-b')).toEqual({ kind: 'claimed' });
    await repo.complete(otherEnterpriseId, key, sealed({ enterprise: 'b' }));

    expect(await repo.claim(enterpriseId, key, 'hash-a')).toEqual({
      kind: 'replay',
      sealedResponse: sealed({ enterprise: 'a' }).sealedResponse,
    });
    expect(await repo.claim(otherEnterpriseId, key, 'hash-b')).toEqual({
      kind: 'replay',
      sealedResponse: sealed({ enterprise: 'b' }).sealedResponse,
    });
    expect(await repo.claim(otherEnterpriseId, key, 'hash-a')).toEqual({ kind: 'mismatch' });

    // One enterprise's claim never clears another's record, even an expired one.
    await t.rows(
      `UPDATE idempotency_keys SET created_at = now() - interval '2 days'
        WHERE enterprise_id = $1 AND key = $2`,
      [enterpriseId, key],
    );
    expect(await repo.claim(otherEnterpriseId, key, 'hash-b')).toMatchObject({ kind: 'replay' });
    expect(await storedText(enterpriseId, key)).toBe(sealed({ enterprise: 'a' }).sealedResponse);
  });

  it("forgets the records whose answer names an erased participant, that enterprise's only", async () => {
    const [mine, theirs, anothers] = [newKey(), newKey(), newKey()];
    const erased = `ok_${'ef'.repeat(24)}`;
    for (const [enterprise, key, who] of [
      [enterpriseId, mine, erased],
      [otherEnterpriseId, theirs, erased],
      [enterpriseId, anothers, `ok_${'12'.repeat(24)}`],
    ]) {
      await repo.claim(enterprise, key, 'h');
      await repo.complete(enterprise, key, sealed({ who }, who));
    }
    await t.db.transaction((sql) => repo.forgetParticipant(enterpriseId, erased, sql));
    expect(await repo.claim(enterpriseId, mine, 'h')).toEqual({ kind: 'claimed' });
    expect(await repo.claim(otherEnterpriseId, theirs, 'h')).toMatchObject({ kind: 'replay' });
    expect(await repo.claim(enterpriseId, anothers, 'h')).toMatchObject({ kind: 'replay' });
  });

  describe('a concurrent claim of a key claimed in an open transaction', () => {
    it('waits, then replays what that transaction completed and committed', async () => {
      const key = newKey();
      let second: Promise<IdempotencyClaim> | undefined;
      await t.db.transaction(async (sql) => {
        expect(await repo.claim(enterpriseId, key, 'hash-1', sql)).toEqual({ kind: 'claimed' });
        await repo.complete(enterpriseId, key, sealed(RESPONSE), sql);
        second = repo.claim(enterpriseId, key, 'hash-1');
        await t.waitForLockWaiters(1);
      });
      const replay = await second;
      expect(replay).toEqual({ kind: 'replay', sealedResponse: sealed(RESPONSE).sealedResponse });
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
