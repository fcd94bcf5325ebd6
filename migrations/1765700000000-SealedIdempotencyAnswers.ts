import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An idempotency record's stored answer holds a live check-in link (`redirectUrl`): it is kept
 * encrypted with the data keys (docs/data-at-rest.md). `response` (json) becomes
 * `response_ciphertext` (text, null while the first request runs); the records already there
 * keep their JSON text, which the service still reads and `data:reencrypt` encrypts (this
 * migration has no key), and which retention deletes within 24 h anyway. Erasure finds a
 * participant's records by `external_id`, no longer inside the answer.
 */
export class SealedIdempotencyAnswers1765700000000 implements MigrationInterface {
  name = 'SealedIdempotencyAnswers1765700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE idempotency_keys
         ADD COLUMN external_id text,
         ALTER COLUMN response DROP NOT NULL,
         ALTER COLUMN response TYPE text USING response::text`,
    );
    await queryRunner.query(
      `UPDATE idempotency_keys
          SET external_id = (response::json)->>'userIdentifier',
              response = CASE WHEN response = 'null' THEN NULL ELSE response END`,
    );
    await queryRunner.query(
      `ALTER TABLE idempotency_keys RENAME COLUMN response TO response_ciphertext`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Sealed answers cannot be turned back into JSON without the key: they are dropped (a retry
    // with their key then runs afresh), as retention would within 24 h.
    await queryRunner.query(
      `DELETE FROM idempotency_keys
        WHERE response_ciphertext IS NOT NULL
          AND left(response_ciphertext, 1) NOT IN ('{', '[')`,
    );
    await queryRunner.query(
      `ALTER TABLE idempotency_keys RENAME COLUMN response_ciphertext TO response`,
    );
    await queryRunner.query(
      `ALTER TABLE idempotency_keys
         ALTER COLUMN response TYPE json USING coalesce(response, 'null')::json,
         ALTER COLUMN response SET NOT NULL,
         DROP COLUMN external_id`,
    );
  }
}
