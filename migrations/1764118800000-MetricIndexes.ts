import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Covering indexes for metrics (docs/metrics.md): `count` and `mhci` over a group's (or a
 * participant's) completed sessions in a date range become index-only range scans. Completion is
 * `completed_at IS NOT NULL` (the sessions_completed_consistency check ties it to status).
 */
export class MetricIndexes1764118800000 implements MigrationInterface {
  name = 'MetricIndexes1764118800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX sessions_group_completed_idx');
    await queryRunner.query('DROP INDEX sessions_participant_completed_idx');
    await queryRunner.query(
      `CREATE INDEX sessions_group_completed_mhci_idx ON sessions (group_id, completed_at)
         INCLUDE (mhci) WHERE completed_at IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX sessions_participant_completed_mhci_idx ON sessions (participant_id, completed_at)
         INCLUDE (mhci, group_id) WHERE completed_at IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX sessions_participant_completed_mhci_idx');
    await queryRunner.query('DROP INDEX sessions_group_completed_mhci_idx');
    await queryRunner.query(
      'CREATE INDEX sessions_participant_completed_idx ON sessions (participant_id, completed_at)',
    );
    await queryRunner.query(
      'CREATE INDEX sessions_group_completed_idx ON sessions (group_id, completed_at)',
    );
  }
}
