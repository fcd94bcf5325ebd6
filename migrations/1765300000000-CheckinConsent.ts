import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Consent per check-in (docs/privacy.md): recorded on the session, given on its own page. The
 * sessions of members who had consented keep that consent.
 */
export class CheckinConsent1765300000000 implements MigrationInterface {
  name = 'CheckinConsent1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE sessions ADD COLUMN consented_at timestamptz');
    await queryRunner.query(
      `UPDATE sessions s SET consented_at = m.consented_at
         FROM memberships m
        WHERE m.participant_id = s.participant_id AND m.group_id = s.group_id
          AND m.consented_at IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE sessions DROP COLUMN consented_at');
  }
}
