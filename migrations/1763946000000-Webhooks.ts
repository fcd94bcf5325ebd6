import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook endpoints (per group), one delivery row per (event, endpoint) written in the event's
 * transaction (the outbox), and the log of every delivery attempt.
 */
export class Webhooks1763946000000 implements MigrationInterface {
  name = 'Webhooks1763946000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE webhook_endpoints (
        id text NOT NULL,
        enterprise_id uuid NOT NULL,
        group_id bigint NOT NULL,
        url text NOT NULL,
        description text NOT NULL,
        status text NOT NULL DEFAULT 'enabled',
        enabled_events text[] NOT NULL,
        secret_ciphertext text NOT NULL,
        previous_secret_ciphertext text,
        previous_secret_expires_at timestamptz,
        failing_since timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (id),
        CONSTRAINT webhook_endpoints_enterprise_fkey FOREIGN KEY (enterprise_id)
          REFERENCES enterprises (id) ON DELETE CASCADE,
        CONSTRAINT webhook_endpoints_group_fkey FOREIGN KEY (group_id)
          REFERENCES groups (group_id) ON DELETE CASCADE,
        CONSTRAINT webhook_endpoints_id_format CHECK (id ~ '^we_[0-9A-Za-z]{24}$'),
        CONSTRAINT webhook_endpoints_status_values CHECK (status IN ('enabled', 'disabled'))
      )`);
    await queryRunner.query(
      `CREATE INDEX webhook_endpoints_group_idx ON webhook_endpoints (group_id, created_at)`,
    );

    await queryRunner.query(`
      CREATE TABLE webhook_deliveries (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        event_id text NOT NULL,
        endpoint_id text NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        locked_until timestamptz,
        last_status_code integer,
        last_error text,
        delivered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (id),
        CONSTRAINT webhook_deliveries_event_fkey FOREIGN KEY (event_id)
          REFERENCES events (id) ON DELETE CASCADE,
        CONSTRAINT webhook_deliveries_endpoint_fkey FOREIGN KEY (endpoint_id)
          REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        CONSTRAINT webhook_deliveries_status_values
          CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled'))
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX webhook_deliveries_event_endpoint_key ON webhook_deliveries (event_id, endpoint_id)`,
    );
    // The sweeper's scan: pending deliveries by due time.
    await queryRunner.query(
      `CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at)`,
    );

    await queryRunner.query(`
      CREATE TABLE delivery_attempts (
        id bigint GENERATED ALWAYS AS IDENTITY,
        delivery_id uuid NOT NULL,
        started_at timestamptz NOT NULL,
        duration_ms integer NOT NULL,
        status_code integer,
        error text,
        response_excerpt text,
        CONSTRAINT delivery_attempts_pkey PRIMARY KEY (id),
        CONSTRAINT delivery_attempts_delivery_fkey FOREIGN KEY (delivery_id)
          REFERENCES webhook_deliveries (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX delivery_attempts_delivery_idx ON delivery_attempts (delivery_id, started_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE delivery_attempts');
    await queryRunner.query('DROP TABLE webhook_deliveries');
    await queryRunner.query('DROP TABLE webhook_endpoints');
  }
}
