/**
 * The migration that seals idempotent answers (docs/data-at-rest.md), on records from before it:
 * answers keep their JSON text (readable, then encrypted by re-encryption), the participant they
 * name moves to `external_id` for erasure, a claim still running stays without an answer; and
 * back down, what cannot be opened without the key is dropped.
 */
import { randomBytes } from 'node:crypto';
import type { QueryRunner } from 'typeorm';
import { SealedIdempotencyAnswers1765700000000 } from '../../migrations/1765700000000-SealedIdempotencyAnswers';
import { PiiCipher } from '../../src/common/crypto/pii-cipher';
import { Reencryption } from '../../src/data-at-rest/reencryption';
import { ReencryptionRepository } from '../../src/data-at-rest/reencryption.repository';
import { openJson } from '../../src/sessions/transcript-codec';
import { TestDatabase } from './support';

describe('migration: sealed idempotent answers', () => {
  let t: TestDatabase;
  const migration = new SealedIdempotencyAnswers1765700000000();
  const runner = () => ({ query: (sql: string) => t.pool.query(sql) }) as unknown as QueryRunner;

  beforeAll(async () => {
    t = await TestDatabase.create();
  });
  afterAll(() => t.close());

  it('keeps earlier answers readable, names their participant, and re-encryption seals them', async () => {
    await migration.down(runner());
    const enterprise = await t.enterprise();
    const answer = `{"success":true,"userIdentifier":"ok_${'ab'.repeat(24)}","redirectUrl":"https://checkin.example.com/checkin/live"}`;
    await t.rows(
      `INSERT INTO idempotency_keys (enterprise_id, key, request_hash, response)
       VALUES ($1, 'done', 'h', $2::json), ($1, 'running', 'h', 'null'::json)`,
      [enterprise, answer],
    );

    await migration.up(runner());

    const rows = await t.rows<{ key: string; stored: string | null; externalId: string | null }>(
      `SELECT key, response_ciphertext AS stored, external_id AS "externalId"
         FROM idempotency_keys ORDER BY key`,
    );
    expect(rows).toEqual([
      { key: 'done', stored: answer, externalId: `ok_${'ab'.repeat(24)}` },
      { key: 'running', stored: null, externalId: null },
    ]);
    const cipher = new PiiCipher(randomBytes(32));
    expect(JSON.stringify(openJson(cipher, rows[0].stored as string))).toBe(answer);

    const report = await new Reencryption(t.db, new ReencryptionRepository(t.db), cipher).run();
    expect(report.reencrypted['idempotency_keys.response_ciphertext']).toBe(1);
    const [sealed] = await t.rows<{ stored: string }>(
      `SELECT response_ciphertext AS stored FROM idempotency_keys WHERE key = 'done'`,
    );
    expect(sealed.stored).not.toContain('checkin');
    expect(cipher.decrypt(sealed.stored)).toBe(answer);

    // Down: a sealed answer cannot be turned back into JSON without the key, so it goes.
    await migration.down(runner());
    expect(await t.rows(`SELECT key, response::text AS response FROM idempotency_keys`)).toEqual([
      { key: 'running', response: 'null' },
    ]);
    await migration.up(runner());
  });
});
