import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Minted browser identities (docs/privacy.md): the server adopts only a browser cookie it set
 * itself. The browsers already holding links were given their cookie by the server (or adopted it
 * before this rule): they are recorded as minted, so their links keep working.
 */
export class MintedBrowsers1765000000000 implements MigrationInterface {
  name = 'MintedBrowsers1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE browsers (
         hash text NOT NULL,
         minted_at timestamptz NOT NULL DEFAULT now(),
         CONSTRAINT browsers_pkey PRIMARY KEY (hash))`,
    );
    await queryRunner.query(
      `INSERT INTO browsers (hash) SELECT DISTINCT browser_hash FROM link_bindings`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE browsers');
  }
}
