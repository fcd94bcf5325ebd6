import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook replay (docs/webhooks.md): `POST /webhooks/{groupID}/{webhookID}/replay` makes new deliveries
 * of events the endpoint may already have received. An event keeps at most one original delivery
 * per endpoint (the outbox's invariant, now a partial unique index); replays are extra rows marked
 * `replay`, as many as were asked for. The plain (event, endpoint) index keeps serving the lookups
 * by event (the foreign key's cascade when erasure deletes events).
 */
export class WebhookReplay1764723600000 implements MigrationInterface {
  name = 'WebhookReplay1764723600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE webhook_deliveries ADD COLUMN replay boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(`DROP INDEX webhook_deliveries_event_endpoint_key`);
    await queryRunner.query(
      `CREATE INDEX webhook_deliveries_event_endpoint_idx ON webhook_deliveries (event_id, endpoint_id)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX webhook_deliveries_original_key ON webhook_deliveries (event_id, endpoint_id)
        WHERE NOT replay`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM webhook_deliveries WHERE replay`);
    await queryRunner.query(`DROP INDEX webhook_deliveries_original_key`);
    await queryRunner.query(`DROP INDEX webhook_deliveries_event_endpoint_idx`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX webhook_deliveries_event_endpoint_key ON webhook_deliveries (event_id, endpoint_id)`,
    );
    await queryRunner.query(`ALTER TABLE webhook_deliveries DROP COLUMN replay`);
  }
}
