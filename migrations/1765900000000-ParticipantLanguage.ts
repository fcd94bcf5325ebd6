import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The participant's language (docs/i18n.md): chosen on a participant page (`?lang=`, or the
 * browser's remembered choice when none is saved yet), read before the browser's own choices by
 * their pages, and the language of their mails. Null: never chosen (English mails). A BCP 47
 * shaped code; which codes are spoken is the application's list, so adding a language needs no
 * migration (an unknown code reads as English).
 */
export class ParticipantLanguage1765900000000 implements MigrationInterface {
  name = 'ParticipantLanguage1765900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "participants" ADD "language" text`);
    await queryRunner.query(
      `ALTER TABLE "participants" ADD CONSTRAINT "participants_language_format"
         CHECK (language ~ '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8}){0,3}$')`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "participants" DROP CONSTRAINT "participants_language_format"`,
    );
    await queryRunner.query(`ALTER TABLE "participants" DROP COLUMN "language"`);
  }
}
