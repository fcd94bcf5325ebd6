import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Consent-ledger rows name the check-in whose page made the change (docs/privacy.md); rows from
 * before say nothing (null).
 */
export class LedgerSessions1765400000000 implements MigrationInterface {
  name = 'LedgerSessions1765400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE consent_ledger ADD COLUMN session_id text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE consent_ledger DROP COLUMN session_id');
  }
}
