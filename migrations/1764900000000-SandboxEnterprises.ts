import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sandbox enterprises (docs/integrating.md), like a payment API's test mode:
 * - `enterprises.sandbox` marks a tenant whose sessions can be completed without the analysis
 *   engine and whose mails are captured instead of sent;
 * - `sandbox_emails` holds each captured mail as the email worker rendered it: the subject, and
 *   the text encrypted with the data keys (it carries the participant's signed links). A row goes
 *   with its `email_messages` row (erasure of the participant) and with its enterprise; the index
 *   serves `GET /sandbox/emails` (an enterprise's newest first) and the enterprise's cascade.
 */
export class SandboxEnterprises1764900000000 implements MigrationInterface {
  name = 'SandboxEnterprises1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE enterprises ADD COLUMN sandbox boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(`
      CREATE TABLE sandbox_emails (
        email_message_id uuid NOT NULL,
        enterprise_id uuid NOT NULL,
        subject text NOT NULL,
        text_ciphertext text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT sandbox_emails_pkey PRIMARY KEY (email_message_id),
        CONSTRAINT sandbox_emails_email_message_fkey FOREIGN KEY (email_message_id)
          REFERENCES email_messages (id) ON DELETE CASCADE,
        CONSTRAINT sandbox_emails_enterprise_fkey FOREIGN KEY (enterprise_id)
          REFERENCES enterprises (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX sandbox_emails_enterprise_created_idx ON sandbox_emails (enterprise_id, created_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE sandbox_emails`);
    await queryRunner.query(`ALTER TABLE enterprises DROP COLUMN sandbox`);
  }
}
