/**
 * The repository tier's fixtures: a fresh migrated database per spec file, the project's own
 * `Database` over a `pg` pool typed as in production (POOL_TYPES: bigint → number), and plain-SQL
 * builders for the rows repositories read. Times are relative to the database's clock
 * (`now() + offset`), so nothing depends on the test machine's clock.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { Pool, PoolClient } from 'pg';
import { Database } from '../../src/database/database';
import { POOL_TYPES } from '../../src/database/typeorm-options';
import { createTestDatabase, databaseUrl, dropDatabase, withAdmin } from '../support/databases';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// Identifiers in the formats the schema's CHECK constraints demand (kept here rather than
// imported, so fixtures do not move with the application's id generation).
const base62 = (length: number): string =>
  Array.from({ length }, () => BASE62[randomInt(BASE62.length)]).join('');
const hex = (length: number): string => randomBytes(length / 2).toString('hex');
export const newEndpointId = (): string => `we_${base62(24)}`;
export const newEventId = (): string => `evt_${hex(48)}`;
export const newExternalId = (): string => `ok_${hex(48)}`;
export const newSessionId = (): string => `ses_${base62(24)}`;

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** Ids in a stable order, for comparing sets of ids (nulls sort last). */
export const sortedIds = (ids: readonly (string | null)[]): (string | null)[] =>
  [...ids].sort((a, b) => (a === null ? 1 : b === null ? -1 : a < b ? -1 : a > b ? 1 : 0));

/** The columns of `webhook_deliveries`, as the tests read them back. */
export interface DeliveryRow {
  id: string;
  eventId: string;
  endpointId: string;
  status: string;
  attempts: number;
  nextAttemptAt: Date;
  lockedUntil: Date | null;
  queuedAt: Date | null;
  queueJobId: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  /** Whether `locked_until` is after the database's now(). */
  leased: boolean;
}

export interface AttemptRow {
  deliveryId: string;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
}

export interface EmailRow {
  id: string;
  status: string;
  attempts: number;
  error: string | null;
  sentAt: Date | null;
}

/** Offsets from the database's now(), in milliseconds (negative: in the past). */
export interface DeliveryOptions {
  status?: 'pending' | 'delivered' | 'failed' | 'cancelled';
  attempts?: number;
  /** next_attempt_at = now() + dueInMs; default -1 000 (due a second ago). */
  dueInMs?: number;
  /** locked_until = now() + lockedForMs; null (default) = never leased. */
  lockedForMs?: number | null;
  /** queued_at = now() - queuedAgoMs; null (default) = never queued. */
  queuedAgoMs?: number | null;
  queueJobId?: string | null;
  /** created_at = now() + createdInMs; default 0. */
  createdInMs?: number;
}

/** One enterprise with a group, an endpoint of that group and what a delivery needs. */
export interface WebhookWorld {
  enterpriseId: string;
  groupId: number;
  endpointId: string;
}

export class TestDatabase {
  private readonly extraPools: Pool[] = [];

  private constructor(
    readonly name: string,
    readonly pool: Pool,
    readonly db: Database,
  ) {}

  static async create(): Promise<TestDatabase> {
    const name = await createTestDatabase();
    const pool = TestDatabase.newPool(name, 5);
    return new TestDatabase(name, pool, new Database(pool));
  }

  private static newPool(name: string, max: number): Pool {
    return new Pool({ connectionString: databaseUrl(name), types: POOL_TYPES, max });
  }

  /**
   * Another `Database` over a pool of its own with `connections` already open, so concurrent
   * calls on it start at once, each on its own connection (its own transaction).
   */
  async openDatabase(connections: number): Promise<Database> {
    const pool = TestDatabase.newPool(this.name, connections);
    this.extraPools.push(pool);
    const clients = await Promise.all(Array.from({ length: connections }, () => pool.connect()));
    for (const client of clients) client.release();
    return new Database(pool);
  }

