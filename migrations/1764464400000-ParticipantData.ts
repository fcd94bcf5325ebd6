import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Participants own their data (docs/privacy.md): the consent ledger (every consent, privacy-level and
 * email-preference change, appended), the privacy-level notice mail (`privacyNotice`, with the
 * levels it names in `details`), and the browser each participant link is bound to.
 */
export class ParticipantData1764464400000 implements MigrationInterface {
  name = 'ParticipantData1764464400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE consent_ledger (
         id bigint GENERATED ALWAYS AS IDENTITY,
         enterprise_id uuid NOT NULL,
         participant_id uuid,
         group_id bigint,
         change text NOT NULL,
         from_value jsonb,
         to_value jsonb,
         via text NOT NULL,
         at timestamptz NOT NULL DEFAULT now(),
         CONSTRAINT consent_ledger_change_values CHECK ((change = ANY (ARRAY['consent'::text,
           'privacyLevel'::text, 'checkinReminder'::text, 'privacyRequest'::text,
           'erasure'::text]))),
         CONSTRAINT consent_ledger_via_values CHECK ((via = ANY (ARRAY['checkin'::text,
           'settings'::text, 'unsubscribe'::text, 'erasure'::text]))),
         CONSTRAINT consent_ledger_pkey PRIMARY KEY (id),
         CONSTRAINT consent_ledger_enterprise_fkey FOREIGN KEY (enterprise_id)
           REFERENCES enterprises (id) ON DELETE CASCADE ON UPDATE NO ACTION,
         CONSTRAINT consent_ledger_participant_fkey FOREIGN KEY (participant_id)
           REFERENCES participants (id) ON DELETE CASCADE ON UPDATE NO ACTION,
         CONSTRAINT consent_ledger_group_fkey FOREIGN KEY (group_id)
           REFERENCES groups (group_id) ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      'CREATE INDEX consent_ledger_participant_idx ON consent_ledger (participant_id, id)',
    );
    await queryRunner.query(
      `CREATE TABLE link_bindings (
         link text NOT NULL,
         browser_hash text NOT NULL,
         participant_id uuid NOT NULL,
         bound_at timestamptz NOT NULL DEFAULT now(),
         CONSTRAINT link_bindings_pkey PRIMARY KEY (link),
         CONSTRAINT link_bindings_participant_fkey FOREIGN KEY (participant_id)
           REFERENCES participants (id) ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `ALTER TABLE email_messages
         ADD COLUMN details jsonb,
         DROP CONSTRAINT email_messages_type_values,
         ADD CONSTRAINT email_messages_type_values CHECK ((type = ANY (ARRAY[
           'checkinReminder'::text, 'privacyRequest'::text, 'privacyNotice'::text])))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM email_messages WHERE type = 'privacyNotice'");
    await queryRunner.query(
      `ALTER TABLE email_messages
         DROP CONSTRAINT email_messages_type_values,
         ADD CONSTRAINT email_messages_type_values CHECK ((type = ANY (ARRAY[
           'checkinReminder'::text, 'privacyRequest'::text]))),
         DROP COLUMN details`,
    );
    await queryRunner.query('DROP TABLE link_bindings');
    await queryRunner.query('DROP TABLE consent_ledger');
  }
}
