import { MigrationInterface, QueryRunner } from 'typeorm';

/** Every email the service sends or skips: its status, attempts and last error. */
export class Emails1764032400000 implements MigrationInterface {
  name = 'Emails1764032400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE email_messages (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        enterprise_id uuid NOT NULL,
        participant_id uuid NOT NULL,
        group_id bigint NOT NULL,
        type text NOT NULL,
        status text NOT NULL DEFAULT 'queued',
        attempts integer NOT NULL DEFAULT 0,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz,
        CONSTRAINT email_messages_pkey PRIMARY KEY (id),
        CONSTRAINT email_messages_enterprise_fkey FOREIGN KEY (enterprise_id)
          REFERENCES enterprises (id) ON DELETE CASCADE,
        CONSTRAINT email_messages_participant_fkey FOREIGN KEY (participant_id)
          REFERENCES participants (id) ON DELETE CASCADE,
        CONSTRAINT email_messages_group_fkey FOREIGN KEY (group_id)
          REFERENCES groups (group_id) ON DELETE CASCADE,
        CONSTRAINT email_messages_type_values CHECK (type IN ('checkinReminder', 'privacyRequest')),
        CONSTRAINT email_messages_status_values CHECK (status IN ('queued', 'sent', 'failed', 'skipped'))
      )`);
    // The de-duplication window: this participant's recent mails of a type.
    await queryRunner.query(
      `CREATE INDEX email_messages_participant_type_idx ON email_messages (participant_id, type, created_at)`,
    );
    // The requeue scan: mails still waiting.
    await queryRunner.query(
      `CREATE INDEX email_messages_queued_idx ON email_messages (created_at) WHERE status = 'queued'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE email_messages');
  }
}
