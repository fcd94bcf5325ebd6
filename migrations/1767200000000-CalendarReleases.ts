import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Group metrics, third version (docs/metrics.md): calendar release windows and a yearly budget
 * per participant.
 * - enterprises: the window (`month` or ISO `week`), the yearly budget ε_year and `max_margin`
 *   (the widest 95 % margin of `avgMhci` an answer may have before it is withheld);
 * - metric_windows: an enterprise's release windows, each released once, for every group at once;
 * - metric_releases: per window, group and series, what was released (or that it held too few);
 * - metric_release_words: the words a release let through;
 * - metric_budget_spend: the accountant's ledger, what each participant spent per window.
 * Expand only: the second version's cells stay (a released cell is never re-drawn) and sessions
 * still pending in cohort_pending go into their calendar windows.
 */
export class CalendarReleases1767200000000 implements MigrationInterface {
  name = 'CalendarReleases1767200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`SET LOCAL lock_timeout = '5s'`);
    for (const statement of [
      `ALTER TABLE enterprises
         ADD COLUMN metrics_window text NOT NULL DEFAULT 'month',
         ADD COLUMN epsilon_year numeric(5,2) NOT NULL DEFAULT '24',
         ADD COLUMN max_margin numeric(5,2) NOT NULL DEFAULT '10'`,
      `ALTER TABLE enterprises ADD CONSTRAINT enterprises_metrics_window_values
         CHECK ((metrics_window = ANY (ARRAY['month'::text, 'week'::text])))`,
      `ALTER TABLE enterprises ADD CONSTRAINT enterprises_epsilon_year_range
         CHECK (((epsilon_year >= (1)::numeric) AND (epsilon_year <= (100)::numeric)))`,
      `ALTER TABLE enterprises ADD CONSTRAINT enterprises_max_margin_range
         CHECK (((max_margin >= (1)::numeric) AND (max_margin <= (100)::numeric)))`,
      `CREATE TABLE metric_windows (
         id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
         enterprise_id uuid NOT NULL,
         kind text NOT NULL,
         first_day date NOT NULL,
         last_day date NOT NULL,
         epsilon_year numeric(5,2) NOT NULL,
         released_at timestamptz,
         CONSTRAINT metric_windows_pkey PRIMARY KEY (id),
         CONSTRAINT metric_windows_enterprise_fkey FOREIGN KEY (enterprise_id)
           REFERENCES enterprises (id) ON DELETE CASCADE,
         CONSTRAINT metric_windows_kind_values
           CHECK ((kind = ANY (ARRAY['month'::text, 'week'::text]))),
         CONSTRAINT metric_windows_days CHECK ((first_day <= last_day)))`,
      `CREATE UNIQUE INDEX metric_windows_enterprise_first_day_key
         ON metric_windows (enterprise_id, first_day)`,
      `CREATE TABLE metric_releases (
         id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
         window_id bigint NOT NULL,
         group_id bigint NOT NULL,
         series text NOT NULL,
         participants integer NOT NULL,
         released boolean NOT NULL,
         left_out integer NOT NULL DEFAULT 0,
         late_results integer NOT NULL DEFAULT 0,
         rho double precision,
         noisy_sum bigint,
         noisy_bins integer[],
         sum_noise_variance double precision,
         bin_noise_variance double precision,
         word_threshold integer,
         CONSTRAINT metric_releases_pkey PRIMARY KEY (id),
         CONSTRAINT metric_releases_window_fkey FOREIGN KEY (window_id)
           REFERENCES metric_windows (id) ON DELETE CASCADE,
         CONSTRAINT metric_releases_group_fkey FOREIGN KEY (group_id)
           REFERENCES groups (group_id) ON DELETE CASCADE,
         CONSTRAINT metric_releases_series_values
           CHECK ((series = ANY (ARRAY['scores'::text, 'words'::text]))))`,
      `CREATE UNIQUE INDEX metric_releases_group_series_window_key
         ON metric_releases (group_id, series, window_id)`,
      // A window's releases (its deletion with the enterprise).
      'CREATE INDEX metric_releases_window_idx ON metric_releases (window_id)',
      `CREATE TABLE metric_release_words (
         release_id bigint NOT NULL,
         word text NOT NULL,
         count integer NOT NULL,
         CONSTRAINT metric_release_words_pkey PRIMARY KEY (release_id, word),
         CONSTRAINT metric_release_words_release_fkey FOREIGN KEY (release_id)
           REFERENCES metric_releases (id) ON DELETE CASCADE,
         CONSTRAINT metric_release_words_count CHECK ((count >= 1)))`,
      `CREATE TABLE metric_budget_spend (
         participant_id uuid NOT NULL,
         window_id bigint NOT NULL,
         last_day date NOT NULL,
         rho double precision NOT NULL,
         CONSTRAINT metric_budget_spend_pkey PRIMARY KEY (participant_id, window_id),
         CONSTRAINT metric_budget_spend_participant_fkey FOREIGN KEY (participant_id)
           REFERENCES participants (id) ON DELETE CASCADE,
         CONSTRAINT metric_budget_spend_window_fkey FOREIGN KEY (window_id)
           REFERENCES metric_windows (id) ON DELETE CASCADE)`,
      // The accountant reads a participant's spend within a year either side of a window.
      `CREATE INDEX metric_budget_spend_participant_day_idx
         ON metric_budget_spend (participant_id, last_day) INCLUDE (rho)`,
      'CREATE INDEX metric_budget_spend_window_idx ON metric_budget_spend (window_id)',
    ]) {
      await queryRunner.query(statement);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`SET LOCAL lock_timeout = '5s'`);
    for (const statement of [
      'DROP TABLE metric_budget_spend',
      'DROP TABLE metric_release_words',
      'DROP TABLE metric_releases',
      'DROP TABLE metric_windows',
      `ALTER TABLE enterprises DROP CONSTRAINT enterprises_max_margin_range,
         DROP CONSTRAINT enterprises_epsilon_year_range,
         DROP CONSTRAINT enterprises_metrics_window_values,
         DROP COLUMN max_margin, DROP COLUMN epsilon_year, DROP COLUMN metrics_window`,
    ]) {
      await queryRunner.query(statement);
    }
  }
}
