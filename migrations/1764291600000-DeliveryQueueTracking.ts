import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which Bull job carries a pending delivery, and since when (docs/webhooks.md). A sweeper takes due
 * rows with FOR UPDATE SKIP LOCKED and stamps them, so two sweepers never queue one delivery and
 * a sweep never re-reads what it just queued; a row still pending long after it was queued is
 * checked against Redis and queued again under a new job id when its job is gone or stuck.
 */
export class DeliveryQueueTracking1764291600000 implements MigrationInterface {
  name = 'DeliveryQueueTracking1764291600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE webhook_deliveries ADD COLUMN queued_at timestamptz, ADD COLUMN queue_job_id text',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE webhook_deliveries DROP COLUMN queue_job_id, DROP COLUMN queued_at',
    );
  }
}
