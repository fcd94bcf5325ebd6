import { Injectable } from '@nestjs/common';
import { newEventId } from '../../common/ids';
import { PiiCipher } from '../../common/crypto/pii-cipher';
import { Database, Sql } from '../../database/database';
import { DELIVERIES_CHANNEL, EventType, EventTypes } from './events';

export interface NewEvent {
  enterpriseId: string;
  groupId: number;
  type: EventType;
  payload: object;
  /** Personal data for the delivery (e.g. the email of user.created), stored encrypted. */
  pii?: Record<string, string>;
}

/** Writes to the outbox, in the transaction of the change that caused the event. */
@Injectable()
export class EventsRepository {
  constructor(
    private readonly db: Database,
    private readonly cipher: PiiCipher,
  ) {}

  async insert(event: NewEvent, sql: Sql = this.db): Promise<string> {
    const id = newEventId();
    await sql.rows(
      `INSERT INTO events (id, enterprise_id, group_id, type, payload, encrypted_pii)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        id,
        event.enterpriseId,
        event.groupId,
        event.type,
        JSON.stringify(event.payload),
        event.pii ? this.cipher.encrypt(JSON.stringify(event.pii)) : null,
      ],
    );
    // The outbox: one delivery per enabled endpoint of the group that takes this event type,
    // in the same transaction. NOTIFY is delivered at commit, waking the delivery sweeper.
    await sql.rows(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id)
       SELECT $1, id FROM webhook_endpoints
        WHERE group_id = $2 AND status = 'enabled' AND $3 = ANY (enabled_events)`,
      [id, event.groupId, event.type],
    );
    await sql.rows(`SELECT pg_notify('${DELIVERIES_CHANNEL}', '')`);
    return id;
  }

  /** A `webhook.test` event delivered to one endpoint only. */
  async insertTest(
    enterpriseId: string,
    groupId: number,
    endpointId: string,
    sql: Sql = this.db,
  ): Promise<string> {
    const id = newEventId();
    await sql.rows(
      `INSERT INTO events (id, enterprise_id, group_id, type, payload) VALUES ($1, $2, $3, $4, $5)`,
      [
        id,
        enterpriseId,
        groupId,
        EventTypes.Test,
        JSON.stringify({ groupID: groupId, webhookID: endpointId }),
      ],
    );
    await sql.rows('INSERT INTO webhook_deliveries (event_id, endpoint_id) VALUES ($1, $2)', [
      id,
      endpointId,
    ]);
    await sql.rows(`SELECT pg_notify('${DELIVERIES_CHANNEL}', '')`);
    return id;
  }
}
