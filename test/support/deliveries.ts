/**
 * Webhook deliveries as PostgreSQL holds them, for the checks that nothing else arrives
 * (docs/tests.md, "Rules"). A delivery is written in the transaction of the change that made its
 * event (or by a replay), and a worker sends only a pending one: once a delivery is final
 * (delivered, failed or cancelled), its last attempt has been answered and recorded, and it is
 * never sent again unless someone asks (redeliver, replay). So once every delivery to an endpoint
 * is final, a request its receiver has not seen will never come: the sign to wait for, instead of
 * a pause long enough for a retry or a late duplicate to show.
 */
import type { QueryResult, QueryResultRow } from 'pg';

/** A pg Pool or Client. */
export interface Queryable {
  query<R extends QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}

export interface DeliveryRow {
  endpointId: string;
  eventId: string;
  status: 'delivered' | 'failed' | 'cancelled';
  attempts: number;
}

/**
 * Waits until every delivery to these endpoints is final (up to `timeoutMs`), and answers them,
 * oldest first.
 */
export async function finalDeliveries(
  db: Queryable,
  endpointIds: string[],
  timeoutMs = 10_000,
): Promise<DeliveryRow[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<DeliveryRow | { status: 'pending' }>(
      `SELECT endpoint_id AS "endpointId", event_id AS "eventId", status, attempts
         FROM webhook_deliveries WHERE endpoint_id = ANY ($1::text[])
        ORDER BY created_at, id`,
      [endpointIds],
    );
    const pending = rows.filter((row) => row.status === 'pending').length;
    if (pending === 0) return rows as DeliveryRow[];
    if (Date.now() > deadline) {
      throw new Error(`${pending} of ${rows.length} deliveries are still pending`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
