import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { columnsOf, RowOf } from '../database/entity-columns';
import type { DeliveryError } from './delivery-errors';
import { DELIVERIES_CHANNEL } from './events/events';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { EndpointStatus, WebhookEndpointEntity } from './webhook-endpoint.entity';

const ENDPOINT = columnsOf(WebhookEndpointEntity, [
  'id',
  'groupId',
  'url',
  'description',
  'status',
  'enabledEvents',
]);

export type EndpointRecord = RowOf<typeof ENDPOINT>;

/** One delivery of an endpoint, with its event type and every attempt, oldest first. */
export type DeliveryRecord = Pick<
  WebhookDeliveryEntity,
  'id' | 'eventId' | 'status' | 'attempts' | 'nextAttemptAt' | 'createdAt'
> & {
  eventType: string;
  attemptLog: {
    startedAt: string;
    durationMs: number;
    statusCode: number | null;
    /** Only ever a fixed text (delivery-errors.ts): the worker stores nothing else. */
    error: DeliveryError | null;
  }[];
};

/** Webhook endpoints' and their deliveries' SQL, always scoped by enterprise and group. */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly db: Database) {}

  async listForGroup(enterpriseId: string, groupId: number): Promise<EndpointRecord[]> {
    return this.db.rows<EndpointRecord>(
      `SELECT ${ENDPOINT.select()} FROM webhook_endpoints
        WHERE enterprise_id = $1 AND group_id = $2 ORDER BY created_at, id`,
      [enterpriseId, groupId],
    );
  }

  async find(
    enterpriseId: string,
    groupId: number,
    webhookId: string,
  ): Promise<EndpointRecord | null> {
    const [endpoint] = await this.db.rows<EndpointRecord>(
      `SELECT ${ENDPOINT.select()} FROM webhook_endpoints
        WHERE id = $1 AND enterprise_id = $2 AND group_id = $3`,
      [webhookId, enterpriseId, groupId],
    );
    return endpoint ?? null;
  }

  async insert(
    values: Pick<
      WebhookEndpointEntity,
      | 'id'
      | 'enterpriseId'
      | 'groupId'
      | 'url'
      | 'description'
      | 'enabledEvents'
      | 'secretCiphertext'
    >,
  ): Promise<EndpointRecord> {
    const [endpoint] = await this.db.rows<EndpointRecord>(
      `INSERT INTO webhook_endpoints
         (id, enterprise_id, group_id, url, description, enabled_events, secret_ciphertext)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${ENDPOINT.select()}`,
      [
        values.id,
        values.enterpriseId,
        values.groupId,
        values.url,
        values.description,
        values.enabledEvents,
        values.secretCiphertext,
      ],
    );
    return endpoint;
  }

  /**
   * Changes the given fields (null = keep). Re-enabling clears the failure streak; disabling
   * cancels the endpoint's pending deliveries.
   */
  async update(
    enterpriseId: string,
    groupId: number,
    webhookId: string,
    changes: {
      url: string | null;
      description: string | null;
      status: EndpointStatus | null;
      enabledEvents: string[] | null;
    },
  ): Promise<EndpointRecord | null> {
    const [endpoint] = await this.db.rows<EndpointRecord>(
      `WITH updated AS (
         UPDATE webhook_endpoints
            SET url = coalesce($4, url),
                description = coalesce($5, description),
                status = coalesce($6, status),
                enabled_events = coalesce($7::text[], enabled_events),
                failing_since = CASE WHEN $6 = 'enabled' THEN NULL ELSE failing_since END,
                updated_at = now()
          WHERE id = $1 AND enterprise_id = $2 AND group_id = $3
        RETURNING ${ENDPOINT.select()}),
       cancelled AS (
         UPDATE webhook_deliveries SET status = 'cancelled', locked_until = NULL
          WHERE endpoint_id = (SELECT id FROM updated) AND $6 = 'disabled' AND status = 'pending')
       SELECT * FROM updated`,
      [
        webhookId,
        enterpriseId,
        groupId,
        changes.url,
        changes.description,
        changes.status,
        changes.enabledEvents,
      ],
    );
    return endpoint ?? null;
  }

  /** Deletes the endpoint; its deliveries (pending ones included) go with it. */
  async delete(enterpriseId: string, groupId: number, webhookId: string): Promise<boolean> {
    const rows = await this.db.rows(
      `DELETE FROM webhook_endpoints WHERE id = $1 AND enterprise_id = $2 AND group_id = $3
       RETURNING id`,
      [webhookId, enterpriseId, groupId],
    );
    return rows.length > 0;
  }

  /** New secret; the current one stays valid (and signs too) until `previousValidUntil`. */
  async rotateSecret(
    enterpriseId: string,
    groupId: number,
    webhookId: string,
    secretCiphertext: string,
    previousValidUntil: Date,
  ): Promise<EndpointRecord | null> {
    const [endpoint] = await this.db.rows<EndpointRecord>(
      `UPDATE webhook_endpoints
          SET previous_secret_ciphertext = secret_ciphertext,
              previous_secret_expires_at = $5,
              secret_ciphertext = $4,
              updated_at = now()
        WHERE id = $1 AND enterprise_id = $2 AND group_id = $3
      RETURNING ${ENDPOINT.select()}`,
      [webhookId, enterpriseId, groupId, secretCiphertext, previousValidUntil],
    );
    return endpoint ?? null;
  }

  /** The endpoint's deliveries, newest first, with their attempts. */
  async listDeliveries(
    enterpriseId: string,
    endpointId: string,
    limit: number,
  ): Promise<DeliveryRecord[]> {
    return this.db.rows<DeliveryRecord>(
      `SELECT d.id, d.event_id AS "eventId", e.type AS "eventType", d.status, d.attempts,
              d.next_attempt_at AS "nextAttemptAt", d.created_at AS "createdAt",
              coalesce((SELECT json_agg(json_build_object(
                         'startedAt', a.started_at, 'durationMs', a.duration_ms,
                         'statusCode', a.status_code, 'error', a.error) ORDER BY a.started_at, a.id)
                          FROM delivery_attempts a WHERE a.delivery_id = d.id), '[]') AS "attemptLog"
         FROM webhook_deliveries d
         JOIN webhook_endpoints w ON w.id = d.endpoint_id
         JOIN events e ON e.id = d.event_id
        WHERE d.endpoint_id = $1 AND w.enterprise_id = $2
        ORDER BY d.created_at DESC, d.id DESC
        LIMIT $3`,
      [endpointId, enterpriseId, limit],
    );
  }

  /**
   * Makes a delivery of this endpoint due now again (and takeable by the next sweep); false when
   * there is no such delivery. A worker's live lease is kept: a delivery being sent is not sent
   * twice at once, and its attempt's outcome decides what happens next.
   */
  async redeliver(enterpriseId: string, endpointId: string, deliveryId: string): Promise<boolean> {
    const rows = await this.db.rows(
      `WITH due AS (
         UPDATE webhook_deliveries d
            SET status = 'pending', next_attempt_at = now(), queued_at = NULL
           FROM webhook_endpoints w
          WHERE d.id = $1 AND d.endpoint_id = $2 AND w.id = d.endpoint_id AND w.enterprise_id = $3
        RETURNING d.id)
       SELECT id, pg_notify('${DELIVERIES_CHANNEL}', '') FROM due`,
      [deliveryId, endpointId, enterpriseId],
    );
    return rows.length > 0;
  }

  /**
   * Replay (docs/webhooks.md): a new pending delivery to this endpoint of every event of its group and
   * enterprise created in [since, until) whose type the endpoint enables, in one statement (so
   * in one transaction), then NOTIFY at commit as the outbox write does. Nothing is written when
   * the window holds more than `max` such events; the answer says how many it holds (up to
   * `max + 1`) and how many deliveries were made. Null when the endpoint is not this
   * enterprise's and group's, or is disabled.
   */
  async replay(
    enterpriseId: string,
    groupId: number,
    endpointId: string,
    window: { since: Date; until: Date },
    max: number,
  ): Promise<{ inWindow: number; replayed: number } | null> {
    const [row] = await this.db.rows<{ inWindow: number; replayed: number } & { found: boolean }>(
      `WITH endpoint AS (
         SELECT id, enabled_events FROM webhook_endpoints
          WHERE id = $3 AND enterprise_id = $1 AND group_id = $2 AND status = 'enabled'),
       candidates AS (
         SELECT e.id, e.created_at FROM events e, endpoint w
          WHERE e.enterprise_id = $1 AND e.group_id = $2 AND e.type = ANY (w.enabled_events)
            AND e.created_at >= $4 AND e.created_at < $5
          ORDER BY e.created_at, e.id
          LIMIT $6 + 1),
       counted AS (SELECT count(*)::int AS n FROM candidates),
       inserted AS (
         INSERT INTO webhook_deliveries (event_id, endpoint_id, replay)
         SELECT c.id, $3, true FROM candidates c, counted WHERE counted.n <= $6
          ORDER BY c.created_at, c.id
         RETURNING 1)
       SELECT EXISTS (SELECT 1 FROM endpoint) AS found,
              (SELECT n FROM counted) AS "inWindow",
              (SELECT count(*)::int FROM inserted) AS replayed,
              CASE WHEN (SELECT count(*) FROM inserted) > 0
                   THEN pg_notify('${DELIVERIES_CHANNEL}', '') END AS notified`,
      [enterpriseId, groupId, endpointId, window.since, window.until, max],
    );
    return row.found ? { inWindow: row.inWindow, replayed: row.replayed } : null;
  }
}
