/**
 * What the operations port serves from an application (opsTargetsOf): the application's own
 * Prometheus registry, and a readiness that runs the application's check afresh at every
 * `/readyz` (never a remembered answer).
 */
import type { INestApplicationContext } from '@nestjs/common';
import { Measurements } from '../common/measurements/measurements';
import { opsTargetsOf } from './ops-targets';
import { Readiness, type ReadinessReport } from './readiness';

const report = (status: ReadinessReport['status']): ReadinessReport => ({
  status,
  checks: {
    postgresql: status === 'ready' ? 'ok' : 'unavailable',
    redis: 'ok',
    shutdown: 'running',
  },
});

describe('opsTargetsOf', () => {
  it("serves the application's registry and asks its readiness at every call", async () => {
    const measurements = new Measurements();
    const check = jest
      .fn<Promise<ReadinessReport>, []>()
      .mockResolvedValueOnce(report('ready'))
      .mockResolvedValueOnce(report('not ready'));
    const providers = new Map<unknown, unknown>([
      [Measurements, measurements],
      [Readiness, { check }],
    ]);
    const app = { get: (token: unknown) => providers.get(token) } as INestApplicationContext;

    const targets = opsTargetsOf(app);
    expect(targets.registry).toBe(measurements.registry);
    expect(check).not.toHaveBeenCalled();
    expect(await targets.readiness()).toEqual(report('ready'));
    expect(await targets.readiness()).toEqual(report('not ready'));
    expect(check).toHaveBeenCalledTimes(2);
  });
});
