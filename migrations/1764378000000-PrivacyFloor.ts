import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fills the two rollups from the stored completed sessions, as ingestion would have (a test holds
 * the two equal).
 */
export const COHORT_BACKFILL = [
  `INSERT INTO group_day_participants (group_id, day, participant_id, sessions, word_sessions)
   SELECT s.group_id, (s.completed_at AT TIME ZONE 'UTC')::date, s.participant_id, count(*),
          count(*) FILTER (WHERE EXISTS (
            SELECT 1 FROM session_word_counts w WHERE w.session_id = s.session_id))
     FROM sessions s
    WHERE s.completed_at IS NOT NULL
    GROUP BY 1, 2, 3`,
  `INSERT INTO group_day_cohorts (group_id, day, participants, word_participants)
   SELECT group_id, day, count(*), count(*) FILTER (WHERE word_sessions > 0)
     FROM group_day_participants
    GROUP BY 1, 2`,
];

/**
 * The privacy floor of group metrics (docs/metrics.md): each enterprise's `min_cohort_scores` and
 * `min_cohort_words` (defaults 5 and 10), and the rollups that count distinct participants per
 * group and UTC day without scanning sessions: `group_day_participants` (who, with their sessions
 * and word-giving sessions that day) and `group_day_cohorts` (how many). Both are filled from the
 * completed sessions already stored.
 */
export class PrivacyFloor1764378000000 implements MigrationInterface {
  name = 'PrivacyFloor1764378000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE enterprises
         ADD COLUMN min_cohort_scores smallint NOT NULL DEFAULT '5',
         ADD COLUMN min_cohort_words smallint NOT NULL DEFAULT '10',
         ADD CONSTRAINT enterprises_min_cohort_scores_range
           CHECK (((min_cohort_scores >= 1) AND (min_cohort_scores <= 100))),
         ADD CONSTRAINT enterprises_min_cohort_words_range
           CHECK (((min_cohort_words >= 1) AND (min_cohort_words <= 100)))`,
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
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE group_day_cohorts');
    await queryRunner.query('DROP TABLE group_day_participants');
    await queryRunner.query(
      `ALTER TABLE enterprises
         DROP CONSTRAINT enterprises_min_cohort_words_range,
         DROP CONSTRAINT enterprises_min_cohort_scores_range,
         DROP COLUMN min_cohort_words,
         DROP COLUMN min_cohort_scores`,
    );
  }
}
