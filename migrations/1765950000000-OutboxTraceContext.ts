import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outboxes carry the trace context of the request that filled them (docs/operations.md,
 * "Traces"): `events.trace_context` and `email_messages.trace_context`, W3C Trace Context's
 * `{"traceparent": …, "tracestate": …}`, null when tracing is off or nothing was being traced.
 * A worker's delivery or mail span takes it as its parent. Nullable, no default: adding them
 * rewrites no row.
 */
export class OutboxTraceContext1765950000000 implements MigrationInterface {
  name = 'OutboxTraceContext1765950000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE events ADD COLUMN trace_context jsonb`);
    await queryRunner.query(`ALTER TABLE email_messages ADD COLUMN trace_context jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE email_messages DROP COLUMN trace_context`);
    await queryRunner.query(`ALTER TABLE events DROP COLUMN trace_context`);
  }
}
