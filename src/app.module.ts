import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { LifecycleModule } from './common/lifecycle/shutdown-state';
import { AllExceptionsFilter } from './common/http/all-exceptions.filter';
import { PublicRateLimitGuard } from './common/rate-limit/public-rate-limit.guard';
import { RateLimitGuard } from './common/rate-limit/rate-limit.guard';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { SpecValidationPipe } from './common/validation/spec-validation.pipe';
import { AppConfig, opsPortOf } from './config/config';
import { CoreModule } from './core.module';
import { DataKeysModule } from './data-at-rest/data-keys.module';
import { ApiKeyGuard } from './enterprises/api-key.guard';
import { EnterprisesModule } from './enterprises/enterprises.module';
import { ProgrammeCensusModule } from './enterprises/programme/programme-census';
import { EnterpriseApiModule } from './enterprises/enterprise.controller';
import { GroupsModule } from './groups/groups.module';
import { ParticipantsModule } from './participants/participants.module';
import { ErasureModule } from './erasure/erasure.module';
import { SessionsModule } from './sessions/sessions.module';
import { CheckinPagesModule } from './pages/checkin-pages.module';
import { PrivacyModule } from './privacy/privacy.module';
import { IngestionApiModule } from './ingestion/ingestion-api.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { OperationsModule } from './operations/operations.module';
import { bullRoot } from './queues/bull-root';
import { QueueDashboardModule } from './queues/queue-dashboard';
import { WebhooksModule } from './webhooks/webhooks.module';
import { InteractModule } from './interact/interact.module';
import { SandboxModule } from './sandbox/sandbox.module';
import { WORKER_MODULES, WORKER_QUEUES } from './worker.module';

/** The queues the operators' dashboard (/admin/queues, with ADMIN_TOKEN) shows: every one. */
export const DASHBOARD_QUEUES = WORKER_QUEUES;

/**
 * The HTTP API process. The guard, pipe and filter are registered here (not in
 * main.ts) so a test app built from this module gets exactly what production gets. The queue
 * consumers run here too only with RUN_WORKERS=true (the default, so one command serves a laptop).
 */
@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.register(config),
        LifecycleModule,
        RateLimitModule,
        EnterprisesModule,
        ProgrammeCensusModule,
        EnterpriseApiModule,
        GroupsModule,
        ParticipantsModule,
        ErasureModule,
        SessionsModule,
        CheckinPagesModule,
        PrivacyModule,
        IngestionApiModule,
        WebhooksModule,
        InteractModule,
        MetricsModule,
        SandboxModule,
        HealthModule,
        DataKeysModule,
        bullRoot(config),
        ...(config.adminToken ? [QueueDashboardModule.register(DASHBOARD_QUEUES)] : []),
        ...(config.runWorkers ? WORKER_MODULES : []),
        // What the operations port serves (docs/operations.md), while it is on.
        ...(opsPortOf(config, 'api') !== 0 ? [OperationsModule] : []),
      ],
      providers: [
        // Guards run in this order: authenticate (refusing addresses over the authentication
        // failure limit), then count the request against the key's limit, or, on a public route,
        // against its client address's limit (before the route's own guards).
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: PublicRateLimitGuard },
        { provide: APP_PIPE, useClass: SpecValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
