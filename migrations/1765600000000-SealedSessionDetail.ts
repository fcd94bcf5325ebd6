import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * No table keeps in clear what one person said or measured (docs/data-at-rest.md): a session's
 * word counts (`session_word_counts`) and feature values (`session_features`, `sessions.features`
 * jsonb) move into `sessions.word_counts` and `sessions.features` as JSON text, which the
 * workers' encryption pass encrypts (this migration has no key), with `sessions.counted_words`
 * (how many words, not which). Group percentiles count inside a histogram bucket from
 * `group_feature_values` (per group, feature and exact value, tied to no session), built here.
 */
export class SealedSessionDetail1765600000000 implements MigrationInterface {
  name = 'SealedSessionDetail1765600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE group_feature_values (
         group_id bigint NOT NULL,
         name text NOT NULL,
         value double precision NOT NULL,
         count integer NOT NULL,
         CONSTRAINT group_feature_values_count CHECK ((count >= 1)),
         CONSTRAINT group_feature_values_pkey PRIMARY KEY (group_id, name, value),
         CONSTRAINT group_feature_values_group_fkey FOREIGN KEY (group_id)
           REFERENCES groups (group_id) ON DELETE CASCADE ON UPDATE NO ACTION)`,
    );
    await queryRunner.query(
      `INSERT INTO group_feature_values (group_id, name, value, count)
       SELECT group_id, name, value, count(*) FROM session_features GROUP BY 1, 2, 3`,
    );
    await queryRunner.query(
      `ALTER TABLE sessions
         ALTER COLUMN features TYPE text USING features::text,
         ADD COLUMN word_counts text,
         ADD COLUMN counted_words integer`,
    );
    await queryRunner.query(
      `UPDATE sessions s SET word_counts = w.counts::text, counted_words = w.total
         FROM (SELECT session_id, jsonb_object_agg(word, count) AS counts, sum(count)::int AS total
                 FROM session_word_counts GROUP BY session_id) w
        WHERE s.session_id = w.session_id`,
    );
    await queryRunner.query(
      `UPDATE sessions SET counted_words = 0
        WHERE completed_at IS NOT NULL AND counted_words IS NULL AND transcript IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX sessions_plaintext_details_idx ON sessions (session_id)
        WHERE ((features LIKE '{%') OR (word_counts LIKE '{%'))`,
    );
    await queryRunner.query('DROP TABLE session_word_counts');
    await queryRunner.query('DROP TABLE session_features');
  }

  /** Back to the tables: only from plaintext values (encrypted ones need the keys: dropped). */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE session_features (
         session_id text NOT NULL,
         group_id bigint NOT NULL,
         participant_id uuid NOT NULL,
         name text NOT NULL,
         value double precision NOT NULL,
         CONSTRAINT session_features_pkey PRIMARY KEY (session_id, name),
         CONSTRAINT session_features_session_fkey FOREIGN KEY (session_id)
           REFERENCES sessions (session_id) ON DELETE CASCADE)`,
    );
    await queryRunner.query(
      'CREATE INDEX session_features_group_idx ON session_features (group_id, name, value)',
    );
    await queryRunner.query(
      `CREATE INDEX session_features_participant_idx
         ON session_features (participant_id, name, value)`,
    );
    await queryRunner.query(
      `CREATE TABLE session_word_counts (
         session_id text NOT NULL,
         word text NOT NULL,
         count integer NOT NULL,
         CONSTRAINT session_word_counts_pkey PRIMARY KEY (session_id, word),
         CONSTRAINT session_word_counts_session_fkey FOREIGN KEY (session_id)
           REFERENCES sessions (session_id) ON DELETE CASCADE)`,
    );
    await queryRunner.query(
      `INSERT INTO session_word_counts (session_id, word, count)
       SELECT s.session_id, w.key, w.value::int
         FROM sessions s, jsonb_each_text(s.word_counts::jsonb) w
        WHERE s.word_counts LIKE '{%'`,
    );
    await queryRunner.query(
      `INSERT INTO session_features (session_id, group_id, participant_id, name, value)
       SELECT s.session_id, s.group_id, s.participant_id, f.key, f.value::float8
         FROM sessions s, jsonb_each_text(s.features::jsonb) f
        WHERE s.features LIKE '{%'`,
    );
    await queryRunner.query('DROP INDEX sessions_plaintext_details_idx');
    await queryRunner.query(
      `ALTER TABLE sessions
         DROP COLUMN counted_words,
         DROP COLUMN word_counts,
         ALTER COLUMN features TYPE jsonb
           USING CASE WHEN features LIKE '{%' THEN features::jsonb END`,
    );
    await queryRunner.query('DROP TABLE group_feature_values');
  }
}
