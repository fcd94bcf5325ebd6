/**
 * The delivery worker's decisions (DeliveryService.send, then finishBatch; docs/webhooks.md "How
 * delivery works"), on real PostgreSQL and a real local receiver that verifies signatures with
 * the `standardwebhooks` package. Only the metrics counter is a stand-in. Pinned down:
 * - 2xx: delivered, the attempt logged with its status and the answer's excerpt, the envelope
 *   signed with the endpoint's secret (and the previous one while it is valid, not after), the
 *   endpoint's failure streak ended;
 * - 410: failed, and the endpoint disabled with its other pending deliveries cancelled; other
 *   endpoints' deliveries in the same batch are unaffected;
 * - anything else: pending again after the schedule's delay for that attempt (±10 %), or after
 *   the receiver's Retry-After (at most 2 h); after the last delay, failed;
 * - no answer at all: the fixed text (`connection refused`), the detail only in the log;
 * - an endpoint disabled by the time of sending: cancelled, nothing sent, not counted;
 * - an endpoint failing continuously for WEBHOOK_DISABLE_AFTER_HOURS is disabled at its next
 *   failure, its pending deliveries cancelled; one failing for less stays enabled;
 * - the warn line names the endpoint's host, never the URL's path or query.
 */
import { Logger } from '@nestjs/common';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type ClaimedDelivery,
  DeliveryLeaseRepository,
} from '../../src/webhooks/delivery/delivery-lease.repository';
import type {
  AttemptOutcome,
  DeliveryMeasurements,
} from '../../src/webhooks/delivery/delivery-measurements';
import { DeliveryService } from '../../src/webhooks/delivery/delivery.service';
import { RETRY_AFTER_CAP_MS } from '../../src/webhooks/delivery/retry-schedule';
import { EventTypes, SUBSCRIBABLE_EVENTS } from '../../src/webhooks/events/events';
import { type Received, WebhookReceiver } from '../support/webhook-receiver';
import { TestDatabase } from './support';
import { type Services, servicesOn, testConfig } from './tenant-fixtures';

const LEASE_MS = 60_000;
/** The default schedule (5s,5m,30m,2h,5h,10h,10h,24h), as configured. */
const SCHEDULE_MS = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, 86_400_000,
];
const HOUR_MS = 3_600_000;
/** The token a receiver put in its own URL: never to be logged. */
const RECEIVER_TOKEN = 'receiver-own-token-7f3a';

