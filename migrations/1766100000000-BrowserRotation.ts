import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The participant's flow against an enterprise that holds every link (docs/privacy.md):
 *
 * - `membership_raise_answers`: "Keep level N" holds only in the browser that answered it, so
 *   every other browser still asks. A raise pending before this migration is asked about again
 *   in every browser but the one that made it (its earlier "Keep" cleared `raised_in`, so only
 *   raises nobody answered are pending: nothing is lost).
 * - `browsers.replaced_by` / `replaced_at`: every Start gives the browser a new identity, and the
 *   one it replaced stops working (what it held moves to the new one).
 */
export class BrowserRotation1766100000000 implements MigrationInterface {
  name = 'BrowserRotation1766100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE membership_raise_answers (
         participant_id uuid NOT NULL,
         group_id bigint NOT NULL,
         browser_hash text NOT NULL,
         answered_at timestamptz NOT NULL DEFAULT now(),
         CONSTRAINT membership_raise_answers_pkey PRIMARY KEY (participant_id, group_id, browser_hash),
         CONSTRAINT membership_raise_answers_membership_fkey FOREIGN KEY (participant_id, group_id)
           REFERENCES memberships (participant_id, group_id) ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      'CREATE INDEX membership_raise_answers_browser_idx ON membership_raise_answers (browser_hash)',
    );
    await queryRunner.query(
      `ALTER TABLE browsers ADD COLUMN replaced_by text, ADD COLUMN replaced_at timestamptz`,
    );
    await queryRunner.query(
      `CREATE INDEX memberships_raised_in_idx ON memberships (raised_in)
        WHERE (raised_in IS NOT NULL)`,
    );
    await queryRunner.query(
      'CREATE INDEX link_bindings_browser_idx ON link_bindings (browser_hash)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX link_bindings_browser_idx');
    await queryRunner.query('DROP INDEX memberships_raised_in_idx');
    await queryRunner.query(
      'ALTER TABLE browsers DROP COLUMN replaced_at, DROP COLUMN replaced_by',
    );
    await queryRunner.query('DROP TABLE membership_raise_answers');
  }
}
