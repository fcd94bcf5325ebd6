import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The browser rule's last doors (docs/privacy.md, "A check-in's own level"; docs/checkin-flow.md,
 * "Hand-off"):
 * - sessions: the hand-off token (its SHA-256) the engine's address carries, when the browser
 *   that handed off confirmed it, whether the check-in needs consent (fixed at creation and again
 *   at the hand-off), and whether its level is pinned at 0 (a result no confirmed hand-off led to);
 * - browsers: the device a browser identity was minted for (the SHA-256 of the device cookie):
 *   an identity presented by another device is an unknown browser;
 * - membership_browser_levels: the level each browser last chose itself, lowered by every
 *   lowering since: what "Go back" returns to in that browser.
 */
export class HandoffConfirmation1767060000000 implements MigrationInterface {
  name = 'HandoffConfirmation1767060000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of [
      'ALTER TABLE sessions ADD COLUMN handoff_token_hash text',
      'ALTER TABLE sessions ADD COLUMN handoff_confirmed_at timestamptz',
      'ALTER TABLE sessions ADD COLUMN consent_required boolean NOT NULL DEFAULT false',
      'ALTER TABLE sessions ADD COLUMN level_pinned boolean NOT NULL DEFAULT false',
      // Sessions created before: they need consent where their group asks for it now.
      `UPDATE sessions s SET consent_required = g.consent_required
         FROM groups g WHERE g.group_id = s.group_id AND g.consent_required`,
      `CREATE UNIQUE INDEX sessions_handoff_token_idx ON sessions (handoff_token_hash)
         WHERE (handoff_token_hash IS NOT NULL)`,
      'ALTER TABLE browsers ADD COLUMN device_hash text',
      'CREATE INDEX browsers_device_idx ON browsers (device_hash) WHERE (device_hash IS NOT NULL)',
      `CREATE TABLE membership_browser_levels (
         participant_id uuid NOT NULL,
         group_id bigint NOT NULL,
         browser_hash text NOT NULL,
         own_level smallint NOT NULL,
         chosen_at timestamptz NOT NULL DEFAULT now(),
         CONSTRAINT membership_browser_levels_pkey
           PRIMARY KEY (participant_id, group_id, browser_hash),
         CONSTRAINT membership_browser_levels_membership_fkey FOREIGN KEY (participant_id, group_id)
           REFERENCES memberships (participant_id, group_id) ON DELETE CASCADE,
         CONSTRAINT membership_browser_levels_level_range
           CHECK (((own_level >= 0) AND (own_level <= 5))))`,
      'CREATE INDEX membership_browser_levels_browser_idx ON membership_browser_levels (browser_hash)',
    ]) {
      await queryRunner.query(statement);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of [
      'DROP TABLE membership_browser_levels',
      'DROP INDEX browsers_device_idx',
      'ALTER TABLE browsers DROP COLUMN device_hash',
      'DROP INDEX sessions_handoff_token_idx',
      'ALTER TABLE sessions DROP COLUMN level_pinned',
      'ALTER TABLE sessions DROP COLUMN consent_required',
      'ALTER TABLE sessions DROP COLUMN handoff_confirmed_at',
      'ALTER TABLE sessions DROP COLUMN handoff_token_hash',
    ]) {
      await queryRunner.query(statement);
    }
  }
}
