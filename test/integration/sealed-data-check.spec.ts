/**
 * The start-up check of the data keys (docs/data-at-rest.md, "Data the keys cannot open") against
 * real PostgreSQL: counts by key id in every sealed column, a key id that is not configured, a
 * configured id whose key did not seal its values, and a DATA_ENCRYPTION_KEY that is not the key
 * of the stored email look-up hashes.
 */
import { randomBytes } from 'node:crypto';
import { PiiCipher } from '../../src/common/crypto/pii-cipher';
import { ReencryptionRepository } from '../../src/data-at-rest/reencryption.repository';
import { SealedDataCheck } from '../../src/data-at-rest/sealed-data-check';
import { TestDatabase } from './support';

describe('The start-up check of the data keys (PostgreSQL)', () => {
  let t: TestDatabase;
  const root = randomBytes(32);
  const k1 = { id: 'k1', key: randomBytes(32) };
  const check = (cipher: PiiCipher) =>
    new SealedDataCheck(new ReencryptionRepository(t.db), cipher).run();

  beforeAll(async () => {
    t = await TestDatabase.create();
    const underK0 = new PiiCipher(root);
    const underK1 = new PiiCipher(root, [k1]);
    const enterpriseId = await t.enterprise();
    const groupId = await t.group(enterpriseId);
    const emails = [
      ...['a@example.com', 'b@example.com'].map((email) => ({ email, sealer: underK0 })),
      ...['c@example.com', 'd@example.com', 'e@example.com'].map((email) => ({
        email,
        sealer: underK1,
      })),
    ];
    const participants: string[] = [];
    for (const { email, sealer } of emails) {
      const id = await t.participant(enterpriseId, { emailCiphertext: sealer.encrypt(email) });
      await t.rows('UPDATE participants SET email_hash = $2 WHERE id = $1', [
        id,
        underK0.emailLookupHash(email),
      ]);
      participants.push(id);
    }
    await t.membership(participants[0], groupId);
    await t.session(enterpriseId, participants[0], groupId, {
      completedAt: new Date().toISOString(),
    });
    await t.rows('UPDATE sessions SET transcript = $1', [underK0.encrypt('[]')]);
    await t.endpoint(enterpriseId, groupId, { secretCiphertext: underK1.encrypt('whsec_x') });
  });
  afterAll(() => t.close());

  it('with the keys that sealed everything: nothing to report, and the look-up hashes match', async () => {
    expect(await check(new PiiCipher(root, [k1]))).toEqual({
      values: 7,
      unopenable: [],
      lookupHashMatches: true,
    });
  });

  it('without k1: its values in each column, counted, as not configured', async () => {
    const report = await check(new PiiCipher(root));
    expect(report.unopenable).toEqual([
      {
        column: 'participants.email_ciphertext',
        keyId: 'k1',
        count: 3,
        reason: 'the data key k1 is not configured (retired?)',
      },
      {
        column: 'webhook_endpoints.secret_ciphertext',
        keyId: 'k1',
        count: 1,
        reason: 'the data key k1 is not configured (retired?)',
      },
    ]);
    expect(report.lookupHashMatches).toBe(true);
  });

  it('with another DATA_ENCRYPTION_KEY: k0 values do not open, and the look-up hashes are not its', async () => {
    const report = await check(new PiiCipher(randomBytes(32), [k1]));
    const mismatch = 'the configured data key k0 does not open it (another key sealed it)';
    expect(report.unopenable).toEqual([
      { column: 'sessions.transcript', keyId: 'k0', count: 1, reason: mismatch },
      { column: 'participants.email_ciphertext', keyId: 'k0', count: 2, reason: mismatch },
    ]);
    expect(report.lookupHashMatches).toBe(false);
  });
});

describe('When the start-up check runs (a worker: a minute after start-up)', () => {
  const report = { values: 0, unopenable: [], lookupHashMatches: null };
  const checkWithoutDatabase = () => {
    const check = new SealedDataCheck({} as ReencryptionRepository, new PiiCipher(randomBytes(32)));
    const run = jest.spyOn(check, 'run').mockResolvedValue(report);
    return { check, run };
  };
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs once, after the delay it is given', () => {
    const { check, run } = checkWithoutDatabase();
    check.runInBackground(60_000);
    jest.advanceTimersByTime(59_999);
    expect(run).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('does not run when the process stops first', () => {
    const { check, run } = checkWithoutDatabase();
    check.runInBackground(60_000);
    check.beforeApplicationShutdown();
    jest.advanceTimersByTime(120_000);
    expect(run).not.toHaveBeenCalled();
  });
});
