import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stored SMTP error texts → `smtp <status code>` when they carry one, else `error` (our own
 * `preference turned off`, and texts already codes, are kept).
 */
export const EMAIL_ERROR_CODES = `UPDATE email_messages
    SET error = coalesce('smtp ' || substring(error from '\\m([245][0-9][0-9])\\M'), 'error')
  WHERE error IS NOT NULL
    AND error <> 'preference turned off'
    AND error !~ '^(smtp [0-9]{3}|E[A-Z]+|error)$'`;

/**
 * Data at rest (docs/data-at-rest.md):
 * - `sessions.transcript` becomes `text`, to hold the transcript encrypted with the data keys.
 *   A migration has no key, so existing transcripts become their JSON text, and the workers'
 *   start-up pass (TranscriptEncryptionPass) encrypts them in batches; until then they are read
 *   as they are (a stored value starting with `[` is plaintext).
 * - the encryption pass's work list (plaintext transcripts) and the retention sweeps' ones: completed sessions holding a transcript (by completion
 *   time), events holding personal data, idempotency records (by age).
 * - email logs keep a code, never the SMTP server's text (it quotes addresses): stored texts
 *   become `smtp <status code>` when they carry one, else `error`. Not reversible.
 */
export class DataAtRest1764550800000 implements MigrationInterface {
  name = 'DataAtRest1764550800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE sessions ALTER COLUMN transcript TYPE text USING transcript::text`,
    );
    await queryRunner.query(
      `CREATE INDEX sessions_transcript_retention_idx ON sessions (completed_at)
        WHERE transcript IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX sessions_plaintext_transcript_idx ON sessions (session_id)
        WHERE transcript LIKE '[%'`,
    );
    await queryRunner.query(
      `CREATE INDEX events_pii_held_idx ON events (created_at) WHERE encrypted_pii IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)`,
    );
    await queryRunner.query(EMAIL_ERROR_CODES);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX idempotency_keys_created_idx`);
    await queryRunner.query(`DROP INDEX events_pii_held_idx`);
    await queryRunner.query(`DROP INDEX sessions_plaintext_transcript_idx`);
    await queryRunner.query(`DROP INDEX sessions_transcript_retention_idx`);
    // Encrypted transcripts cannot be read back without the keys: they are dropped.
    await queryRunner.query(
      `ALTER TABLE sessions ALTER COLUMN transcript TYPE jsonb
        USING CASE WHEN transcript LIKE '[%' THEN transcript::jsonb END`,
    );
  }
}
