import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Group metrics as differentially private releases of sealed cells (docs/metrics.md,
 * "Differentially private releases"), and group comparisons from level-5 sessions only
 * (docs/checkin-flow.md):
 *
 * - each enterprise gets `epsilon` (default 1, 0.1–10);
 * - a cell stores its release (exact count of participants, ε, noisy sum, noisy bins); the exact
 *   MHCI histograms (`cohort_cell_scores`), the exact running totals and the exact word counts go;
 * - cells sealed before are released with noise by the application, which holds the randomness
 *   and the keys to the word counts: their sessions are found again by day (a session belongs to
 *   the first cell of its group and series that ends on or after its completion day; a result
 *   that came late into an already sealed day may so land one cell earlier than it did) and wait
 *   in `cohort_pending` with the cell's id; every check goes stale so the next sweep or read
 *   releases them, oldest first;
 * - `cohort_checks.stale`: a result for a day already looked at, or a new floor or ε, has the run
 *   looked at again at the next sweep or read;
 * - the feature histograms of group percentiles held every session's values: emptied, and
 *   `sessions.features_shared` says which sessions they count; the workers' reconciliation adds
 *   back the sessions shown at level 5 (it needs the data keys to open their features).
 */
export class PrivateReleases1766000000000 implements MigrationInterface {
  name = 'PrivateReleases1766000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE enterprises
         ADD COLUMN epsilon numeric(4,2) NOT NULL DEFAULT '1',
         ADD CONSTRAINT enterprises_epsilon_range
           CHECK (((epsilon >= 0.1) AND (epsilon <= (10)::numeric)))`,
    );
    await queryRunner.query(
      `ALTER TABLE cohort_cells
         ADD COLUMN participants integer,
         ADD COLUMN epsilon numeric(4,2),
         ADD COLUMN noisy_sum bigint,
         ADD COLUMN noisy_bins integer array,
         ADD COLUMN bin_noise_variance double precision`,
    );
    await queryRunner.query(
      `ALTER TABLE cohort_pending
         ADD COLUMN cell_id bigint,
         ADD CONSTRAINT cohort_pending_cell_fkey FOREIGN KEY (cell_id)
           REFERENCES cohort_cells (id) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `INSERT INTO cohort_pending (session_id, series, group_id, cell_id)
       SELECT s.session_id, series.name, s.group_id, cell.id
         FROM sessions s
        CROSS JOIN (VALUES ('scores'), ('words')) AS series(name)
        CROSS JOIN LATERAL (
              SELECT c.id FROM cohort_cells c
               WHERE c.group_id = s.group_id AND c.series = series.name
                 AND c.last_day >= (s.completed_at AT TIME ZONE 'UTC')::date
               ORDER BY c.last_day LIMIT 1) cell
        WHERE s.completed_at IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM cohort_pending p
                           WHERE p.session_id = s.session_id AND p.series = series.name)`,
    );
    await queryRunner.query('DROP TABLE cohort_cell_scores');
    await queryRunner.query('DROP TABLE cohort_score_prefixes');
    await queryRunner.query(
      `CREATE TABLE cohort_score_prefixes (
         cell_id bigint NOT NULL,
         group_id bigint NOT NULL,
         last_day date NOT NULL,
         cells integer NOT NULL,
         participants bigint NOT NULL,
         noisy_sum bigint NOT NULL,
         noisy_bins integer array NOT NULL,
         bin_noise_variance double precision NOT NULL,
         CONSTRAINT cohort_score_prefixes_pkey PRIMARY KEY (cell_id),
         CONSTRAINT cohort_score_prefixes_cell_fkey FOREIGN KEY (cell_id)
           REFERENCES cohort_cells (id) ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX cohort_score_prefixes_group_day_key
         ON cohort_score_prefixes (group_id, last_day)`,
    );
    await queryRunner.query('DELETE FROM cohort_cell_words');
    await queryRunner.query('DELETE FROM cohort_word_prefixes');
    await queryRunner.query(
      'ALTER TABLE cohort_checks ADD COLUMN stale boolean NOT NULL DEFAULT false',
    );
    await queryRunner.query('UPDATE cohort_checks SET stale = true');
    await queryRunner.query(
      'ALTER TABLE sessions ADD COLUMN features_shared boolean NOT NULL DEFAULT false',
    );
    await queryRunner.query(
      `CREATE INDEX sessions_features_to_share_idx ON sessions (group_id)
        WHERE ((shared_level = 5) AND (NOT features_shared) AND (features IS NOT NULL))`,
    );
    await queryRunner.query(
      `CREATE INDEX sessions_features_to_unshare_idx ON sessions (group_id)
        WHERE (features_shared AND (shared_level < 5))`,
    );
    await queryRunner.query('DELETE FROM group_feature_histograms');
    await queryRunner.query('DELETE FROM group_feature_values');
  }

  /**
   * Back to exact cells: the releases cannot be undone into exact aggregates, so every cell goes
   * and every completed session is pending again (the earlier code seals the history anew); the
   * feature histograms are left empty (the earlier code fills them at ingestion only).
   */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX sessions_features_to_unshare_idx');
    await queryRunner.query('DROP INDEX sessions_features_to_share_idx');
    await queryRunner.query('ALTER TABLE sessions DROP COLUMN features_shared');
    await queryRunner.query('ALTER TABLE cohort_checks DROP COLUMN stale');
    await queryRunner.query('DELETE FROM cohort_checks');
    await queryRunner.query('DELETE FROM cohort_word_prefixes');
    await queryRunner.query('DROP TABLE cohort_score_prefixes');
    await queryRunner.query('DELETE FROM cohort_pending');
    await queryRunner.query('ALTER TABLE cohort_pending DROP COLUMN cell_id');
    await queryRunner.query('DELETE FROM cohort_cells');
    await queryRunner.query(
      `ALTER TABLE cohort_cells
         DROP COLUMN participants, DROP COLUMN epsilon, DROP COLUMN noisy_sum,
         DROP COLUMN noisy_bins, DROP COLUMN bin_noise_variance`,
    );
    await queryRunner.query(
      `CREATE TABLE cohort_cell_scores (
         cell_id bigint NOT NULL,
         mhci double precision NOT NULL,
         count integer NOT NULL,
         group_id bigint NOT NULL,
         last_day date NOT NULL,
         bin smallint NOT NULL,
         CONSTRAINT cohort_cell_scores_count CHECK ((count >= 1)),
         CONSTRAINT cohort_cell_scores_pkey PRIMARY KEY (cell_id, mhci),
         CONSTRAINT cohort_cell_scores_cell_fkey FOREIGN KEY (cell_id)
           REFERENCES cohort_cells (id) ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE INDEX cohort_cell_scores_group_bin_idx
         ON cohort_cell_scores (group_id, bin, last_day, mhci, count)`,
    );
    await queryRunner.query(
      `CREATE TABLE cohort_score_prefixes (
         cell_id bigint NOT NULL,
         group_id bigint NOT NULL,
         last_day date NOT NULL,
         sessions bigint NOT NULL,
         sum numeric NOT NULL,
         bins integer array NOT NULL,
         CONSTRAINT cohort_score_prefixes_pkey PRIMARY KEY (cell_id),
         CONSTRAINT cohort_score_prefixes_cell_fkey FOREIGN KEY (cell_id)
           REFERENCES cohort_cells (id) ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX cohort_score_prefixes_group_day_key
         ON cohort_score_prefixes (group_id, last_day)`,
    );
    await queryRunner.query(
      `INSERT INTO cohort_pending (session_id, series, group_id)
       SELECT s.session_id, series.name, s.group_id
         FROM sessions s CROSS JOIN (VALUES ('scores'), ('words')) AS series(name)
        WHERE s.completed_at IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE enterprises DROP CONSTRAINT enterprises_epsilon_range,
         DROP COLUMN epsilon`,
    );
  }
}
