import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Declared programmes (docs/compliance.md):
 * - enterprises: the programme, all five columns or none (jurisdiction, purpose, basis, contact,
 *   when declared); none, for every enterprise this migration finds: they behave as before;
 * - programme_declarations: the ledger of every change (who, when, from what, to what);
 * - sessions.biometric: whether the engine was allowed to infer from voice and face, fixed at the
 *   hand-off; null for sessions handed off before.
 * Expand only: nothing existing changes meaning.
 */
export class DeclaredProgrammes1767300000000 implements MigrationInterface {
  name = 'DeclaredProgrammes1767300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`SET LOCAL lock_timeout = '5s'`);
    for (const statement of [
      `CREATE TABLE programme_declarations (
         id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
         enterprise_id uuid NOT NULL,
         declared_at timestamptz NOT NULL,
         declared_by text NOT NULL,
         previous jsonb,
         declaration jsonb NOT NULL,
         CONSTRAINT programme_declarations_pkey PRIMARY KEY (id),
         CONSTRAINT programme_declarations_enterprise_fkey FOREIGN KEY (enterprise_id)
           REFERENCES enterprises (id) ON DELETE CASCADE ON UPDATE NO ACTION
       )`,
      `CREATE INDEX programme_declarations_enterprise_idx
         ON programme_declarations (enterprise_id, declared_at)`,
      `ALTER TABLE enterprises
         ADD COLUMN programme_jurisdiction text,
         ADD COLUMN programme_purpose text,
         ADD COLUMN programme_basis text,
         ADD COLUMN programme_contact text,
         ADD COLUMN programme_declared_at timestamptz`,
      `ALTER TABLE enterprises ADD CONSTRAINT enterprises_programme_jurisdiction_values
         CHECK ((programme_jurisdiction = ANY (ARRAY['eu'::text, 'other'::text])))`,
      `ALTER TABLE enterprises ADD CONSTRAINT enterprises_programme_purpose_values
         CHECK ((programme_purpose = ANY (ARRAY['wellbeing'::text, 'medical'::text, 'safety'::text])))`,
      `ALTER TABLE enterprises ADD CONSTRAINT enterprises_programme_whole
         CHECK ((((programme_jurisdiction IS NULL) AND (programme_purpose IS NULL)
           AND (programme_basis IS NULL) AND (programme_contact IS NULL)
           AND (programme_declared_at IS NULL))
           OR ((programme_jurisdiction IS NOT NULL) AND (programme_purpose IS NOT NULL)
           AND (programme_basis IS NOT NULL) AND (programme_contact IS NOT NULL)
           AND (programme_declared_at IS NOT NULL))))`,
      `ALTER TABLE sessions ADD COLUMN biometric boolean`,
    ]) {
      await queryRunner.query(statement);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of [
      `ALTER TABLE sessions DROP COLUMN biometric`,
      `ALTER TABLE enterprises
         DROP CONSTRAINT enterprises_programme_whole,
         DROP CONSTRAINT enterprises_programme_purpose_values,
         DROP CONSTRAINT enterprises_programme_jurisdiction_values,
         DROP COLUMN programme_declared_at,
         DROP COLUMN programme_contact,
         DROP COLUMN programme_basis,
         DROP COLUMN programme_purpose,
         DROP COLUMN programme_jurisdiction`,
      `DROP TABLE programme_declarations`,
    ]) {
      await queryRunner.query(statement);
    }
  }
}
