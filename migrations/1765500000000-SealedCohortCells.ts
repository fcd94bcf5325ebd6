import { MigrationInterface, QueryRunner } from 'typeorm';
import { COHORT_BACKFILL } from './1764378000000-PrivacyFloor';

/**
 * What the stored sessions give the new tables: every completed session is pending in both series
 * (the workers' sealing sweep, or the first group read, seals them into cells: the rule lives in
 * the application, src/metrics/cohorts/), and the per-day counts of group `count`.
 */
export const SEALED_CELLS_BACKFILL = [
  `INSERT INTO cohort_pending (session_id, series, group_id)
   SELECT s.session_id, series.name, s.group_id
     FROM sessions s CROSS JOIN (VALUES ('scores'), ('words')) AS series(name)
    WHERE s.completed_at IS NOT NULL`,
  `INSERT INTO group_day_counts (group_id, day, sessions)
   SELECT group_id, (completed_at AT TIME ZONE 'UTC')::date, count(*)
     FROM sessions
    WHERE completed_at IS NOT NULL
    GROUP BY 1, 2`,
];

/**
 * Group metrics no subtraction can undo (docs/metrics.md, "Sealed cohort cells"): sealed cells of
 * scores (exact MHCI histograms, with the running totals that answer a range from two rows) and
 * of words, the sessions still waiting for a cell, through
 * which day each group was last sealed, per-day session counts for group `count`, and each
 * enterprise's `min_word_speakers` (default 3). The per-day word counts and cohorts of the
 * per-answer floor are dropped: nothing reads them any more, and the word counts kept in clear
 * what a single participant said on a quiet day.
 */
