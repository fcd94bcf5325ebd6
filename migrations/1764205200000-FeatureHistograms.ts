import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-group, per-feature histograms (docs/performance.md): a group percentile sums the counts of the
 * buckets below the session's value and counts exactly only inside the session's own bucket, so
 * ingestion never scans the group's sessions.
 *
 * `feature_bucket(value)` is the bucket of a float8: its IEEE-754 bits made order-preserving as a
 * signed 64-bit integer (negative values have every bit but the sign flipped), shifted right by 45
 * (sign, exponent and the 7 leading mantissa bits remain: buckets about 0.8 % wide relative to the
 * value). -0 is 0. The same function is implemented in TypeScript
 * (src/metrics/rollups/feature-buckets.ts); a test keeps the two identical.
 */
export class FeatureHistograms1764205200000 implements MigrationInterface {
  name = 'FeatureHistograms1764205200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION feature_bucket(value double precision) RETURNS integer
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$
          SELECT ((CASE WHEN bits >= 0 THEN bits ELSE bits # 9223372036854775807 END) >> 45)::integer
            FROM (SELECT ('x' || encode(float8send(CASE WHEN value = 0 THEN 0 ELSE value END), 'hex'))
                           ::bit(64)::bigint AS bits) AS b
        $$`);
    await queryRunner.query(`
      CREATE TABLE group_feature_histograms (
        group_id bigint NOT NULL,
        name text NOT NULL,
        bucket integer NOT NULL,
        count integer NOT NULL,
        CONSTRAINT group_feature_histograms_pkey PRIMARY KEY (group_id, name, bucket),
        CONSTRAINT group_feature_histograms_group_fkey FOREIGN KEY (group_id)
          REFERENCES groups (group_id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`
      INSERT INTO group_feature_histograms (group_id, name, bucket, count)
      SELECT group_id, name, feature_bucket(value), count(*)
        FROM session_features
       GROUP BY 1, 2, 3`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE group_feature_histograms');
    await queryRunner.query('DROP FUNCTION feature_bucket(double precision)');
  }
}
