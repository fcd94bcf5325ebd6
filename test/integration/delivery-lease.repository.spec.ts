/**
 * DeliveryLeaseRepository against real PostgreSQL: the sweeper's take (SKIP LOCKED, queued_at
 * stamps), the workers' lease, each attempt's outcome and the endpoint's failure streak.
 */
import { randomUUID } from 'node:crypto';
import {
  ClaimedDelivery,
  DELIVERY_BACKLOG,
  DeliveryLeaseRepository,
} from '../../src/webhooks/delivery/delivery-lease.repository';
import { sleep, sortedIds, TestDatabase, WebhookWorld } from './support';

const LEASE_MS = 60_000;
const RECHECK_MS = 60_000;
/** A request's trace context, as the outbox stores it (docs/operations.md, "Traces"). */
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

const idsOf = (rows: readonly { id: string }[]): (string | null)[] =>
  sortedIds(rows.map((row) => row.id));

describe('DeliveryLeaseRepository (PostgreSQL)', () => {
  let t: TestDatabase;
  let repo: DeliveryLeaseRepository;
  let world: WebhookWorld;

  beforeAll(async () => {
    t = await TestDatabase.create();
    repo = new DeliveryLeaseRepository(t.db);
    world = await t.webhookWorld();
  });
  afterAll(() => t.close());
  // takeDue and claimDue scan every delivery: each test starts with none.
  beforeEach(() => t.rows('DELETE FROM webhook_deliveries'));

  /** Leases whatever is due (a worker's batch) and answers `id`'s lease, or null. */
  const claim = async (id: string, by = repo) =>
    (await by.claimDue(100, LEASE_MS)).find((delivery) => delivery.id === id) ?? null;
  /** Leases this one delivery, as a worker's batch would have. */
  const lease = (id: string) =>
    t.rows(
      `UPDATE webhook_deliveries SET locked_until = now() + interval '1 minute', queued_at = NULL,
              queue_job_id = NULL WHERE id = $1`,
      [id],
    );
  /** Leases the oldest due delivery, or null. */
  const claimNext = async (by = repo) => (await by.claimDue(1, LEASE_MS))[0] ?? null;
  const failed = async (endpointId: string, disableAfterMs: number) =>
    (await repo.endpointsFailed([endpointId], disableAfterMs)).includes(endpointId);

  describe('takeDue', () => {
    it('takes pending, due, unleased deliveries not queued lately, oldest first, at most `limit`, and stamps them', async () => {
      const oldest = await t.delivery(world, { dueInMs: -30_000 });
      const leaseEnded = await t.delivery(world, { dueInMs: -20_000, lockedForMs: -1_000 });
      const queuedLongAgo = await t.delivery(world, {
        dueInMs: -10_000,
        queuedAgoMs: RECHECK_MS + 5_000,
        queueJobId: 'deliver:old',
      });
      const newest = await t.delivery(world, { dueInMs: -1_000 });
      // Never taken: not due, leased, queued lately, or no longer pending.
      await t.delivery(world, { dueInMs: 60_000 });
      await t.delivery(world, { dueInMs: -40_000, lockedForMs: 30_000 });
      const queuedLately = await t.delivery(world, {
        dueInMs: -40_000,
        queuedAgoMs: 1_000,
        queueJobId: 'deliver:recent',
      });
      for (const status of ['delivered', 'failed', 'cancelled'] as const) {
        await t.delivery(world, { status, dueInMs: -50_000 });
      }

      const taken = await repo.takeDue(3, RECHECK_MS);
      expect(idsOf(taken)).toEqual(sortedIds([oldest, leaseEnded, queuedLongAgo]));
      expect(taken.find((row) => row.id === queuedLongAgo)?.queueJobId).toBe('deliver:old');
      expect(taken.find((row) => row.id === oldest)?.queueJobId).toBeNull();

      // The stamp: taken rows were queued just now; nothing else was touched.
      const stamped = await t.rows<{ id: string }>(
        `SELECT id FROM webhook_deliveries WHERE queued_at > now() - interval '1 second'`,
      );
      expect(idsOf(stamped)).toEqual(sortedIds([oldest, leaseEnded, queuedLongAgo]));
      expect(await t.deliveryRow(leaseEnded)).toMatchObject({ status: 'pending', leased: false });
      expect((await t.deliveryRow(queuedLately)).queueJobId).toBe('deliver:recent');

      // What is left, then nothing: the stamp keeps taken rows out.
      expect(await repo.takeDue(10, RECHECK_MS)).toEqual([{ id: newest, queueJobId: null }]);
      expect(await repo.takeDue(10, RECHECK_MS)).toEqual([]);
    });

    it('gives a taken delivery back after recheckAfterMs, with the job the sweep recorded', async () => {
      const id = await t.delivery(world);
      expect(await repo.takeDue(10, RECHECK_MS)).toEqual([{ id, queueJobId: null }]);
      await repo.recordQueued([{ id, jobId: 'deliver:1' }]);
      expect(await repo.takeDue(10, RECHECK_MS)).toEqual([]);

      // Queued two seconds ago.
      await t.rows(
        `UPDATE webhook_deliveries SET queued_at = queued_at - interval '2 seconds' WHERE id = $1`,
        [id],
      );
      expect(await repo.takeDue(10, 5_000)).toEqual([]);
      expect(await repo.takeDue(10, 1_000)).toEqual([{ id, queueJobId: 'deliver:1' }]);
      expect(await repo.takeDue(10, 1_000)).toEqual([]);
    });

    it('skips a row another transaction holds instead of waiting for it (SKIP LOCKED)', async () => {
      const [first, second, third] = await t.dueDeliveries(world, 3);
      const taken = await t.whileRowLocked('webhook_deliveries', first, () =>
        repo.takeDue(10, RECHECK_MS),
      );
      expect(idsOf(taken)).toEqual(sortedIds([second, third]));
      expect(await repo.takeDue(10, RECHECK_MS)).toEqual([{ id: first, queueJobId: null }]);
    });

    it('concurrent sweepers take disjoint sets that together are every due row, once', async () => {
      const due = await t.dueDeliveries(world, 1_200);
      const sweepers = await Promise.all(
        [1, 2, 3, 4].map(async () => new DeliveryLeaseRepository(await t.openDatabase(1))),
      );
      const takes = await Promise.all(sweepers.map((sweeper) => sweeper.takeDue(400, RECHECK_MS)));
      const taken = takes.flat().map((row) => row.id);
      for (const take of takes) expect(take.length).toBeLessThanOrEqual(400);
      expect(new Set(taken).size).toBe(taken.length);
      expect(sortedIds(taken)).toEqual(sortedIds(due));
      expect(await repo.takeDue(10, RECHECK_MS)).toEqual([]);
    });
  });

  describe('backlog', () => {
    it('is zero with nothing pending', async () => {
      await t.delivery(world, { status: 'delivered', dueInMs: -600_000, createdInMs: -600_000 });
      expect(await repo.backlog()).toEqual({
        pending: 0,
        due: 0,
        oldestDueSeconds: 0,
        oldestPendingSeconds: 0,
      });
    });

    it('counts pending deliveries, due or waiting, leased or not, and the ages of the oldest', async () => {
      // Due 5 min ago (created 20 min ago), due 1 min ago and leased, waiting for a retry in
      // an hour (created 30 min ago); final ones do not count, however old.
      await t.delivery(world, { dueInMs: -300_000, createdInMs: -1_200_000 });
      await t.delivery(world, { dueInMs: -60_000, lockedForMs: 60_000 });
      await t.delivery(world, { dueInMs: 3_600_000, createdInMs: -1_800_000, attempts: 1 });
      for (const status of ['delivered', 'failed', 'cancelled'] as const) {
        await t.delivery(world, { status, dueInMs: -7_200_000, createdInMs: -7_200_000 });
      }
      const backlog = await repo.backlog();
      expect(backlog).toMatchObject({ pending: 3, due: 2 });
      expect(backlog.oldestDueSeconds).toBeGreaterThanOrEqual(300);
      expect(backlog.oldestDueSeconds).toBeLessThan(310);
      expect(backlog.oldestPendingSeconds).toBeGreaterThanOrEqual(1_800);
      expect(backlog.oldestPendingSeconds).toBeLessThan(1_810);
    });

    it('reads the partial indexes of pending deliveries, not the table', async () => {
      // The plan of the statement as it runs, on a table of 20 000 final deliveries and a few
      // pending ones (docs/operations.md: cheap at any size).
      await t.rows(
        `INSERT INTO events (id, enterprise_id, group_id, type, payload)
         SELECT 'evt_' || lpad(to_hex(n), 48, '0'), $1, $2, 'session.completed', '{}'
           FROM generate_series(1, 20000) AS n`,
        [world.enterpriseId, world.groupId],
      );
      await t.rows(
        `INSERT INTO webhook_deliveries (event_id, endpoint_id, status)
         SELECT 'evt_' || lpad(to_hex(n), 48, '0'), $1,
                CASE WHEN n % 1000 = 0 THEN 'pending' ELSE 'delivered' END
           FROM generate_series(1, 20000) AS n`,
        [world.endpointId],
      );
      await t.rows('ANALYZE webhook_deliveries');
      const plan = (await t.rows<{ 'QUERY PLAN': string }>(`EXPLAIN ${DELIVERY_BACKLOG}`))
        .map((row) => row['QUERY PLAN'])
        .join('\n');
      const scans = plan.split('\n').filter((line) => line.includes(' on webhook_deliveries'));
      expect(scans).toHaveLength(2);
      for (const scan of scans) {
        expect(scan).toMatch(
          /Index (Only )?Scan using webhook_deliveries_(due|pending_created)_idx/,
        );
      }
      expect(plan).toContain('webhook_deliveries_pending_created_idx');
      expect(plan).not.toContain('Seq Scan');
      expect((await repo.backlog()).pending).toBe(20);
    });
  });

  describe('recordQueued', () => {
    it('stores job ids, clears queued_at for a null job id, and leaves rows no longer pending alone', async () => {
      const queued = await t.delivery(world, { dueInMs: -3_000 });
      const lost = await t.delivery(world, {
        dueInMs: -2_000,
        queuedAgoMs: RECHECK_MS + 1_000,
        queueJobId: 'deliver:stale',
      });
      const delivered = await t.delivery(world, { status: 'delivered', queuedAgoMs: 5_000 });
      expect(idsOf(await repo.takeDue(10, RECHECK_MS))).toEqual(sortedIds([queued, lost]));
      const stamp = (await t.deliveryRow(queued)).queuedAt;
      const deliveredBefore = await t.deliveryRow(delivered);

      await repo.recordQueued([
        { id: queued, jobId: 'deliver:a' },
        { id: lost, jobId: null },
        { id: delivered, jobId: 'deliver:late' },
      ]);

      expect(await t.deliveryRow(queued)).toMatchObject({
        queueJobId: 'deliver:a',
        queuedAt: stamp,
      });
      expect(await t.deliveryRow(lost)).toMatchObject({ queueJobId: null, queuedAt: null });
      expect(await t.deliveryRow(delivered)).toEqual(deliveredBefore);
      // Taken again at once; the one with a job is not.
      expect(await repo.takeDue(10, RECHECK_MS)).toEqual([{ id: lost, queueJobId: null }]);
      await expect(repo.recordQueued([])).resolves.toBeUndefined();
    });

    it('skips a row another transaction holds instead of waiting for it (no deadlock with finishMany)', async () => {
      // A pump writing the outcome of a delivery the sweep had taken holds its row; recordQueued
      // waiting for it while holding the batch's other rows deadlocked with finishMany.
      const [held, free] = await t.dueDeliveries(world, 2);
      expect(idsOf(await repo.takeDue(10, RECHECK_MS))).toEqual(sortedIds([held, free]));
      await t.whileRowLocked('webhook_deliveries', held, () =>
        repo.recordQueued([
          { id: held, jobId: 'deliver:held' },
          { id: free, jobId: 'deliver:free' },
        ]),
      );
      expect((await t.deliveryRow(free)).queueJobId).toBe('deliver:free');
      expect((await t.deliveryRow(held)).queueJobId).toBeNull();
    });
  });

  describe('claimDue: one delivery', () => {
    it('leases a due delivery and answers its endpoint and event', async () => {
      const endpointId = await t.endpoint(world.enterpriseId, world.groupId, {
        url: 'https://hooks.example.com/claimed',
        secretCiphertext: 'secret-now',
      });
      const previousExpiresAt = new Date('2031-05-06T07:08:09.123Z');
      await t.rows(
        `UPDATE webhook_endpoints
            SET previous_secret_ciphertext = 'secret-before', previous_secret_expires_at = $2
          WHERE id = $1`,
        [endpointId, previousExpiresAt],
      );
      const eventId = await t.event(world.enterpriseId, world.groupId, {
        type: 'participant.joined',
        payload: { groupID: world.groupId, nested: { b: 1, a: [true, null] } },
        encryptedPii: 'pii-cipher',
        traceContext: { traceparent: TRACEPARENT },
      });
      const { id, deliveryCreatedAt } = await t.one<{ id: string; deliveryCreatedAt: Date }>(
        `INSERT INTO webhook_deliveries (event_id, endpoint_id, attempts, next_attempt_at,
                                         queued_at, queue_job_id)
         VALUES ($1, $2, 2, now() - interval '1 second', now(), 'deliver:x')
         RETURNING id, created_at AS "deliveryCreatedAt"`,
        [eventId, endpointId],
      );
      const { createdAt } = await t.one<{ createdAt: Date }>(
        'SELECT created_at AS "createdAt" FROM events WHERE id = $1',
        [eventId],
      );

      const claimed = await claim(id);

      expect(claimed).toEqual<ClaimedDelivery>({
        id,
        attempts: 2,
        endpointId,
        eventId,
        createdAt: deliveryCreatedAt,
        url: 'https://hooks.example.com/claimed',
        secretCiphertext: 'secret-now',
        previousSecretCiphertext: 'secret-before',
        previousSecretExpiresAt: previousExpiresAt,
        failingSince: null,
        endpointStatus: 'enabled',
        eventType: 'participant.joined',
        eventPayload: { groupID: world.groupId, nested: { b: 1, a: [true, null] } },
        eventPii: 'pii-cipher',
        eventCreatedAt: createdAt,
        eventTraceContext: { traceparent: TRACEPARENT },
      });
      expect(claimed?.eventCreatedAt).toBeInstanceOf(Date);
      expect(await t.deliveryRow(id)).toMatchObject({
        status: 'pending',
        attempts: 2,
        leased: true,
        queuedAt: null,
        queueJobId: null,
      });
      const remaining = await t.leaseRemainingMs(id);
      expect(remaining).toBeGreaterThan(LEASE_MS - 5_000);
      expect(remaining).toBeLessThanOrEqual(LEASE_MS);
    });

    it('answers null to a second claim while the lease holds, and leases again once it has ended', async () => {
      const id = await t.delivery(world, { attempts: 1 });
      expect((await claim(id))?.id).toBe(id);
      expect(await claim(id)).toBeNull();
      await t.expireLease(id);
      const again = await claim(id);
      expect(again).toMatchObject({ id, attempts: 1 });
      expect(await claim(id)).toBeNull();
    });

    it('gives one delivery to exactly one of 20 concurrent claims', async () => {
      const id = await t.delivery(world);
      const workers = new DeliveryLeaseRepository(await t.openDatabase(20));
      const results = await Promise.all(Array.from({ length: 20 }, () => claim(id, workers)));
      const winners = results.filter((result): result is ClaimedDelivery => result !== null);
      expect(winners.map((winner) => winner.id)).toEqual([id]);
    });

    it('does not claim a delivery that is not due, not pending, leased, or unknown', async () => {
      const refused = [
        await t.delivery(world, { dueInMs: 60_000 }),
        await t.delivery(world, { lockedForMs: 30_000 }),
        await t.delivery(world, { status: 'delivered' }),
        await t.delivery(world, { status: 'failed' }),
        await t.delivery(world, { status: 'cancelled' }),
      ];
      for (const id of refused) {
        const before = await t.deliveryRow(id);
        expect(await claim(id)).toBeNull();
        expect(await t.deliveryRow(id)).toEqual(before);
      }
      expect(await claim(randomUUID())).toBeNull();
    });
  });

  describe('claimDue: oldest first, a batch', () => {
    it('leases the oldest due delivery nobody holds', async () => {
      await t.delivery(world, { dueInMs: -60_000, status: 'failed' });
      await t.delivery(world, { dueInMs: -50_000, lockedForMs: 30_000 });
      await t.delivery(world, { dueInMs: 10_000 });
      const leaseEnded = await t.delivery(world, { dueInMs: -40_000, lockedForMs: -1 });
      const younger = await t.delivery(world, { dueInMs: -30_000 });

      const first = await claimNext();
      expect(first).toMatchObject({
        id: leaseEnded,
        endpointId: world.endpointId,
        url: 'https://hooks.example.com/in',
        eventType: 'session.completed',
        endpointStatus: 'enabled',
      });
      expect(await t.deliveryRow(leaseEnded)).toMatchObject({ leased: true });
      expect((await claimNext())?.id).toBe(younger);
      expect(await claimNext()).toBeNull();
    });

    it('skips a delivery another transaction holds (SKIP LOCKED)', async () => {
      const [first, second] = await t.dueDeliveries(world, 2);
      const claimed = await t.whileRowLocked('webhook_deliveries', first, () => claimNext());
      expect(claimed?.id).toBe(second);
      expect(await t.deliveryRow(first)).toMatchObject({ leased: false });
    });

    it('leases at most `limit` at once, oldest first, and the rest on the next call', async () => {
      const due = await t.dueDeliveries(world, 5);
      const first = await repo.claimDue(3, LEASE_MS);
      const second = await repo.claimDue(3, LEASE_MS);
      expect(first).toHaveLength(3);
      expect(second).toHaveLength(2);
      expect(sortedIds([...first, ...second].map((delivery) => delivery.id))).toEqual(
        sortedIds(due),
      );
      expect(await repo.claimDue(3, LEASE_MS)).toEqual([]);
    });

    it('concurrent batches are disjoint and together every due delivery (4 callers × 10, 30 due)', async () => {
      const workers = new DeliveryLeaseRepository(await t.openDatabase(4));
      const due = await t.dueDeliveries(world, 30);
      const batches = await Promise.all(
        Array.from({ length: 4 }, () => workers.claimDue(10, LEASE_MS)),
      );
      const leased = batches.flat().map((delivery) => delivery.id);
      expect(new Set(leased).size).toBe(leased.length);
      expect(sortedIds(leased)).toEqual(sortedIds(due));
    });

    it('never gives one delivery to two concurrent callers (10 callers, 10 due, 3 rounds)', async () => {
      const workers = new DeliveryLeaseRepository(await t.openDatabase(10));
      for (let round = 0; round < 3; round += 1) {
        await t.rows('DELETE FROM webhook_deliveries');
        const due = await t.dueDeliveries(world, 10);
        const results = await Promise.all(Array.from({ length: 10 }, () => claimNext(workers)));
        expect(sortedIds(results.map((result) => result?.id ?? null))).toEqual(sortedIds(due));
        expect(await claimNext()).toBeNull();
      }
    });
  });

  describe('finish', () => {
    const attempt = (statusCode: number | null, error: string | null) => ({
      startedAt: new Date(Date.now() - 1_500),
      durationMs: 1_234,
      statusCode,
      error,
      responseExcerpt: statusCode === null ? null : `answered ${statusCode}`,
    });

    it('finishMany with the lease: a delivery redelivered on request during its send stays pending and due', async () => {
      const [sending, untouched] = await t.dueDeliveries(world, 2);
      await repo.claimDue(10, LEASE_MS);
      await new Promise((resolve) => setTimeout(resolve, 20));
      // POST …/redeliver while the worker sends: pending, due now, the lease kept.
      await t.rows(
        "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now() WHERE id = $1",
        [sending],
      );
      const delivered = (deliveryId: string) => ({
        deliveryId,
        status: 'delivered' as const,
        statusCode: 200,
        error: null,
        countsAsAttempt: true,
        attempt: attempt(200, null),
      });
      await repo.finishMany([delivered(sending), delivered(untouched)], LEASE_MS);
      expect(await t.deliveryRow(sending)).toMatchObject({
        status: 'pending',
        attempts: 1,
        leased: false,
      });
      expect(await t.deliveryRow(untouched)).toMatchObject({ status: 'delivered', leased: false });
      expect((await claimNext())?.id).toBe(sending);
    });

    it('finishMany drops the outcome of a delivery whose endpoint was deleted meanwhile, and records the rest', async () => {
      const [kept] = await t.dueDeliveries(world, 1);
      const other = await t.webhookWorld();
      const [gone] = await t.dueDeliveries(other, 1);
      await repo.claimDue(10, LEASE_MS);
      // The enterprise deletes the other endpoint while its delivery is being sent.
      await t.rows('DELETE FROM webhook_endpoints WHERE id = $1', [other.endpointId]);
      const outcome = (deliveryId: string) => ({
        deliveryId,
        status: 'delivered' as const,
        statusCode: 200,
        error: null,
        countsAsAttempt: true,
        attempt: attempt(200, null),
      });
      await repo.finishMany([outcome(gone), outcome(kept)]);
      expect(await t.deliveryRow(kept)).toMatchObject({ status: 'delivered', leased: false });
      expect((await t.attemptRows(kept)).length).toBe(1);
      expect(await t.attemptRows(gone)).toEqual([]);
    });

    it('finishMany ends a batch in one statement: each outcome its own, each attempt logged once', async () => {
      const [a, b, c] = await t.dueDeliveries(world, 3);
      await repo.claimDue(10, LEASE_MS);
      const next = new Date(Date.now() + 60_000);
      await repo.finishMany([
        {
          deliveryId: a,
          status: 'delivered',
          statusCode: 200,
          error: null,
          countsAsAttempt: true,
          attempt: attempt(200, null),
        },
        {
          deliveryId: b,
          status: 'pending',
          statusCode: 500,
          error: 'endpoint answered 500',
          nextAttemptAt: next,
          countsAsAttempt: true,
          attempt: attempt(500, null),
        },
        {
          deliveryId: c,
          status: 'cancelled',
          statusCode: null,
          error: 'endpoint disabled',
          countsAsAttempt: false,
        },
      ]);
      expect(await t.deliveryRow(a)).toMatchObject({ status: 'delivered', leased: false });
      expect(await t.deliveryRow(b)).toMatchObject({ status: 'pending', leased: false });
      expect(await t.deliveryRow(c)).toMatchObject({ status: 'cancelled', leased: false });
      const logged = await t.rows<{ delivery_id: string; status_code: number }>(
        'SELECT delivery_id, status_code FROM delivery_attempts WHERE delivery_id = ANY ($1::uuid[])',
        [[a, b, c]],
      );
      expect(logged.map((row) => [row.delivery_id, row.status_code]).sort()).toEqual(
        [
          [a, 200],
          [b, 500],
        ].sort(),
      );
    });

    it('a retry: pending again at nextAttemptAt, one more attempt, the attempt logged, the lease cleared', async () => {
      const id = await t.delivery(world, { attempts: 2 });
      const sibling = await t.delivery(world);
      const siblingBefore = await t.deliveryRow(sibling);
      await lease(id);
      const nextAttemptAt = new Date(Date.now() + 120_000);
      const made = attempt(503, null);

      await repo.finish(
        id,
        {
          status: 'pending',
          statusCode: 503,
          error: 'endpoint answered 503',
          nextAttemptAt,
          countsAsAttempt: true,
        },
        made,
      );

      expect(await t.deliveryRow(id)).toMatchObject({
        status: 'pending',
        attempts: 3,
        lastStatusCode: 503,
        lastError: 'endpoint answered 503',
        nextAttemptAt,
        lockedUntil: null,
        deliveredAt: null,
      });
      expect(await t.attemptRows(id)).toEqual([{ deliveryId: id, ...made }]);
      expect(await t.deliveryRow(sibling)).toEqual(siblingBefore);
      expect(await t.attemptRows(sibling)).toEqual([]);
    });

    it('delivered: delivered_at set, the last error cleared, next_attempt_at kept when none is given', async () => {
      const id = await t.delivery(world, { dueInMs: -5_000 });
      await t.rows(
        `UPDATE webhook_deliveries SET last_error = 'timeout', last_status_code = 500 WHERE id = $1`,
        [id],
      );
      const before = await t.deliveryRow(id);
      await lease(id);
      const made = attempt(200, null);

      await repo.finish(
        id,
        { status: 'delivered', statusCode: 200, error: null, countsAsAttempt: true },
        made,
      );

      expect(await t.deliveryRow(id)).toMatchObject({
        status: 'delivered',
        attempts: 1,
        lastStatusCode: 200,
        lastError: null,
        nextAttemptAt: before.nextAttemptAt,
        lockedUntil: null,
      });
      const [{ recent }] = await t.rows<{ recent: boolean }>(
        `SELECT delivered_at > now() - interval '5 seconds' AS recent
           FROM webhook_deliveries WHERE id = $1`,
        [id],
      );
      expect(recent).toBe(true);
      expect(await t.attemptRows(id)).toEqual([{ deliveryId: id, ...made }]);
    });

    it('failed: no delivered_at; each finish with an attempt logs exactly one row', async () => {
      const id = await t.delivery(world, { attempts: 4 });
      await lease(id);
      const retry = attempt(null, 'connect ECONNREFUSED');
      await repo.finish(
        id,
        {
          status: 'pending',
          statusCode: null,
          error: 'connect ECONNREFUSED',
          nextAttemptAt: new Date(Date.now() - 1_000),
          countsAsAttempt: true,
        },
        retry,
      );
      await lease(id);
      const last = attempt(500, null);
      await repo.finish(
        id,
        {
          status: 'failed',
          statusCode: 500,
          error: 'endpoint answered 500',
          countsAsAttempt: true,
        },
        last,
      );

      expect(await t.deliveryRow(id)).toMatchObject({
        status: 'failed',
        attempts: 6,
        lastStatusCode: 500,
        lastError: 'endpoint answered 500',
        lockedUntil: null,
        deliveredAt: null,
      });
      expect(await t.attemptRows(id)).toEqual([
        { deliveryId: id, ...retry },
        { deliveryId: id, ...last },
      ]);
    });

    it('without an attempt (cancelled, not counted): attempts unchanged, nothing logged', async () => {
      const id = await t.delivery(world, { attempts: 4 });
      await lease(id);
      await repo.finish(id, {
        status: 'cancelled',
        statusCode: null,
        error: 'endpoint disabled',
        countsAsAttempt: false,
      });
      expect(await t.deliveryRow(id)).toMatchObject({
        status: 'cancelled',
        attempts: 4,
        lastStatusCode: null,
        lastError: 'endpoint disabled',
        lockedUntil: null,
        deliveredAt: null,
      });
      expect(await t.attemptRows(id)).toEqual([]);
    });
  });

  describe("the endpoint's failure streak", () => {
    const failingSince = async (endpointId: string): Promise<Date | null> =>
      (
        await t.one<{ failingSince: Date | null }>(
          'SELECT failing_since AS "failingSince" FROM webhook_endpoints WHERE id = $1',
          [endpointId],
        )
      ).failingSince;

    it('starts once, and is expired only once it has lasted disableAfterMs', async () => {
      const endpointId = await t.endpoint(world.enterpriseId, world.groupId);
      expect(await failed(endpointId, 3_600_000)).toBe(false);
      const started = await failingSince(endpointId);
      expect(started).toBeInstanceOf(Date);
      await sleep(20);
      expect(await failed(endpointId, 3_600_000)).toBe(false);
      expect(await failingSince(endpointId)).toEqual(started);
      expect(await failed(endpointId, 0)).toBe(true);
      expect(await failingSince(endpointId)).toEqual(started);

      await t.rows(
        `UPDATE webhook_endpoints SET failing_since = now() - interval '2 hours' WHERE id = $1`,
        [endpointId],
      );
      expect(await failed(endpointId, 3 * 3_600_000)).toBe(false);
      expect(await failed(endpointId, 3_600_000)).toBe(true);

      const fresh = await t.endpoint(world.enterpriseId, world.groupId);
      expect(await failed(fresh, 0)).toBe(true);
      expect(await failed(randomUUID(), 0)).toBe(false);
    });

    it('ends with a success, on that endpoint only; the next failure starts a new streak', async () => {
      const endpointId = await t.endpoint(world.enterpriseId, world.groupId, {
        failingSinceAgoMs: 7_200_000,
      });
      const other = await t.endpoint(world.enterpriseId, world.groupId, {
        failingSinceAgoMs: 7_200_000,
      });
      const otherSince = await failingSince(other);
      expect(await failed(endpointId, 3_600_000)).toBe(true);

      await repo.endpointsSucceeded([endpointId]);
      expect(await failingSince(endpointId)).toBeNull();
      expect(await failingSince(other)).toEqual(otherSince);

      expect(await failed(endpointId, 3_600_000)).toBe(false);
      const [{ recent }] = await t.rows<{ recent: boolean }>(
        `SELECT failing_since > now() - interval '5 seconds' AS recent
           FROM webhook_endpoints WHERE id = $1`,
        [endpointId],
      );
      expect(recent).toBe(true);
    });

    it("disableEndpoint disables the endpoint and cancels only that endpoint's pending deliveries", async () => {
      const endpointId = await t.endpoint(world.enterpriseId, world.groupId);
      const other = await t.endpoint(world.enterpriseId, world.groupId);
      const mine = { ...world, endpointId };
      const pending = [
        await t.delivery(mine),
        await t.delivery(mine, { lockedForMs: 30_000 }),
        await t.delivery(mine, { dueInMs: 600_000 }),
      ];
      const delivered = await t.delivery(mine, { status: 'delivered' });
      const failed = await t.delivery(mine, { status: 'failed' });
      const othersPending = await t.delivery({ ...world, endpointId: other });
      const untouched = await Promise.all(
        [delivered, failed, othersPending].map((id) => t.deliveryRow(id)),
      );

      await repo.disableEndpoint(endpointId);

      const endpoints = await t.rows<{ id: string; status: string; touched: boolean }>(
        `SELECT id, status, updated_at > created_at AS touched
           FROM webhook_endpoints WHERE id = ANY($1) ORDER BY status`,
        [[endpointId, other]],
      );
      expect(endpoints).toEqual([
        { id: endpointId, status: 'disabled', touched: true },
        { id: other, status: 'enabled', touched: false },
      ]);
      for (const id of pending) {
        expect(await t.deliveryRow(id)).toMatchObject({ status: 'cancelled', lockedUntil: null });
      }
      expect(
        await Promise.all([delivered, failed, othersPending].map((id) => t.deliveryRow(id))),
      ).toEqual(untouched);
    });
  });
});
