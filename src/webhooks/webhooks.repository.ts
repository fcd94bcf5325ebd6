import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

export interface EndpointRecord {
  id: string;
  groupId: number;
  url: string;
  description: string;
  status: 'enabled' | 'disabled';
  enabledEvents: string[];
}

interface EndpointRow {
  id: string;
  group_id: string;
  url: string;
  description: string;
  status: 'enabled' | 'disabled';
  enabled_events: string[];
}

const COLUMNS = 'id, group_id, url, description, status, enabled_events';

const toRecord = (row: EndpointRow): EndpointRecord => ({
  id: row.id,
  groupId: Number(row.group_id),
  url: row.url,
  description: row.description,
  status: row.status,
  enabledEvents: row.enabled_events,
});

/** Webhook endpoints' SQL, always scoped by enterprise and group. */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly db: Database) {}

  async listForGroup(enterpriseId: string, groupId: number): Promise<EndpointRecord[]> {
    const rows = await this.db.rows<EndpointRow>(
      `SELECT ${COLUMNS} FROM webhook_endpoints
        WHERE enterprise_id = $1 AND group_id = $2 ORDER BY created_at, id`,
      [enterpriseId, groupId],
    );
    return rows.map(toRecord);
  }

  async find(
    enterpriseId: string,
    groupId: number,
    webhookId: string,
  ): Promise<EndpointRecord | null> {
    const rows = await this.db.rows<EndpointRow>(
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1 AND enterprise_id = $2 AND group_id = $3`,
      [webhookId, enterpriseId, groupId],
    );
    return rows.length ? toRecord(rows[0]) : null;
  }

  async insert(values: {
    id: string;
    enterpriseId: string;
    groupId: number;
    url: string;
    description: string;
    enabledEvents: readonly string[];
    secretCiphertext: string;
  }): Promise<EndpointRecord> {
    const rows = await this.db.rows<EndpointRow>(
      `INSERT INTO webhook_endpoints
         (id, enterprise_id, group_id, url, description, enabled_events, secret_ciphertext)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
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
    return toRecord(rows[0]);
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
      status: 'enabled' | 'disabled' | null;
    },
  ): Promise<EndpointRecord | null> {
    const rows = await this.db.rows<EndpointRow>(
      `UPDATE webhook_endpoints
          SET url = coalesce($4, url),
              description = coalesce($5, description),
              status = coalesce($6, status),
              failing_since = CASE WHEN $6 = 'enabled' THEN NULL ELSE failing_since END,
              updated_at = now()
        WHERE id = $1 AND enterprise_id = $2 AND group_id = $3
      RETURNING ${COLUMNS}`,
      [webhookId, enterpriseId, groupId, changes.url, changes.description, changes.status],
    );
    if (rows.length && changes.status === 'disabled') {
      await this.cancelPending(webhookId);
    }
    return rows.length ? toRecord(rows[0]) : null;
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
    const rows = await this.db.rows<EndpointRow>(
      `UPDATE webhook_endpoints
          SET previous_secret_ciphertext = secret_ciphertext,
              previous_secret_expires_at = $5,
              secret_ciphertext = $4,
              updated_at = now()
        WHERE id = $1 AND enterprise_id = $2 AND group_id = $3
      RETURNING ${COLUMNS}`,
      [webhookId, enterpriseId, groupId, secretCiphertext, previousValidUntil],
    );
    return rows.length ? toRecord(rows[0]) : null;
  }

  async cancelPending(webhookId: string): Promise<void> {
    await this.db.rows(
      `UPDATE webhook_deliveries SET status = 'cancelled', locked_until = NULL
        WHERE endpoint_id = $1 AND status = 'pending'`,
      [webhookId],
    );
  }
}
