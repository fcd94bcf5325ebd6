import type { INestApplicationContext } from '@nestjs/common';
import { Measurements } from '../common/measurements/measurements';
import type { OpsTargets } from './ops-server';
import { Readiness } from './readiness';

/** What the operations port serves from an application that imports OperationsModule. */
export function opsTargetsOf(app: INestApplicationContext): OpsTargets {
  const readiness = app.get(Readiness);
  return { registry: app.get(Measurements).registry, readiness: () => readiness.check() };
}
