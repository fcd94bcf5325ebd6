/**
 * Re-encryption under the newest data key (CLI `data:reencrypt`) against real PostgreSQL: every
 * sealed column, values under older keys (`k0` = DATA_ENCRYPTION_KEY, `k1`) rewritten, values
 * under a key no longer configured left alone and counted, batches past the first.
 */
import { randomBytes } from 'node:crypto';
import { PiiCipher } from '../../src/common/crypto/pii-cipher';
import { Reencryption } from '../../src/data-at-rest/reencryption';
import { ReencryptionRepository } from '../../src/data-at-rest/reencryption.repository';
import { TestDatabase } from './support';

describe('Re-encryption under the newest data key (PostgreSQL)', () => {
  let t: TestDatabase;
  const root = randomBytes(32);
  const k1 = { id: 'k1', key: randomBytes(32) };
  const k2 = { id: 'k2', key: randomBytes(32) };
  const k9 = { id: 'k9', key: randomBytes(32) };

  beforeAll(async () => {
    t = await TestDatabase.create();
  });
  afterAll(() => t.close());

  it('rewrites every sealed column under the newest key; a retired key is left and counted', async () => {
    const underK0 = new PiiCipher(root);
    const underK1 = new PiiCipher(root, [k1]);
    const underK9 = new PiiCipher(root, [k9]);
    const enterpriseId = await t.enterprise();
    const groupId = await t.group(enterpriseId);
    const emails = [
      underK0.encrypt('old@example.com'),
      underK1.encrypt('k1@example.com'),
      underK9.encrypt('retired@example.com'),
    ];
    // More than one batch (500) of participants under k1.
    for (let i = 0; i < 520; i += 1) emails.push(underK1.encrypt(`p${i}@example.com`));
    const participants = [];
    for (const emailCiphertext of emails) {
      participants.push(await t.participant(enterpriseId, { emailCiphertext }));
    }
    await t.membership(participants[0], groupId);
    const session = await t.session(enterpriseId, participants[0], groupId, {
      completedAt: new Date().toISOString(),
    });
    // The transcript and features under k0, the word counts under k1.
    await t.rows(`UPDATE sessions SET transcript = $1, features = $2, word_counts = $3`, [
      underK0.encrypt('[{"role":"user","content":"hi"}]'),
      underK0.encrypt('{"pitch":0.8}'),
      underK1.encrypt('{"hi":1}'),
    ]);
    const event = await t.event(enterpriseId, groupId, {
      encryptedPii: underK1.encrypt('{"email":"old@example.com"}'),
    });
    const endpoint = await t.endpoint(enterpriseId, groupId, {
      secretCiphertext: underK0.encrypt('whsec_old'),
    });
    const mail = await t.email(participants[0], groupId, { status: 'sent' });
    await t.rows(
      `INSERT INTO sandbox_emails (email_message_id, enterprise_id, subject, text_ciphertext)
       VALUES ($1, $2, 'Subject', $3)`,
      [mail, enterpriseId, underK1.encrypt('Your settings: https://…')],
    );
    // Idempotent answers: one under k0, two under k1, the same key in two enterprises (the
    // primary key is the pair).
    const otherEnterpriseId = await t.enterprise();
    const answer = '{"redirectUrl":"https://checkin.example.com/checkin/live"}';
    for (const [enterprise, key, stored] of [
      [enterpriseId, 'retry-1', underK0.encrypt(answer)],
      [enterpriseId, 'retry-2', underK1.encrypt(answer)],
      [otherEnterpriseId, 'retry-1', underK1.encrypt(answer)],
    ]) {
      await t.rows(
        `INSERT INTO idempotency_keys (enterprise_id, key, request_hash, response_ciphertext)
         VALUES ($1, $2, 'h', $3)`,
        [enterprise, key, stored],
      );
    }

    const cipher = new PiiCipher(root, [k2, k1]);
    const reencryption = new Reencryption(t.db, new ReencryptionRepository(t.db), cipher);
    const report = await reencryption.run();

    expect(report).toEqual({
      keyId: 'k2',
      reencrypted: {
        'sessions.transcript': 1,
        'sessions.features': 1,
        'sessions.word_counts': 1,
        'participants.email_ciphertext': 522,
        'events.encrypted_pii': 1,
        'webhook_endpoints.secret_ciphertext': 1,
        'webhook_endpoints.previous_secret_ciphertext': 0,
        'sandbox_emails.text_ciphertext': 1,
        'idempotency_keys.response_ciphertext': 3,
      },
      unreadable: {
        'sessions.transcript': 0,
        'sessions.features': 0,
        'sessions.word_counts': 0,
        'participants.email_ciphertext': 1,
        'events.encrypted_pii': 0,
        'webhook_endpoints.secret_ciphertext': 0,
        'webhook_endpoints.previous_secret_ciphertext': 0,
        'sandbox_emails.text_ciphertext': 0,
        'idempotency_keys.response_ciphertext': 0,
      },
      keyIds: {
        'sessions.transcript': { k2: 1 },
        'sessions.features': { k2: 1 },
        'sessions.word_counts': { k2: 1 },
        'participants.email_ciphertext': { k2: 522, k9: 1 },
        'events.encrypted_pii': { k2: 1 },
        'webhook_endpoints.secret_ciphertext': { k2: 1 },
        'webhook_endpoints.previous_secret_ciphertext': {},
        'sandbox_emails.text_ciphertext': { k2: 1 },
        'idempotency_keys.response_ciphertext': { k2: 3 },
      },
    });
    // Readable with k2 alone (and the root key), as before.
    const onlyK2 = new PiiCipher(root, [k2]);
    const email = async (id: string) =>
      (
        await t.one<{ c: string }>('SELECT email_ciphertext AS c FROM participants WHERE id = $1', [
          id,
        ])
      ).c;
    expect(onlyK2.decrypt(await email(participants[0]))).toBe('old@example.com');
    expect(onlyK2.decrypt(await email(participants[1]))).toBe('k1@example.com');
    expect(onlyK2.decrypt(await email(participants[522]))).toBe('p519@example.com');
    expect(await email(participants[2])).toBe(emails[2]);
    const transcript = await t.one<{ c: string }>(
      'SELECT transcript AS c FROM sessions WHERE session_id = $1',
      [session],
    );
    expect(JSON.parse(onlyK2.decrypt(transcript.c))).toEqual([{ role: 'user', content: 'hi' }]);
    const details = await t.one<{ features: string; words: string }>(
      'SELECT features, word_counts AS words FROM sessions WHERE session_id = $1',
      [session],
    );
    expect(JSON.parse(onlyK2.decrypt(details.features))).toEqual({ pitch: 0.8 });
    expect(JSON.parse(onlyK2.decrypt(details.words))).toEqual({ hi: 1 });
    const pii = await t.one<{ c: string }>('SELECT encrypted_pii AS c FROM events WHERE id = $1', [
      event,
    ]);
    expect(onlyK2.decrypt(pii.c)).toBe('{"email":"old@example.com"}');
    const secret = await t.one<{ c: string }>(
      'SELECT secret_ciphertext AS c FROM webhook_endpoints WHERE id = $1',
      [endpoint],
    );
    expect(onlyK2.decrypt(secret.c)).toBe('whsec_old');
    const text = await t.one<{ c: string }>(
      'SELECT text_ciphertext AS c FROM sandbox_emails WHERE email_message_id = $1',
      [mail],
    );
    expect(onlyK2.decrypt(text.c)).toBe('Your settings: https://…');
    const answers = await t.rows<{ c: string }>(
      'SELECT response_ciphertext AS c FROM idempotency_keys ORDER BY enterprise_id, key',
    );
    expect(answers.map((row) => onlyK2.decrypt(row.c))).toEqual([answer, answer, answer]);

    // Nothing left to do: a second run rewrites nothing.
    const again = await reencryption.run();
    expect(Object.values(again.reencrypted)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });
});
