import { Module } from '@nestjs/common';
import { ProcessMeasurements } from './process-measurements';
import { Readiness } from './readiness';

/**
 * What the operations port serves from the application (docs/operations.md, "Monitoring"): the
 * readiness checks and the process's own figures. The API and the worker import it while their
 * operations port is on; the port itself (OpsServer) is opened by their entry points.
 */
@Module({ providers: [Readiness, ProcessMeasurements], exports: [Readiness] })
export class OperationsModule {}
