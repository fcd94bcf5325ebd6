import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `email_messages.send_after`: a mail is not sent before it (null: at once). The notice of a
 * raise made within EMAIL_DEDUP_WINDOW of the previous notice's sending waits for the window's
 * end and collects every raise made meanwhile (docs/emails.md). Expand only: a nullable column
 * without a default, which the previous release neither reads nor writes.
 */
export class NoticeSendAfter1767100000000 implements MigrationInterface {
  name = 'NoticeSendAfter1767100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`SET LOCAL lock_timeout = '5s'`);
    await queryRunner.query('ALTER TABLE email_messages ADD COLUMN send_after timestamptz');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`SET LOCAL lock_timeout = '5s'`);
    await queryRunner.query('ALTER TABLE email_messages DROP COLUMN send_after');
  }
}
