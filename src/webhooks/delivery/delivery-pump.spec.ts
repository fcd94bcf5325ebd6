import type { AppConfig } from '../../config/config';
import { DELIVERY_CONCURRENCY } from '../webhook-queue';
import type { ClaimedDelivery, DeliveryLeaseRepository } from './delivery-lease.repository';
import { DeliveryPump } from './delivery-pump';
import type { DeliveryService, SentDelivery } from './delivery.service';

const delivery = (id: number) => ({ id: `d${id}`, endpointId: 'we_1' }) as ClaimedDelivery;

/** A due list served by claimDue, sends that take `sendMs`, and every recorded batch. */
function harness(due: number, sendMs = 2) {
  const queue = Array.from({ length: due }, (_, i) => delivery(i));
  const leases: number[] = [];
  const batches: string[][] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const repository = {
    claimDue: (limit: number) => {
      leases.push(limit);
      return Promise.resolve(queue.splice(0, limit));
    },
  } as unknown as DeliveryLeaseRepository;
  const service = {
    send: async (claimed: ClaimedDelivery): Promise<SentDelivery> => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, sendMs));
      inFlight -= 1;
      return {
        delivery: claimed,
        result: 'delivered',
        outcome: {
          deliveryId: claimed.id,
          status: 'delivered',
          statusCode: 200,
          error: null,
          countsAsAttempt: true,
        },
      };
    },
    finishBatch: (sent: SentDelivery[]) => {
      batches.push(sent.map((entry) => entry.delivery.id));
      return Promise.resolve();
    },
  } as unknown as DeliveryService;
  const config = { webhooks: { timeoutMs: 15_000 } } as AppConfig;
  const pump = new DeliveryPump(repository, service, config);
  return { pump, leases, batches, maxInFlight: () => maxInFlight, queue };
}

describe('DeliveryPump', () => {
  it('sends every due delivery once, never more than DELIVERY_CONCURRENCY at a time, leasing and recording in batches', async () => {
    const h = harness(500);
    h.pump.wake();
    h.pump.wake(); // a second wake-up while leasing changes nothing
    // It runs on its own until nothing is due.
    const deadline = Date.now() + 5_000;
    while (h.batches.flat().length < 500 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await h.pump.stop();
    const recorded = h.batches.flat();
    expect(recorded).toHaveLength(500);
    expect(new Set(recorded).size).toBe(500);
    expect(h.maxInFlight()).toBeLessThanOrEqual(DELIVERY_CONCURRENCY);
    expect(h.maxInFlight()).toBe(DELIVERY_CONCURRENCY);
    // Far fewer statements than deliveries, each batch at most 50 outcomes.
    expect(h.leases.length).toBeLessThanOrEqual(500 / (DELIVERY_CONCURRENCY / 2) + 2);
    expect(Math.min(...h.leases)).toBeGreaterThanOrEqual(DELIVERY_CONCURRENCY / 2);
    expect(h.batches.length).toBeLessThan(60);
    expect(Math.max(...h.batches.map((batch) => batch.length))).toBeLessThanOrEqual(50);
  });

  it('stop() waits for sends in flight, writes their outcomes, and leases nothing more', async () => {
    const h = harness(100, 30);
    h.pump.wake();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await h.pump.stop();
    const recorded = h.batches.flat();
    // What was leased was sent and recorded; the rest stays due for another worker.
    expect(recorded.length + h.queue.length).toBe(100);
    expect(h.queue.length).toBeGreaterThan(0);
    h.pump.wake();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(h.batches.flat()).toHaveLength(recorded.length);
  });
});
