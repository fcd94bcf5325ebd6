import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The age of the oldest pending webhook delivery, a figure Prometheus scrapes every few seconds
 * (docs/operations.md, "Metrics"), is the first entry of this partial index: it holds only
 * pending deliveries, so it stays as small as the backlog. Building it reads the table once.
 */
export class PendingDeliveriesByAge1765920000000 implements MigrationInterface {
  name = 'PendingDeliveriesByAge1765920000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX webhook_deliveries_pending_created_idx ON webhook_deliveries (created_at)
        WHERE status = 'pending'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX webhook_deliveries_pending_created_idx');
  }
}
