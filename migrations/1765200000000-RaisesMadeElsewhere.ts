import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A raise of a member's level is recorded with the browser whose page made it (docs/privacy.md):
 * a check-in done in another browser asks "keep it or go back" before its hand-off. Raises made
 * before this rule are not asked about.
 */
export class RaisesMadeElsewhere1765200000000 implements MigrationInterface {
  name = 'RaisesMadeElsewhere1765200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE memberships ADD COLUMN raised_in text, ADD COLUMN level_before_raise smallint`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE memberships DROP COLUMN raised_in, DROP COLUMN level_before_raise',
    );
  }
}
