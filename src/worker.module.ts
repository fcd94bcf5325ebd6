import { DynamicModule, Module } from '@nestjs/common';
import { opsPortOf, type AppConfig } from './config/config';
import { LifecycleModule } from './common/lifecycle/shutdown-state';
import { CoreModule } from './core.module';
import { ProgrammeCensusModule } from './enterprises/programme/programme-census';
import { DataKeysModule } from './data-at-rest/data-keys.module';
import { EMAIL_QUEUE } from './interact/email-queue';
import { EmailWorkerModule } from './interact/sending/email-worker.module';
import { bullRoot } from './queues/bull-root';
import { RetentionWorkerModule } from './data-at-rest/retention-worker.module';
import { MetricReleaseWorkerModule } from './metrics/windows/metric-release-worker.module';
import { OperationsModule } from './operations/operations.module';
import { WebhookDeliveryWorkerModule } from './webhooks/delivery/delivery-worker.module';
import { WEBHOOK_QUEUE } from './webhooks/webhook-queue';

/**
 * Every queue consumer, each a module of its own (its processor and the sweeper that feeds it):
 * the worker process runs them all; the API process imports them only with RUN_WORKERS=true.
 */
export const QUEUE_WORKER_MODULES = [WebhookDeliveryWorkerModule, EmailWorkerModule];

/**
 * Everything a worker runs: the queue consumers, and the periodic sweeps that consume no queue
 * (data at rest: transcript encryption and retention; the release of group metrics' windows).
 */
export const WORKER_MODULES = [
  ...QUEUE_WORKER_MODULES,
  RetentionWorkerModule,
  MetricReleaseWorkerModule,
];

/** The queues those modules consume. */
export const WORKER_QUEUES = [WEBHOOK_QUEUE, EMAIL_QUEUE];

/**
 * The worker process: queue consumers and sweeps only, no HTTP API, no controllers, no pages;
 * its operations port (docs/operations.md) is opened by worker.ts.
 */
@Module({})
export class WorkerModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        CoreModule.register(config),
        LifecycleModule,
        bullRoot(config),
        ...WORKER_MODULES,
        ProgrammeCensusModule,
        DataKeysModule,
        ...(opsPortOf(config, 'worker') !== 0 ? [OperationsModule] : []),
      ],
    };
  }
}
