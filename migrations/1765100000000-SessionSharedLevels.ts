import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A check-in's own privacy level (docs/privacy.md): what the API shows of a session is the lower
 * of its own level and the member's level now, so a raise never reaches a past check-in by itself.
 * Existing sessions get the member's current level: what they showed before, they show now.
 */
export class SessionSharedLevels1765100000000 implements MigrationInterface {
  name = 'SessionSharedLevels1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE sessions ADD COLUMN shared_level smallint,
         ADD CONSTRAINT sessions_shared_level_range
           CHECK (((shared_level >= 0) AND (shared_level <= 5)))`,
    );
    await queryRunner.query(
      `UPDATE sessions s SET shared_level = m.privacy_level
         FROM memberships m WHERE m.participant_id = s.participant_id AND m.group_id = s.group_id`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE sessions DROP CONSTRAINT sessions_shared_level_range, DROP COLUMN shared_level',
    );
  }
}
