/**
 * DeliverySweeper: a NOTIFY (new deliveries committed) wakes this process's pump at once, even
 * while a sweep is in progress, and starts no sweep: every worker listens itself, and the sweep's
 * jobs are for what a NOTIFY does not announce (docs/webhooks.md, "How delivery works").
 */
import type { Queue } from 'bull';
import type { DeliverJob } from '../webhook-queue';
import type { AppConfig } from '../../config/config';
import type { DeliveryLeaseRepository } from './delivery-lease.repository';
import type { DeliveryPump } from './delivery-pump';
import { DeliverySweeper } from './delivery.sweeper';

/** A sweeper over these fakes (no queue: a test that reaches it fails). */
function sweeperWith(deliveries: object, pump: object): DeliverySweeper {
  const config = { database: { url: 'postgres://unused' }, webhooks: { sweepIntervalMs: 1_000 } };
  return new DeliverySweeper(
    deliveries as DeliveryLeaseRepository,
    pump as DeliveryPump,
    {} as Queue<DeliverJob>,
    config as unknown as AppConfig,
  );
}

describe('DeliverySweeper', () => {
  it('wakes the pump on a NOTIFY that arrives during a sweep', () => {
    const pump = { wake: jest.fn() };
    // A sweep that never ends: its due-delivery query hangs.
    const deliveries = { takeDue: jest.fn(() => new Promise(() => undefined)) };
    const sweeper = sweeperWith(deliveries, pump);
    sweeper.sweep();
    expect(pump.wake).toHaveBeenCalledTimes(1);
    (sweeper as unknown as { notified(): void }).notified();
    expect(pump.wake).toHaveBeenCalledTimes(2);
    expect(deliveries.takeDue).toHaveBeenCalledTimes(1);
  });

  it('starts no sweep on a NOTIFY: the pump leases, no delivery is taken for a job', async () => {
    const pump = { wake: jest.fn() };
    const deliveries = { takeDue: jest.fn(() => Promise.resolve([])), recordQueued: jest.fn() };
    const sweeper = sweeperWith(deliveries, pump);
    for (let i = 0; i < 3; i++) (sweeper as unknown as { notified(): void }).notified();
    await new Promise((resolve) => setImmediate(resolve));
    expect(pump.wake).toHaveBeenCalledTimes(3);
    expect(deliveries.takeDue).not.toHaveBeenCalled();
  });
});
