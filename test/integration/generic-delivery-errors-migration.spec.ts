/**
 * The migration to generic delivery errors (docs/webhooks.md, "What an attempt's error says"): the
 * detailed texts older releases stored become the fixed texts, in the attempts the deliveries API
 * shows and in each delivery's last error; texts of the set, and the deliveries' own `endpoint …`
 * texts, stay.
 */
import type { QueryRunner } from 'typeorm';
import { GenericDeliveryErrors1765800000000 } from '../../migrations/1765800000000-GenericDeliveryErrors';
import { DELIVERY_ERRORS } from '../../src/webhooks/delivery-errors';
import { TestDatabase } from './support';

/** Texts Node and older releases of the service stored, and what each becomes. */
const LEGACY: [string, string][] = [
  ['refused: vm resolves to a private or reserved address', 'address not allowed'],
  ['Invalid URL', 'address not allowed'],
  ['getaddrinfo ENOTFOUND vm.', 'DNS lookup failed'],
  ['getaddrinfo EAI_AGAIN hooks.internal', 'DNS lookup failed'],
  ['connect ECONNREFUSED 10.0.0.7:443', 'connection refused'],
  ['read ECONNRESET', 'connection reset'],
  ['socket hang up', 'connection reset'],
  ['write EPIPE', 'connection reset'],
  ['timed out after 15000 ms', 'timeout'],
  ['connect ETIMEDOUT 10.0.0.9:443', 'timeout'],
  ['self-signed certificate', 'TLS error'],
  ['certificate has expired', 'TLS error'],
  [
    "Hostname/IP does not match certificate's altnames: Host: db.internal. is not in the cert's altnames: DNS:a.example.com",
    'TLS error',
  ],
  ['80D8E2E4:error:0A00010B:SSL routines:ssl3_get_record:wrong version number', 'TLS error'],
  ['Parse Error: Invalid header value char', 'invalid response'],
  ['connect EHOSTUNREACH 10.1.2.3:443', 'connection failed'],
  ['Unsupported state or unable to authenticate data', 'internal error'],
];

describe('migration: generic delivery errors', () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await TestDatabase.create();
  });
  afterAll(() => t.close());

  it('rewrites detailed texts to the fixed ones and keeps the rest', async () => {
    const world = await t.webhookWorld();
    const stored = [...LEGACY.map(([text]) => text), ...DELIVERY_ERRORS, null];
    const expected = [...LEGACY.map(([, text]) => text), ...DELIVERY_ERRORS, null];
    const ids: string[] = [];
    for (const text of stored) {
      const id = await t.delivery(world, { status: 'failed', attempts: 1 });
      ids.push(id);
      await t.rows(
        `INSERT INTO delivery_attempts (delivery_id, started_at, duration_ms, status_code, error)
         VALUES ($1, now(), 5, NULL, $2)`,
        [id, text],
      );
      await t.rows('UPDATE webhook_deliveries SET last_error = $2 WHERE id = $1', [id, text]);
    }
    const own = ['endpoint disabled', 'endpoint answered 503', 'endpoint answered 410 Gone'];
    const ownIds: string[] = [];
    for (const text of own) {
      const id = await t.delivery(world, { status: 'failed', attempts: 1 });
      ownIds.push(id);
      await t.rows('UPDATE webhook_deliveries SET last_error = $2 WHERE id = $1', [id, text]);
    }

    const runner = { query: (sql: string) => t.pool.query(sql) } as unknown as QueryRunner;
    await new GenericDeliveryErrors1765800000000().up(runner);

    const attempts = await Promise.all(ids.map(async (id) => (await t.attemptRows(id))[0].error));
    expect(attempts).toEqual(expected);
    const last = await Promise.all(ids.map(async (id) => (await t.deliveryRow(id)).lastError));
    expect(last).toEqual(expected);
    const kept = await Promise.all(ownIds.map(async (id) => (await t.deliveryRow(id)).lastError));
    expect(kept).toEqual(own);
  });
});