export class SealedCohortCells1765500000000 implements MigrationInterface {
  name = 'SealedCohortCells1765500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE enterprises
         ADD COLUMN min_word_speakers smallint NOT NULL DEFAULT '3',
         ADD CONSTRAINT enterprises_min_word_speakers_range
           CHECK (((min_word_speakers >= 1) AND (min_word_speakers <= 100)))`,
    );
    await queryRunner.query(
      `CREATE TABLE cohort_cells (
         id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
         group_id bigint NOT NULL,
         series text NOT NULL,
         first_day date NOT NULL,
         last_day date NOT NULL,
         sessions integer NOT NULL,
         hidden_participants integer NOT NULL,
         floor smallint NOT NULL,
         sealed_at timestamptz NOT NULL DEFAULT now(),
         CONSTRAINT cohort_cells_series_values
           CHECK ((series = ANY (ARRAY['scores'::text, 'words'::text]))),
         CONSTRAINT cohort_cells_consistency
           CHECK (((first_day <= last_day) AND (sessions >= hidden_participants)
                   AND (hidden_participants >= floor))),
         CONSTRAINT cohort_cells_pkey PRIMARY KEY (id),
         CONSTRAINT cohort_cells_group_fkey FOREIGN KEY (group_id)
           REFERENCES groups (group_id) ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX cohort_cells_group_series_last_day_key
         ON cohort_cells (group_id, series, last_day)`,
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
      `CREATE TABLE cohort_cell_words (
         cell_id bigint NOT NULL,
         word text NOT NULL,
         count bigint NOT NULL,
         CONSTRAINT cohort_cell_words_count CHECK ((count >= 1)),
         CONSTRAINT cohort_cell_words_pkey PRIMARY KEY (cell_id, word),
         CONSTRAINT cohort_cell_words_cell_fkey FOREIGN KEY (cell_id)
           REFERENCES cohort_cells (id) ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE TABLE cohort_word_prefixes (
         group_id bigint NOT NULL,
         last_day date NOT NULL,
         word text NOT NULL,
         count bigint NOT NULL,
         CONSTRAINT cohort_word_prefixes_pkey PRIMARY KEY (group_id, last_day, word),
         CONSTRAINT cohort_word_prefixes_group_fkey FOREIGN KEY (group_id)
           REFERENCES groups (group_id) ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE TABLE cohort_pending (
         session_id text NOT NULL,
         series text NOT NULL,
         group_id bigint NOT NULL,
         CONSTRAINT cohort_pending_series_values
           CHECK ((series = ANY (ARRAY['scores'::text, 'words'::text]))),
         CONSTRAINT cohort_pending_pkey PRIMARY KEY (session_id, series),
         CONSTRAINT cohort_pending_session_fkey FOREIGN KEY (session_id)
           REFERENCES sessions (session_id) ON DELETE CASCADE ON UPDATE NO ACTION,
         CONSTRAINT cohort_pending_group_fkey FOREIGN KEY (group_id)
           REFERENCES groups (group_id) ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      'CREATE INDEX cohort_pending_group_series_idx ON cohort_pending (group_id, series)',
    );
    await queryRunner.query(
      `CREATE TABLE cohort_checks (
         group_id bigint NOT NULL,
         series text NOT NULL,
         checked_through date NOT NULL,
         CONSTRAINT cohort_checks_pkey PRIMARY KEY (group_id, series),
         CONSTRAINT cohort_checks_group_fkey FOREIGN KEY (group_id)
           REFERENCES groups (group_id) ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE TABLE group_day_counts (
         group_id bigint NOT NULL,
         day date NOT NULL,
         sessions integer NOT NULL,
         CONSTRAINT group_day_counts_sessions CHECK ((sessions >= 1)),
         CONSTRAINT group_day_counts_pkey PRIMARY KEY (group_id, day),
         CONSTRAINT group_day_counts_group_fkey FOREIGN KEY (group_id)
           REFERENCES groups (group_id) ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    for (const statement of SEALED_CELLS_BACKFILL) await queryRunner.query(statement);
    await queryRunner.query('DROP TABLE group_day_cohorts');
    await queryRunner.query('DROP TABLE group_day_participants');
    await queryRunner.query('DROP TABLE group_word_counts');
  }

  /** Back to the per-answer floor: its rollups rebuilt from the sessions; the cells are lost. */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE group_word_counts (
         group_id bigint NOT NULL,
         day date NOT NULL,
         word text NOT NULL,
         count bigint NOT NULL,
         CONSTRAINT group_word_counts_pkey PRIMARY KEY (group_id, day, word),
         CONSTRAINT group_word_counts_group_fkey FOREIGN KEY (group_id)
           REFERENCES groups (group_id) ON DELETE CASCADE)`,
    );
    await queryRunner.query(
      `INSERT INTO group_word_counts (group_id, day, word, count)
       SELECT s.group_id, (s.completed_at AT TIME ZONE 'UTC')::date, w.word, sum(w.count)
         FROM sessions s JOIN session_word_counts w ON w.session_id = s.session_id
        WHERE s.completed_at IS NOT NULL
        GROUP BY 1, 2, 3`,
    );
    await queryRunner.query(
      `CREATE TABLE group_day_participants (
         group_id bigint NOT NULL,
         day date NOT NULL,
         participant_id uuid NOT NULL,
         sessions integer NOT NULL,
         word_sessions integer NOT NULL,
         CONSTRAINT group_day_participants_counts
           CHECK (((sessions >= 1) AND (word_sessions >= 0) AND (word_sessions <= sessions))),
         CONSTRAINT group_day_participants_pkey PRIMARY KEY (group_id, day, participant_id),
         CONSTRAINT group_day_participants_group_fkey FOREIGN KEY (group_id)
           REFERENCES groups (group_id) ON DELETE CASCADE ON UPDATE NO ACTION,
         CONSTRAINT group_day_participants_participant_fkey FOREIGN KEY (participant_id)
           REFERENCES participants (id) ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `CREATE INDEX group_day_participants_participant_idx
         ON group_day_participants (participant_id)`,
    );
    await queryRunner.query(
      `CREATE TABLE group_day_cohorts (
         group_id bigint NOT NULL,
         day date NOT NULL,
         participants integer NOT NULL,
         word_participants integer NOT NULL,
         CONSTRAINT group_day_cohorts_counts
           CHECK (((participants >= 1) AND (word_participants >= 0)
                   AND (word_participants <= participants))),
         CONSTRAINT group_day_cohorts_pkey PRIMARY KEY (group_id, day),
         CONSTRAINT group_day_cohorts_group_fkey FOREIGN KEY (group_id)
           REFERENCES groups (group_id) ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    for (const statement of COHORT_BACKFILL) await queryRunner.query(statement);
    for (const table of [
      'group_day_counts',
      'cohort_checks',
      'cohort_pending',
      'cohort_word_prefixes',
      'cohort_cell_words',
      'cohort_score_prefixes',
      'cohort_cell_scores',
      'cohort_cells',
    ]) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
    await queryRunner.query(
      `ALTER TABLE enterprises
         DROP CONSTRAINT enterprises_min_word_speakers_range,
         DROP COLUMN min_word_speakers`,
    );
  }
}