  /**
   * Ends the pools, then drops the database. `pool.end()` resolves once it has asked its
   * connections to close, not once they have: dropping (WITH (FORCE)) before the server has let
   * them go would terminate them, and a terminated client emits an error nobody listens to any
   * more (an "Unhandled error" Jest pins on some test). So wait until the server holds none.
   */
  async close(): Promise<void> {
    await Promise.all([...this.extraPools, this.pool].map((pool) => pool.end()));
    await withAdmin(async (client) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const result = await client.query<{ open: number }>(
          'SELECT count(*)::int AS open FROM pg_stat_activity WHERE datname = $1',
          [this.name],
        );
        if (result.rows[0].open === 0 || Date.now() > deadline) return;
        await sleep(10);
      }
    });
    await dropDatabase(this.name);
  }

  async rows<T>(text: string, params?: unknown[]): Promise<T[]> {
    return this.db.rows<T>(text, params);
  }

  async one<T>(text: string, params?: unknown[]): Promise<T> {
    const rows = await this.rows<T>(text, params);
    if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}: ${text}`);
    return rows[0];
  }

  /**
   * Runs `work` while another transaction holds a FOR UPDATE lock on the row of `table` whose
   * `id` is `id`. The lock is released (rolled back) afterwards, and also when `work` has not
   * finished within `timeoutMs`: then this throws, so a statement that waits on the lock instead
   * of skipping it fails the test rather than hanging it.
   */
  async whileRowLocked<T>(
    table: string,
    id: string,
    work: () => Promise<T>,
    timeoutMs = 3_000,
  ): Promise<T> {
    const client: PoolClient = await this.pool.connect();
    let timer: NodeJS.Timeout | undefined;
    try {
      await client.query('BEGIN');
      await client.query(`SELECT 1 FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`still running after ${timeoutMs} ms: waiting on the lock?`)),
          timeoutMs,
        );
      });
      return await Promise.race([work(), timedOut]);
    } finally {
      clearTimeout(timer);
      await client.query('ROLLBACK');
      client.release();
    }
  }

  /** Waits until `count` sessions of this database wait on a lock. */
  async waitForLockWaiters(count: number, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { waiting } = await this.one<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (waiting >= count) return;
      if (Date.now() > deadline) throw new Error(`${waiting} of ${count} lock waiters`);
      await sleep(10);
    }
  }

  // Fixtures -------------------------------------------------------------------------------

  async enterprise(name = 'Acme', options: { sandbox?: boolean } = {}): Promise<string> {
    const { id } = await this.one<{ id: string }>(
      'INSERT INTO enterprises (name, sandbox) VALUES ($1, $2) RETURNING id',
      [name, options.sandbox ?? false],
    );
    return id;
  }

  async group(
    enterpriseId: string,
    options: { name?: string; requestedPrivacy?: string[] } = {},
  ): Promise<number> {
    const { groupId } = await this.one<{ groupId: number }>(
      `INSERT INTO groups (enterprise_id, name, key, invite_code, requested_privacy)
       VALUES ($1, $2, $3, $4, $5) RETURNING group_id AS "groupId"`,
      [
        enterpriseId,
        options.name ?? 'Night shift',
        `gk_${base62(32)}`,
        base62(13).toLowerCase(),
        options.requestedPrivacy ?? [],
      ],
    );
    return groupId;
  }

  async participant(
    enterpriseId: string,
    options: {
      prefCheckinReminder?: boolean;
      prefPrivacyRequest?: boolean;
      requestedPrivacy?: string[] | null;
      emailCiphertext?: string;
    } = {},
  ): Promise<string> {
    const { id } = await this.one<{ id: string }>(
      `INSERT INTO participants (external_id, enterprise_id, email_ciphertext, email_hash,
                                 pref_checkin_reminder, pref_privacy_request, requested_privacy)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [
        newExternalId(),
        enterpriseId,
        options.emailCiphertext ?? `cipher-${base62(8)}`,
        `hash-${base62(16)}`,
        options.prefCheckinReminder ?? true,
        options.prefPrivacyRequest ?? true,
        options.requestedPrivacy ?? null,
      ],
    );
    return id;
  }

  async membership(participantId: string, groupId: number, privacyLevel = 0): Promise<void> {
    await this.rows(
      'INSERT INTO memberships (participant_id, group_id, privacy_level) VALUES ($1, $2, $3)',
      [participantId, groupId, privacyLevel],
    );
  }

  /**
   * A session; completed (at `completedAt`, an ISO timestamp) when `completedAt` is given, and
   * then shared at the member's level now, as ingestion records it.
   */
  async session(
    enterpriseId: string,
    participantId: string,
    groupId: number,
    options: { completedAt?: string; mhci?: number } = {},
  ): Promise<string> {
    const sessionId = newSessionId();
    await this.rows(
      `INSERT INTO sessions (session_id, enterprise_id, participant_id, group_id, status,
                             return_url, completed_at, mhci, shared_level)
       SELECT $1, $2, $3, $4, $5, 'https://example.com/back', $6, $7,
              CASE WHEN $6::timestamptz IS NULL THEN NULL ELSE
                (SELECT privacy_level FROM memberships WHERE participant_id = $3 AND group_id = $4)
              END`,
      [
        sessionId,
        enterpriseId,
        participantId,
        groupId,
        options.completedAt ? 'completed' : 'created',
        options.completedAt ?? null,
        options.mhci ?? null,
      ],
    );
    return sessionId;
  }

  async event(
    enterpriseId: string,
    groupId: number,
    options: {
      type?: string;
      payload?: Record<string, unknown>;
      encryptedPii?: string | null;
      traceContext?: Record<string, string> | null;
    } = {},
  ): Promise<string> {
    const id = newEventId();
    await this.rows(
      `INSERT INTO events (id, enterprise_id, group_id, type, payload, encrypted_pii, trace_context)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        id,
        enterpriseId,
        groupId,
        options.type ?? 'session.completed',
        JSON.stringify(options.payload ?? {}),
        options.encryptedPii ?? null,
        options.traceContext ? JSON.stringify(options.traceContext) : null,
      ],
    );
    return id;
  }

  async endpoint(
    enterpriseId: string,
    groupId: number,
    options: { url?: string; secretCiphertext?: string; failingSinceAgoMs?: number } = {},
  ): Promise<string> {
    const id = newEndpointId();
    await this.rows(
      `INSERT INTO webhook_endpoints
         (id, enterprise_id, group_id, url, description, enabled_events, secret_ciphertext,
          failing_since)
       VALUES ($1, $2, $3, $4, 'test endpoint', '{session.completed}', $5,
               now() - $6 * interval '1 millisecond')`,
      [
        id,
        enterpriseId,
        groupId,
        options.url ?? 'https://hooks.example.com/in',
        options.secretCiphertext ?? `secret-${base62(8)}`,
        options.failingSinceAgoMs ?? null,
      ],
    );
    return id;
  }

  /** An enterprise, a group and an endpoint. */
  async webhookWorld(): Promise<WebhookWorld> {
    const enterpriseId = await this.enterprise();
    const groupId = await this.group(enterpriseId);
    const endpointId = await this.endpoint(enterpriseId, groupId);
    return { enterpriseId, groupId, endpointId };
  }

  /** A delivery (of a new event of the endpoint's group) to `world.endpointId`. */
  async delivery(
    world: WebhookWorld,
    options: DeliveryOptions = {},
    endpointId = world.endpointId,
  ): Promise<string> {
    const eventId = await this.event(world.enterpriseId, world.groupId);
    const { id } = await this.one<{ id: string }>(
      `INSERT INTO webhook_deliveries
         (event_id, endpoint_id, status, attempts, next_attempt_at, locked_until, queued_at,
          queue_job_id, created_at)
       VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond',
               now() + $6 * interval '1 millisecond', now() - $7 * interval '1 millisecond',
               $8, now() + $9 * interval '1 millisecond')
       RETURNING id`,
      [
        eventId,
        endpointId,
        options.status ?? 'pending',
        options.attempts ?? 0,
        options.dueInMs ?? -1_000,
        options.lockedForMs ?? null,
        options.queuedAgoMs ?? null,
        options.queueJobId ?? null,
        options.createdInMs ?? 0,
      ],
    );
    return id;
  }

  /**
   * `count` pending, unleased deliveries to `world.endpointId`, due an hour ago one millisecond
   * apart, inserted in one statement. Answers their ids, oldest next_attempt_at first.
   */
  async dueDeliveries(world: WebhookWorld, count: number): Promise<string[]> {
    const eventIds = Array.from({ length: count }, () => newEventId());
    await this.rows(
      `INSERT INTO events (id, enterprise_id, group_id, type, payload)
       SELECT id, $2, $3, 'session.completed', '{}' FROM unnest($1::text[]) AS id`,
      [eventIds, world.enterpriseId, world.groupId],
    );
    await this.rows(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, next_attempt_at)
       SELECT e.id, $2, now() - interval '1 hour' + e.n * interval '1 millisecond'
         FROM unnest($1::text[]) WITH ORDINALITY AS e(id, n)`,
      [eventIds, world.endpointId],
    );
    const rows = await this.rows<{ id: string }>(
      `SELECT id FROM webhook_deliveries WHERE event_id = ANY($1) ORDER BY next_attempt_at`,
      [eventIds],
    );
    return rows.map((row) => row.id);
  }

  async deliveryRow(id: string): Promise<DeliveryRow> {
    return this.one<DeliveryRow>(
      `SELECT id, event_id AS "eventId", endpoint_id AS "endpointId", status, attempts,
              next_attempt_at AS "nextAttemptAt", locked_until AS "lockedUntil",
              queued_at AS "queuedAt", queue_job_id AS "queueJobId",
              last_status_code AS "lastStatusCode", last_error AS "lastError",
              delivered_at AS "deliveredAt", coalesce(locked_until > now(), false) AS leased
         FROM webhook_deliveries WHERE id = $1`,
      [id],
    );
  }

  /** How long the delivery's lease still runs, by the database's clock (negative: ended). */
  async leaseRemainingMs(deliveryId: string): Promise<number | null> {
    const { remaining } = await this.one<{ remaining: number | null }>(
      `SELECT (extract(epoch FROM locked_until - now()) * 1000)::float8 AS remaining
         FROM webhook_deliveries WHERE id = $1`,
      [deliveryId],
    );
    return remaining;
  }

  async attemptRows(deliveryId: string): Promise<AttemptRow[]> {
    return this.rows<AttemptRow>(
      `SELECT delivery_id AS "deliveryId", started_at AS "startedAt", duration_ms AS "durationMs",
              status_code AS "statusCode", error, response_excerpt AS "responseExcerpt"
         FROM delivery_attempts WHERE delivery_id = $1 ORDER BY id`,
      [deliveryId],
    );
  }

  /** Moves a delivery's lease back so it ended `agoMs` ago. */
  async expireLease(deliveryId: string, agoMs = 1): Promise<void> {
    await this.rows(
      `UPDATE webhook_deliveries SET locked_until = now() - $2 * interval '1 millisecond'
        WHERE id = $1`,
      [deliveryId, agoMs],
    );
  }

  async email(
    participantId: string,
    groupId: number,
    options: {
      type?: 'checkinReminder' | 'privacyRequest';
      status?: 'queued' | 'sent' | 'failed' | 'skipped';
      /** created_at = now() - createdAgoMs; default 0. */
      createdAgoMs?: number;
      attempts?: number;
      traceContext?: Record<string, string>;
    } = {},
  ): Promise<string> {
    const { id } = await this.one<{ id: string }>(
      `INSERT INTO email_messages (enterprise_id, participant_id, group_id, type, status,
                                   attempts, created_at, trace_context)
       SELECT p.enterprise_id, p.id, $2, $3, $4, $5, now() - $6 * interval '1 millisecond', $7
         FROM participants p WHERE p.id = $1
       RETURNING id`,
      [
        participantId,
        groupId,
        options.type ?? 'checkinReminder',
        options.status ?? 'queued',
        options.attempts ?? 0,
        options.createdAgoMs ?? 0,
        options.traceContext ? JSON.stringify(options.traceContext) : null,
      ],
    );
    return id;
  }

  async emailRow(id: string): Promise<EmailRow> {
    return this.one<EmailRow>(
      `SELECT id, status, attempts, error, sent_at AS "sentAt" FROM email_messages WHERE id = $1`,
      [id],
    );
  }
}