describe('Webhook delivery outcomes (PostgreSQL, a local receiver)', () => {
  let t: TestDatabase;
  let s: Services;
  let leases: DeliveryLeaseRepository;
  let delivery: DeliveryService;
  let receiver: WebhookReceiver;
  let acme: string;
  const counted: AttemptOutcome[] = [];
  let warnings: jest.SpyInstance;

  beforeAll(async () => {
    t = await TestDatabase.create();
    s = servicesOn(t, { config: testConfig(t, { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }) });
    expect(s.config.webhooks.retryScheduleMs).toEqual(SCHEDULE_MS);
    expect(s.config.webhooks.disableAfterMs).toBe(120 * HOUR_MS);
    leases = new DeliveryLeaseRepository(t.db);
    const measurements = {
      attempted: (outcome: AttemptOutcome) => counted.push(outcome),
    } as unknown as DeliveryMeasurements;
    delivery = new DeliveryService(leases, s.cipher, s.config, measurements);
    receiver = await new WebhookReceiver().start();
    acme = await t.enterprise('Acme');
  });
  afterAll(async () => {
    await delivery.onApplicationShutdown();
    await receiver.stop();
    await t.close();
  });
  beforeEach(async () => {
    // Each test leases what it made: nothing else is due.
    await t.rows('DELETE FROM webhook_deliveries');
    receiver.received.length = 0;
    receiver.replies.length = 0;
    counted.length = 0;
    warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warnings.mockRestore());

  /** An endpoint of a new group, at `url` (the receiver's, with its own token, by default). */
  const endpointAt = async (url = `${receiver.url}/hooks/acme?token=${RECEIVER_TOKEN}`) => {
    const groupId = await t.group(acme);
    const created = await s.webhooks.create(acme, groupId, {
      url,
      description: 'receiver',
      enabledEvents: [...SUBSCRIBABLE_EVENTS],
    });
    return { groupId, endpointId: created.id, secret: created.secret };
  };
  /** A user.created event of the group (one delivery per endpoint); answers the event id. */
  const userCreated = (groupId: number) =>
    s.events.insert({
      enterpriseId: acme,
      groupId,
      type: EventTypes.UserCreated,
      payload: { groupID: groupId, userIdentifier: `ok_${'a'.repeat(48)}` },
      pii: { email: 'ana@example.com' },
    });
  /** Leases what is due, sends it all, records the batch (one worker's round). */
  const sendDue = async (now?: number) => {
    const claimed = await leases.claimDue(100, LEASE_MS);
    const clock = now === undefined ? null : jest.spyOn(Date, 'now').mockReturnValue(now);
    try {
      const sent = await Promise.all(claimed.map((due: ClaimedDelivery) => delivery.send(due)));
      await delivery.finishBatch(sent, LEASE_MS);
      return sent;
    } finally {
      clock?.mockRestore();
    }
  };
  const deliveryOf = (eventId: string) =>
    t.one<{
      id: string;
      status: string;
      attempts: number;
      lastStatusCode: number | null;
      lastError: string | null;
      nextAttemptAt: Date;
      delivered: boolean;
      leased: boolean;
    }>(
      `SELECT id, status, attempts, last_status_code AS "lastStatusCode", last_error AS "lastError",
              next_attempt_at AS "nextAttemptAt", delivered_at IS NOT NULL AS delivered,
              locked_until IS NOT NULL AS leased
         FROM webhook_deliveries WHERE event_id = $1`,
      [eventId],
    );
  const attemptsOf = (deliveryId: string) =>
    t.rows(
      `SELECT status_code AS "statusCode", error, response_excerpt AS "responseExcerpt"
         FROM delivery_attempts WHERE delivery_id = $1 ORDER BY id`,
      [deliveryId],
    );
  const endpointState = (id: string) =>
    t.one<{ status: string; failing: boolean }>(
      `SELECT status, failing_since IS NOT NULL AS failing FROM webhook_endpoints WHERE id = $1`,
      [id],
    );
  /** The warn lines' texts (a line is `warn(text)` or `warn(fields, text)`). */
  const warned = (): string[] =>
    warnings.mock.calls.map((call: unknown[]) => String(call[call.length - 1]));
  const verifiedBy = (received: Received, secret: string): boolean => {
    try {
      WebhookReceiver.verify(received, secret);
      return true;
    } catch {
      return false;
    }
  };

  it('2xx: delivered, logged, signed with the secret, the envelope of the event; the failure streak ends', async () => {
    const { groupId, endpointId, secret } = await endpointAt();
    await t.rows(
      `UPDATE webhook_endpoints SET failing_since = now() - interval '1 hour' WHERE id = $1`,
      [endpointId],
    );
    const eventId = await userCreated(groupId);
    receiver.replies.push({ status: 204, body: '' });
    await sendDue();

    const [received] = receiver.received;
    expect(receiver.received).toHaveLength(1);
    expect(received.path).toBe(`/hooks/acme?token=${RECEIVER_TOKEN}`);
    expect(received.headers['webhook-id']).toBe(eventId);
    const { createdAt } = await t.one<{ createdAt: Date }>(
      'SELECT created_at AS "createdAt" FROM events WHERE id = $1',
      [eventId],
    );
    expect(WebhookReceiver.verify(received, secret)).toEqual({
      id: eventId,
      object: 'event',
      type: 'user.created',
      created: createdAt.toISOString(),
      data: {
        object: {
          groupID: groupId,
          userIdentifier: `ok_${'a'.repeat(48)}`,
          email: 'ana@example.com',
        },
      },
    });
    const row = await deliveryOf(eventId);
    expect(row).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 204,
      lastError: null,
      delivered: true,
      leased: false,
    });
    expect(await attemptsOf(row.id)).toEqual([
      { statusCode: 204, error: null, responseExcerpt: '' },
    ]);
    expect(await endpointState(endpointId)).toEqual({ status: 'enabled', failing: false });
    expect(counted).toEqual(['delivered']);
    expect(warned()).toEqual([]);
  });

  it('during a rotation both secrets sign; once the previous one has expired, only the new one', async () => {
    const { groupId, endpointId, secret: old } = await endpointAt();
    const { secret: current } = await s.webhooks.rotateSecret(acme, groupId, endpointId);
    await userCreated(groupId);
    await sendDue();
    const [during] = receiver.received;
    expect([verifiedBy(during, old), verifiedBy(during, current)]).toEqual([true, true]);
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);

    await t.rows(
      `UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second'
        WHERE id = $1`,
      [endpointId],
    );
    await userCreated(groupId);
    await sendDue();
    const after = receiver.received[1];
    expect([verifiedBy(after, old), verifiedBy(after, current)]).toEqual([false, true]);
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
  });

  it('a secret rotated between two sends of one worker signs the next: opened secrets are kept by ciphertext, not by endpoint', async () => {
    const { groupId, endpointId, secret: old } = await endpointAt();
    await userCreated(groupId);
    await sendDue();
    expect(verifiedBy(receiver.received[0], old)).toBe(true);

    const { secret: current } = await s.webhooks.rotateSecret(acme, groupId, endpointId);
    await userCreated(groupId);
    await sendDue();
    const after = receiver.received[1];
    expect([verifiedBy(after, old), verifiedBy(after, current)]).toEqual([true, true]);
  });

  it("410: failed, the endpoint disabled and its other pending deliveries cancelled; another endpoint's in the batch delivered", async () => {
    const gone = await endpointAt();
    const other = new WebhookReceiver();
    await other.start();
    try {
      const fine = await endpointAt(`${other.url}/fine`);
      const first = await userCreated(gone.groupId);
      const fineEvent = await userCreated(fine.groupId);
      // Another delivery of the gone endpoint, not due yet: cancelled too.
      const later = await userCreated(gone.groupId);
      await t.rows(
        `UPDATE webhook_deliveries SET next_attempt_at = now() + interval '1 hour'
          WHERE event_id = $1`,
        [later],
      );
      receiver.replies.push({ status: 410, body: 'gone' });
      await sendDue();

      expect(await deliveryOf(first)).toMatchObject({
        status: 'failed',
        attempts: 1,
        lastStatusCode: 410,
        lastError: 'endpoint answered 410 Gone',
        delivered: false,
      });
      expect(await deliveryOf(later)).toMatchObject({ status: 'cancelled', attempts: 0 });
      expect(await endpointState(gone.endpointId)).toMatchObject({ status: 'disabled' });
      expect(await deliveryOf(fineEvent)).toMatchObject({ status: 'delivered', attempts: 1 });
      expect(await endpointState(fine.endpointId)).toEqual({ status: 'enabled', failing: false });
      expect(counted.sort()).toEqual(['delivered', 'gone']);
      // Nothing more is sent to it: the outbox skips a disabled endpoint.
      await userCreated(gone.groupId);
      expect(await leases.claimDue(100, LEASE_MS)).toEqual([]);
    } finally {
      await other.stop();
    }
  });

  describe('anything else is retried on the schedule, then fails', () => {
    const NOW = Date.parse('2026-11-20T10:00:00.000Z');

    it.each([
      [0, SCHEDULE_MS[0]],
      [1, SCHEDULE_MS[1]],
      [3, SCHEDULE_MS[3]],
      [7, SCHEDULE_MS[7]],
    ])(
      'after %i earlier attempts, a 500 is tried again %i ms later (±10 %%)',
      async (made, delayMs) => {
        const { groupId, endpointId } = await endpointAt();
        const eventId = await userCreated(groupId);
        await t.rows('UPDATE webhook_deliveries SET attempts = $2 WHERE event_id = $1', [
          eventId,
          made,
        ]);
        receiver.replies.push({ status: 500, body: 'x'.repeat(3_000) });
        await sendDue(NOW);
        const row = await deliveryOf(eventId);
        expect(row).toMatchObject({
          status: 'pending',
          attempts: made + 1,
          lastStatusCode: 500,
          lastError: 'endpoint answered 500',
          leased: false,
        });
        const wait = row.nextAttemptAt.getTime() - NOW;
        expect(wait).toBeGreaterThanOrEqual(Math.round(delayMs * 0.9));
        expect(wait).toBeLessThanOrEqual(Math.round(delayMs * 1.1));
        // The answer's excerpt is kept, 2 000 characters at most.
        expect(await attemptsOf(row.id)).toEqual([
          { statusCode: 500, error: null, responseExcerpt: 'x'.repeat(2_000) },
        ]);
        expect(await endpointState(endpointId)).toEqual({ status: 'enabled', failing: true });
        expect(counted).toEqual(['retry']);
      },
    );

    it.each([
      ['120', 120_000],
      ['0', 0],
      [new Date(NOW + 90_000).toUTCString(), 90_000],
      ['36000', RETRY_AFTER_CAP_MS],
    ])('Retry-After %s: tried again %i ms later', async (header, delayMs) => {
      const { groupId } = await endpointAt();
      const eventId = await userCreated(groupId);
      receiver.replies.push({ status: 503, headers: { 'retry-after': header } });
      await sendDue(NOW);
      expect(await deliveryOf(eventId)).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastStatusCode: 503,
        nextAttemptAt: new Date(NOW + delayMs),
      });
    });

    it('after the last delay of the schedule: failed, whatever Retry-After says', async () => {
      const { groupId } = await endpointAt();
      const eventId = await userCreated(groupId);
      await t.rows('UPDATE webhook_deliveries SET attempts = $2 WHERE event_id = $1', [
        eventId,
        SCHEDULE_MS.length,
      ]);
      const { nextAttemptAt } = await deliveryOf(eventId);
      receiver.replies.push({ status: 429, headers: { 'retry-after': '1' } });
      await sendDue(NOW);
      expect(await deliveryOf(eventId)).toMatchObject({
        status: 'failed',
        attempts: SCHEDULE_MS.length + 1,
        lastStatusCode: 429,
        lastError: 'endpoint answered 429',
        nextAttemptAt,
        delivered: false,
      });
      expect(counted).toEqual(['failed']);
      expect(warned()).toEqual([expect.stringContaining('no retry left: the delivery has failed')]);
    });
  });

  it('no answer: the fixed text is stored, the detail only logged, with the host and never the path or query', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { groupId, endpointId } = await endpointAt(
      `http://127.0.0.1:${port}/private/path?token=${RECEIVER_TOKEN}`,
    );
    const eventId = await userCreated(groupId);
    await sendDue();
    const row = await deliveryOf(eventId);
    expect(row).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatusCode: null,
      lastError: 'connection refused',
    });
    expect(await attemptsOf(row.id)).toEqual([
      { statusCode: null, error: 'connection refused', responseExcerpt: null },
    ]);
    const [line] = warned();
    expect(warned()).toHaveLength(1);
    expect(line).toContain(
      `Webhook delivery ${row.id} to endpoint ${endpointId} (host 127.0.0.1:${port}), attempt 1, failed: connection refused (ECONNREFUSED`,
    );
    expect(line).not.toContain('private');
    expect(line).not.toContain(RECEIVER_TOKEN);
  });

  it('an endpoint disabled by the time of sending: cancelled, nothing sent, not counted as an attempt', async () => {
    const { groupId, endpointId } = await endpointAt();
    await s.webhooks.update(acme, groupId, endpointId, { status: 'disabled' });
    // A test event is written for its endpoint whatever its status.
    const { eventId } = await s.webhooks.sendTest(acme, groupId, endpointId);
    await sendDue();
    const row = await deliveryOf(eventId);
    expect(row).toMatchObject({
      status: 'cancelled',
      attempts: 0,
      lastError: 'endpoint disabled',
      leased: false,
    });
    expect(await attemptsOf(row.id)).toEqual([]);
    expect(receiver.received).toEqual([]);
    expect(counted).toEqual([]);
  });

  describe('an endpoint failing continuously', () => {
    const disableAfterHours = 120;

    it(`for ${disableAfterHours} h is disabled at its next failure, its pending deliveries cancelled`, async () => {
      const { groupId, endpointId } = await endpointAt();
      await t.rows(
        `UPDATE webhook_endpoints SET failing_since = now() - $2 * interval '1 hour' WHERE id = $1`,
        [endpointId, disableAfterHours],
      );
      const eventId = await userCreated(groupId);
      receiver.replies.push({ status: 500 });
      await sendDue();
      expect(await endpointState(endpointId)).toMatchObject({ status: 'disabled' });
      expect(await deliveryOf(eventId)).toMatchObject({ status: 'cancelled', attempts: 1 });
      expect(warned()).toContain(
        `Webhook endpoint ${endpointId} failed continuously and was disabled`,
      );
    });

    it('for less stays enabled, its delivery retried', async () => {
      const { groupId, endpointId } = await endpointAt();
      await t.rows(
        `UPDATE webhook_endpoints
            SET failing_since = now() - $2 * interval '1 hour' + interval '1 minute' WHERE id = $1`,
        [endpointId, disableAfterHours],
      );
      const eventId = await userCreated(groupId);
      receiver.replies.push({ status: 500 });
      await sendDue();
      expect(await endpointState(endpointId)).toEqual({ status: 'enabled', failing: true });
      expect(await deliveryOf(eventId)).toMatchObject({ status: 'pending', attempts: 1 });
    });
  });
});
