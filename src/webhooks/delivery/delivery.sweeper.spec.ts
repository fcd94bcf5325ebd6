/**
 * DeliverySweeper: a NOTIFY (new deliveries committed) wakes this process's pump at once, even
 * while a sweep is in progress, instead of after it (docs/performance.md, commit-to-receipt).
 */
import type { Queue } from 'bull';
import type { DeliverJob } from '../webhook-queue';
import type { AppConfig } from '../../config/config';
import type { DeliveryLeaseRepository } from './delivery-lease.repository';
import type { DeliveryPump } from './delivery-pump';
import { DeliverySweeper } from './delivery.sweeper';

describe('DeliverySweeper', () => {
  it('wakes the pump on a NOTIFY that arrives during a sweep', () => {
    const pump = { wake: jest.fn() };
    // A sweep that never ends: its due-delivery query hangs.
    const deliveries = { takeDue: jest.fn(() => new Promise(() => undefined)) };
    const config = { database: { url: 'postgres://unused' }, webhooks: { sweepIntervalMs: 1_000 } };
    const sweeper = new DeliverySweeper(
      deliveries as unknown as DeliveryLeaseRepository,
      pump as unknown as DeliveryPump,
      {} as Queue<DeliverJob>,
      config as unknown as AppConfig,
    );
    sweeper.sweep();
    expect(pump.wake).toHaveBeenCalledTimes(1);
    (sweeper as unknown as { notified(): void }).notified();
    expect(pump.wake).toHaveBeenCalledTimes(2);
    expect(deliveries.takeDue).toHaveBeenCalledTimes(1);
  });
});
