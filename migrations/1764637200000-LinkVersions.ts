import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Revocable links (docs/security.md): each membership has a link version, carried by its settings and
 * unsubscribe links and bumped by "Sign out my links", consent withdrawal and erasure, which
 * invalidates every earlier link. Links from before carry no version and read as version 0.
 */
export class LinkVersions1764637200000 implements MigrationInterface {
  name = 'LinkVersions1764637200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE memberships ADD COLUMN link_version integer NOT NULL DEFAULT 0`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE memberships DROP COLUMN link_version`);
  }
}
